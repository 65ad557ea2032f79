#include "frazil/io/csv/csv_infer.hpp"

#include <cstring>

#include "frazil/io/csv/csv_value_parser.hpp"

namespace frazil::io::csv_detail {

namespace {

constexpr uint32_t bit(ValueKind k) { return 1u << static_cast<uint32_t>(k); }

}  // namespace

DataType dtype_for_kinds(uint32_t kinds) {
  if (kinds == 0) return DataType::string();
  if ((kinds & ~bit(ValueKind::Int)) == 0) return DataType::int64();
  // Integers beyond Int64 are Int128, as in Polars (beyond that too: the read then fails on
  // the value, as Polars' does); mixed with floats, Float64.
  if ((kinds & ~(bit(ValueKind::Int) | bit(ValueKind::BigInt))) == 0) return DataType::int128();
  const uint32_t numeric = bit(ValueKind::Int) | bit(ValueKind::BigInt) | bit(ValueKind::Float);
  if ((kinds & ~numeric) == 0) return DataType::float64();
  if (kinds == bit(ValueKind::Bool)) return DataType::boolean();
  if (kinds == bit(ValueKind::Date)) return DataType::date();
  if (kinds == bit(ValueKind::Datetime)) return DataType::datetime(TimeUnit::Microseconds);
  if (kinds == bit(ValueKind::DatetimeTz)) return DataType::datetime(TimeUnit::Microseconds, "UTC");
  if (kinds == bit(ValueKind::Time)) return DataType::time();
  return DataType::string();
}

InferredColumns infer_columns(const Dialect& d, const char* data, size_t begin, size_t size,
                              size_t ncols, const InferOptions& options) {
  std::vector<uint32_t> kinds(ncols, 0);
  const char* p = data + begin;
  const char* end = data + size;
  std::string scratch;
  int64_t rows = 0;
  const int64_t max_rows = options.max_rows.value_or(INT64_MAX);
  while (p < end && rows < max_rows) {
    if (is_comment_at(d, p, end)) {
      p = skip_line(d, p, end);
      continue;
    }
    size_t field = 0;
    bool bad = false;
    for (;;) {
      RawField f = scan_field(d, p, end);
      if (f.unterminated) {
        bad = true;
        break;
      }
      if (field < ncols && (kinds[field] & bit(ValueKind::String)) == 0) {
        const char *b, *e;
        field_content(d, f, scratch, b, e);
        // A quoted "" is an empty string, not a missing value.
        if (b == e && f.quoted) {
          kinds[field] |= bit(ValueKind::String);
          ++field;
          p = f.next;
          if (f.last) break;
          continue;
        }
        bool is_null = b == e;
        if (!is_null && field < options.null_values.size()) {
          const size_t n = static_cast<size_t>(e - b);
          for (const auto& v : options.null_values[field])
            if (v.size() == n && std::memcmp(v.data(), b, n) == 0) is_null = true;
        }
        if (!is_null)
          kinds[field] |= bit(classify_value(b, e, options.try_parse_dates, options.decimal_comma));
      }
      ++field;
      p = f.next;
      if (f.last) break;
    }
    if (bad) break;
    ++rows;
  }
  InferredColumns out;
  out.rows = rows;
  out.bytes = static_cast<size_t>(p - (data + begin));
  for (size_t c = 0; c < ncols; ++c) {
    out.dtypes.push_back(dtype_for_kinds(kinds[c]));
    out.no_values.push_back(kinds[c] == 0);
  }
  return out;
}

}  // namespace frazil::io::csv_detail
