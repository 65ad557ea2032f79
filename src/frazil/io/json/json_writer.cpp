#include "frazil/io/json/json_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "frazil/core/calendar.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/json_string.hpp"
#include "frazil/core/thread_pool.hpp"

namespace frazil::io {

void append_json_float(std::string& out, double v, bool is_float32);

namespace {

using int128 = __int128;

template <typename T>
void append_int(std::string& out, T v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_2(std::string& out, int64_t v) {
  out += static_cast<char>('0' + v / 10);
  out += static_cast<char>('0' + v % 10);
}

// YYYY-MM-DD without a format string (the writer's hot path for dates).
void append_date(std::string& out, int64_t days) {
  const CivilDate c = civil_from_days(days);
  if (c.year < 0 || c.year > 9999) {
    out += format_date(static_cast<int32_t>(days));
    return;
  }
  append_2(out, c.year / 100);
  append_2(out, c.year % 100);
  out += '-';
  append_2(out, c.month);
  out += '-';
  append_2(out, c.day);
}

void append_hms(std::string& out, int64_t secs_of_day) {
  append_2(out, secs_of_day / 3600);
  out += ':';
  append_2(out, secs_of_day / 60 % 60);
  out += ':';
  append_2(out, secs_of_day % 60);
}

// Fraction digits of a sub-second value in groups of three, as Polars prints them.
void append_fraction(std::string& out, int64_t frac, int digits) {
  if (frac == 0) return;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*lld", digits, static_cast<long long>(frac));
  int len = digits;
  while (len > 3 && std::strncmp(buf + len - 3, "000", 3) == 0) len -= 3;
  out += '.';
  out.append(buf, static_cast<size_t>(len));
}

void append_time_of_day(std::string& out, int64_t nanos_of_day) {
  append_hms(out, nanos_of_day / 1'000'000'000);
  append_fraction(out, nanos_of_day % 1'000'000'000, 9);
}

void append_datetime(std::string& out, int64_t v, TimeUnit unit, bool zoned) {
  const int64_t ups = units_per_second(unit);
  const int64_t secs = floor_div(v, ups);
  const int64_t frac = v - secs * ups;
  const int64_t days = floor_div(secs, 86400);
  const int64_t sod = secs - days * 86400;
  append_date(out, days);
  out += zoned ? 'T' : ' ';
  append_hms(out, sod);
  append_fraction(out, frac, unit == TimeUnit::Nanoseconds ? 9 : unit == TimeUnit::Microseconds ? 6 : 3);
  // Zoned values are written as UTC instants (frazil has no time zone database yet).
  if (zoned) out += "+00:00";
}

void append_duration(std::string& out, int64_t v, TimeUnit unit) {
  if (v == 0) {
    out += "P0D";
    return;
  }
  const bool neg = v < 0;
  const uint64_t a = neg ? -static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const uint64_t ups = static_cast<uint64_t>(units_per_second(unit));
  if (neg) out += '-';
  out += "PT";
  out += std::to_string(a / ups);
  if (const uint64_t frac = a % ups) {
    // Every trailing zero dropped: PT1.5S.
    std::string f = std::to_string(frac);
    const size_t digits = unit == TimeUnit::Nanoseconds ? 9 : unit == TimeUnit::Microseconds ? 6 : 3;
    f.insert(0, digits - f.size(), '0');
    while (!f.empty() && f.back() == '0') f.pop_back();
    out += '.';
    out += f;
  }
  out += 'S';
}

void append_decimal(std::string& out, int128 v, int scale) {
  const bool neg = v < 0;
  unsigned __int128 a = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits += static_cast<char>('0' + static_cast<int>(a % 10));
    a /= 10;
  } while (a);
  while (static_cast<int>(digits.size()) <= scale) digits += '0';
  std::string s(digits.rbegin(), digits.rend());
  if (scale > 0) s.insert(s.size() - static_cast<size_t>(scale), ".");
  out += '"';
  if (neg) out += '-';
  out += s;
  out += '"';
}

class RowFormatter {
 public:
  explicit RowFormatter(const DataFrame& df) {
    for (const Column& c : df.columns()) {
      // `"name":` once, not per row.
      std::string key;
      append_json_string(key, c.name());
      key += ':';
      keys_.push_back(std::move(key));
      arrays_.push_back(c.as_array());
      check(c.dtype(), c.name());
    }
  }
  void row(int64_t i, std::string& out) const {
    out += '{';
    for (size_t c = 0; c < arrays_.size(); ++c) {
      if (c) out += ',';
      out += keys_[c];
      value(*arrays_[c], i, out);
    }
    out += '}';
  }

 private:
  static void check(const DataType& t, const std::string& name) {
    if (t.id() == TypeId::Binary)
      throw InvalidOperationError(err_msg("cannot write column '", name, "' of dtype Binary to JSON"));
    if (t.id() == TypeId::List) check(t.inner(), name);
    if (t.id() == TypeId::Struct)
      for (const auto& f : t.fields()) check(f.dtype, name);
  }

  static void value(const Array& a, int64_t i, std::string& out) {
    if (a.is_null(i)) {
      out += "null";
      return;
    }
    const DataType& t = a.dtype();
    switch (t.id()) {
      case TypeId::Null: out += "null"; return;
      case TypeId::Boolean: out += a.bool_value(i) ? "true" : "false"; return;
      case TypeId::Int8: append_int(out, a.values<int8_t>()[i]); return;
      case TypeId::Int16: append_int(out, a.values<int16_t>()[i]); return;
      case TypeId::Int32: append_int(out, a.values<int32_t>()[i]); return;
      case TypeId::Int64: append_int(out, a.values<int64_t>()[i]); return;
      case TypeId::UInt8: append_int(out, a.values<uint8_t>()[i]); return;
      case TypeId::UInt16: append_int(out, a.values<uint16_t>()[i]); return;
      case TypeId::UInt32: append_int(out, a.values<uint32_t>()[i]); return;
      case TypeId::UInt64: append_int(out, a.values<uint64_t>()[i]); return;
      case TypeId::Float32: {
        const float f = a.values<float>()[i];
        if (std::isfinite(f)) append_json_float(out, f, true);
        else out += "null";
        return;
      }
      case TypeId::Float64: {
        const double f = a.values<double>()[i];
        if (std::isfinite(f)) append_json_float(out, f, false);
        else out += "null";
        return;
      }
      case TypeId::String: append_json_string(out, a.str_value(i)); return;
      case TypeId::Binary: append_json_string(out, a.str_value(i)); return;
      case TypeId::Date:
        out += '"';
        append_date(out, a.values<int32_t>()[i]);
        out += '"';
        return;
      case TypeId::Datetime:
        out += '"';
        append_datetime(out, a.values<int64_t>()[i], t.time_unit(), t.time_zone().has_value());
        out += '"';
        return;
      case TypeId::Duration:
        out += '"';
        append_duration(out, a.values<int64_t>()[i], t.time_unit());
        out += '"';
        return;
      case TypeId::Time:
        out += '"';
        append_time_of_day(out, a.values<int64_t>()[i]);
        out += '"';
        return;
      case TypeId::Decimal: append_decimal(out, a.values<int128>()[i], t.scale()); return;
      case TypeId::Array:
      case TypeId::List: {
        const int64_t* o = a.list_offsets();
        out += '[';
        for (int64_t j = o[i]; j < o[i + 1]; ++j) {
          if (j > o[i]) out += ',';
          value(*a.child(0), j, out);
        }
        out += ']';
        return;
      }
      case TypeId::Struct: {
        out += '{';
        for (size_t f = 0; f < t.fields().size(); ++f) {
          if (f) out += ',';
          append_json_string(out, t.fields()[f].name);
          out += ':';
          value(*a.child(f), a.offset() + i, out);
        }
        out += '}';
        return;
      }
      case TypeId::Categorical:
      case TypeId::Enum: append_json_string(out, t.categories().get(a.values<uint32_t>()[i])); return;
      case TypeId::Int128: append_decimal(out, a.values<int128>()[i], 0); return;
      case TypeId::UInt128:
      case TypeId::Float16: throw InvalidOperationError(err_msg("cannot write ", t, " as JSON"));
    }
  }

  std::vector<std::string> keys_;
  std::vector<ArrayRef> arrays_;
};

}  // namespace

void append_json_float(std::string& out, double v, bool is_float32) {
  // The shortest round-trip digits and exponent, laid out as ryu does (what Polars uses),
  // with an explicit '+' on positive exponents.
  char sci[40];
  auto r = is_float32 ? std::to_chars(sci, sci + sizeof sci, static_cast<float>(v), std::chars_format::scientific)
                      : std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  const char* p = sci;
  const char* end = r.ptr;
  if (*p == '-') {
    out += '-';
    ++p;
  }
  const char* e = std::find(p, end, 'e');
  char digits[24];
  int len = 0;
  for (const char* q = p; q < e; ++q)
    if (*q != '.') digits[len++] = *q;
  int exp10 = 0;
  std::from_chars(e + 1 + (e[1] == '+'), end, exp10);
  const int kk = exp10 + 1;  // position of the decimal point after the first digit
  const int max_int = is_float32 ? 13 : 16;
  const int min_frac = is_float32 ? -6 : -5;
  if (len <= kk && kk <= max_int) {
    out.append(digits, static_cast<size_t>(len));
    out.append(static_cast<size_t>(kk - len), '0');
    out += ".0";
  } else if (0 < kk && kk <= max_int) {
    out.append(digits, static_cast<size_t>(kk));
    out += '.';
    out.append(digits + kk, static_cast<size_t>(len - kk));
  } else if (min_frac < kk && kk <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-kk), '0');
    out.append(digits, static_cast<size_t>(len));
  } else {
    out += digits[0];
    if (len > 1) {
      out += '.';
      out.append(digits + 1, static_cast<size_t>(len - 1));
    }
    out += 'e';
    if (exp10 > 0) out += '+';
    append_int(out, exp10);
  }
}

std::string format_json_float(double v, bool is_float32) {
  std::string out;
  append_json_float(out, v, is_float32);
  return out;
}

NdjsonWriter::NdjsonWriter(OutputStream& out, Schema schema, bool json_array)
    : out_(&out), schema_(std::move(schema)), json_array_(json_array) {}

NdjsonWriter::NdjsonWriter(const std::string& path, Schema schema, bool json_array)
    : file_(std::make_unique<OutputFile>(path)), out_(file_.get()), schema_(std::move(schema)), json_array_(json_array) {}

NdjsonWriter::~NdjsonWriter() = default;

void NdjsonWriter::write_batch(const DataFrame& batch) {
  if (batch.schema() != schema_)
    throw SchemaError(err_msg("cannot write a batch with schema ", batch.schema().to_string(),
                              " to a JSON file of schema ", schema_.to_string()));
  if (batch.height() == 0) return;
  RowFormatter f(batch);
  // Rows are formatted in parallel blocks, a wave of a few blocks per thread at a time, and
  // written in order. The block buffers are kept: new big buffers would be fresh pages the
  // kernel zeroes, which cost as much as the formatting.
  constexpr int64_t kBlock = 16'384;
  const int64_t n = batch.height();
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  const int64_t wave = std::min<int64_t>(blocks, static_cast<int64_t>(std::max<size_t>(2, thread_pool_size() * 2)));
  if (static_cast<int64_t>(block_text_.size()) < wave) block_text_.resize(static_cast<size_t>(wave));
  const bool first_block_first_row = !any_row_;
  for (int64_t first = 0; first < blocks; first += wave) {
    const int64_t count = std::min(wave, blocks - first);
    parallel_for(static_cast<size_t>(count), [&](size_t k) {
      std::string& out = block_text_[k];
      out.clear();
      const int64_t b = first + static_cast<int64_t>(k);
      const int64_t lo = b * kBlock, hi = std::min(n, (b + 1) * kBlock);
      for (int64_t i = lo; i < hi; ++i) {
        if (json_array_) out += (i == 0 && first_block_first_row) ? "[" : ",";
        f.row(i, out);
        if (!json_array_) out += '\n';
        // Room for the block, guessed from its first row.
        if (i == lo) out.reserve(out.size() * static_cast<size_t>(hi - lo) * 5 / 4);
      }
    });
    for (int64_t k = 0; k < count; ++k) out_->write(block_text_[static_cast<size_t>(k)]);
  }
  any_row_ = true;
}

void NdjsonWriter::finish() {
  if (finished_) return;
  if (json_array_) out_->write(any_row_ ? std::string_view("]") : std::string_view("[]"));
  finished_ = true;
  if (file_) file_->commit();
}

void NdjsonWriter::abort() noexcept {
  finished_ = true;
  if (file_) file_->abort();
}

std::string write_ndjson_string(const DataFrame& df) {
  MemoryOutput out;
  NdjsonWriter w(out, df.schema());
  w.write_batch(df);
  w.finish();
  return out.take();
}

std::string write_json_string(const DataFrame& df) {
  MemoryOutput out;
  NdjsonWriter w(out, df.schema(), true);
  w.write_batch(df);
  w.finish();
  return out.take();
}

}  // namespace frazil::io
