#include "frazil/io/csv/csv_chunk_parser.hpp"

#include <memory>

namespace frazil::io::csv_detail {

namespace {

constexpr size_t kMaxValueInError = 100;

bool is_null_value(const ColumnPlan& col, const char* b, const char* e) {
  const size_t n = static_cast<size_t>(e - b);
  for (const auto& v : col.null_values)
    if (v.size() == n && std::memcmp(v.data(), b, n) == 0) return true;
  return false;
}

}  // namespace

ChunkResult parse_chunk(const char* data, size_t size, size_t begin, size_t target, size_t scan_limit,
                        int64_t max_rows, const ChunkPlan& plan, int64_t reserve_rows) {
  ChunkResult out;
  out.begin = begin;
  out.max_rows = max_rows;
  const Dialect& d = plan.dialect;
  const size_t ncols = plan.columns.size();
  // Parsers indexed by file column (null when the column is skipped).
  std::vector<std::unique_ptr<ColumnParser>> owned(plan.num_slots);
  std::vector<ColumnParser*> by_col(ncols, nullptr);
  for (size_t c = 0; c < ncols; ++c) {
    const ColumnPlan& col = plan.columns[c];
    if (col.slot < 0) continue;
    owned[col.slot] = make_column_parser(col.dtype, plan.config);
    owned[col.slot]->reserve(reserve_rows);
    by_col[c] = owned[col.slot].get();
  }
  const bool limited = scan_limit < size;
  const char* p = data + begin;
  const char* const tgt = data + target;
  const char* const lim = data + scan_limit;
  std::string scratch;
  int64_t rows = 0;

  auto fail = [&](ChunkErrorKind kind, size_t pos, size_t column, const char* b, const char* e) {
    ChunkError err;
    err.kind = kind;
    err.pos = pos;
    err.column = column;
    if (b) err.value.assign(b, std::min(static_cast<size_t>(e - b), kMaxValueInError));
    out.error = std::move(err);
  };

  while (p < tgt && rows < max_rows) {
    if (p >= lim) {
      out.complete = false;
      break;
    }
    if (is_comment_at(d, p, lim)) {
      const char* next = skip_line(d, p, lim);
      if (limited && next == lim && lim[-1] != d.eol) {
        out.complete = false;
        break;
      }
      p = next;
      continue;
    }
    const char* row_start = p;
    size_t field = 0;
    bool stop = false;
    for (;;) {
      RawField f = scan_field(d, p, lim);
      if (f.at_end && limited) {
        // The row may go on past the limit: only a full parse can tell.
        out.complete = false;
        stop = true;
        break;
      }
      if (f.unterminated) {
        fail(ChunkErrorKind::Unterminated, static_cast<size_t>(f.begin - data), field, nullptr, nullptr);
        stop = true;
        break;
      }
      if (field < ncols) {
        if (ColumnParser* cp = by_col[field]) {
          const ColumnPlan& col = plan.columns[field];
          const char *b, *e;
          field_content(d, f, scratch, b, e);
          const bool empty_is_null = b == e && !(f.quoted ? col.quoted_empty_is_value : col.unquoted_empty_is_value);
          if (empty_is_null || (b != e && !col.null_values.empty() && is_null_value(col, b, e))) {
            cp->add_null();
          } else {
            AddResult r = cp->add(b, e);
            if (r != AddResult::Ok) {
              // A value outside an Enum's categories is an error even with ignore_errors (Polars).
              if (plan.ignore_errors && r != AddResult::NotInEnum) {
                cp->add_null();
              } else {
                fail(r == AddResult::BadUtf8 ? ChunkErrorKind::BadUtf8 : ChunkErrorKind::BadValue,
                     static_cast<size_t>(f.begin - data), field, b, e);
                stop = true;
                break;
              }
            }
          }
        }
      } else if (!plan.truncate_ragged_lines) {
        fail(ChunkErrorKind::Ragged, static_cast<size_t>(row_start - data), field, nullptr, nullptr);
        stop = true;
        break;
      }
      ++field;
      p = f.next;
      if (f.last) break;
    }
    if (stop) break;
    // Short rows are padded with nulls, as Polars does.
    for (; field < ncols; ++field)
      if (ColumnParser* cp = by_col[field]) cp->add_null();
    ++rows;
  }
  out.rows = rows;
  out.end = static_cast<size_t>(p - data);
  if (out.error || !out.complete) return out;
  out.columns.resize(plan.num_slots);
  for (size_t s = 0; s < plan.num_slots; ++s) out.columns[s] = owned[s]->finish();
  return out;
}

}  // namespace frazil::io::csv_detail
