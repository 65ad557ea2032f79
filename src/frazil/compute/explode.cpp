#include "frazil/compute/explode.hpp"

#include <algorithm>
#include <cstdint>

#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

void check_list(const DataType& dtype, const std::string& column = {}) {
  if (dtype.is_list_like()) return;
  if (column.empty())
    throw InvalidOperationError(err_msg("`explode` operation not supported for dtype `", dtype.short_name(), "`"));
  throw InvalidOperationError(
      err_msg("`explode` operation not supported for dtype `", dtype.short_name(), "` (column \"", column, "\")"));
}

// A List array read row by row: element count (0 for a null list) and output row count.
struct ListRows {
  const Array& list;
  const int64_t* offsets;
  ExplodeOptions options;

  ListRows(const Array& a, const ExplodeOptions& o) : list(a), offsets(a.list_offsets()), options(o) {}

  int64_t elements(int64_t i) const { return list.is_valid(i) ? offsets[i + 1] - offsets[i] : 0; }
  int64_t out_rows(int64_t i) const {
    if (!list.is_valid(i)) return options.keep_nulls ? 1 : 0;
    const int64_t len = offsets[i + 1] - offsets[i];
    return len > 0 ? len : (options.empty_as_null ? 1 : 0);
  }
};

constexpr int64_t kMaxRows = static_cast<int64_t>(UINT32_MAX) - 1;  // kNullIdx stays free

std::string describe(const ListRows& r, int64_t i) {
  if (!r.list.is_valid(i)) return "a null list";
  const int64_t n = r.offsets[i + 1] - r.offsets[i];
  if (n == 0) return "an empty list";
  return err_msg("a list of ", n, n == 1 ? " element" : " elements");
}

}  // namespace

ArrayRef explode(const Array& list, const ExplodeOptions& options, std::vector<IdxSize>* rows) {
  check_list(list.dtype());
  const int64_t n = list.length();
  if (n > kMaxRows) throw ComputeError(err_msg("cannot explode more than ", kMaxRows, " rows at once"));
  const ListRows r(list, options);
  const int64_t* off = r.offsets;
  const int64_t base = n > 0 ? off[0] : 0;
  const int64_t span = n > 0 ? off[n] - base : 0;
  if (span < 0) throw ComputeError("explode: a list array has decreasing offsets");
  if (span > kMaxRows) throw ComputeError(err_msg("cannot explode more than ", kMaxRows, " list elements at once"));

  // Output rows, and whether every position of the child's [base, base + span) range
  // appears once, in order: then the values are that range of the child, no copy.
  int64_t total = 0;
  bool contiguous = true;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = off[i + 1] - off[i];
    if (len < 0) throw ComputeError("explode: a list array has decreasing offsets");
    const int64_t k = r.out_rows(i);
    total += k;
    // A null list hides its elements; an inserted null row is not a child value.
    if (list.is_null(i) ? (len > 0 || k > 0) : (len == 0 && k > 0)) contiguous = false;
  }
  if (total > kMaxRows) throw ComputeError(err_msg("explode would give more than ", kMaxRows, " rows"));

  const ArrayRef child = list.child(0)->slice(base, span);
  if (rows) {
    rows->clear();
    rows->reserve(total);
    for (int64_t i = 0; i < n; ++i) rows->insert(rows->end(), r.out_rows(i), static_cast<IdxSize>(i));
  }
  if (contiguous) return child;

  std::vector<IdxSize> idx;
  idx.reserve(total);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = r.elements(i);
    if (len == 0) {
      if (r.out_rows(i) > 0) idx.push_back(kNullIdx);
      continue;
    }
    for (int64_t j = off[i] - base; j < off[i + 1] - base; ++j) idx.push_back(static_cast<IdxSize>(j));
  }
  return take(*child, idx);
}

DataFrame explode_frame(const DataFrame& df, const std::vector<std::string>& columns, const ExplodeOptions& options) {
  if (columns.empty()) throw InvalidOperationError("no columns provided in explode");
  // Distinct names in first-seen order, each checked to exist and hold lists.
  std::vector<std::string> names;
  for (const auto& c : columns)
    if (std::find(names.begin(), names.end(), c) == names.end()) names.push_back(c);
  std::vector<ArrayRef> lists;
  for (const auto& name : names) {
    const Column& c = df.column(name);  // ColumnNotFoundError
    check_list(c.dtype(), name);
    lists.push_back(c.as_array());
  }

  // Every other exploded column must agree with the first, row by row.
  const ListRows first(*lists[0], options);
  for (size_t k = 1; k < lists.size(); ++k) {
    const ListRows other(*lists[k], options);
    for (int64_t i = 0; i < df.height(); ++i) {
      if (first.elements(i) == other.elements(i) && first.out_rows(i) == other.out_rows(i)) continue;
      throw ShapeError(err_msg("exploded columns must have matching element counts: a row has ",
                               describe(first, i), " in \"", names[0], "\" but ", describe(other, i), " in \"",
                               names[k], "\""));
    }
  }

  std::vector<IdxSize> rows;
  std::vector<ArrayRef> exploded(lists.size());
  exploded[0] = explode(*lists[0], options, &rows);
  for (size_t k = 1; k < lists.size(); ++k) exploded[k] = explode(*lists[k], options);
  const int64_t out_n = static_cast<int64_t>(rows.size());
  // Each row gave exactly one row: the other columns stay as they are.
  bool identity = out_n == df.height();
  for (int64_t i = 0; identity && i < out_n; ++i) identity = rows[i] == static_cast<IdxSize>(i);

  std::vector<Column> out;
  out.reserve(df.width());
  for (const auto& c : df.columns()) {
    auto it = std::find(names.begin(), names.end(), c.name());
    if (it != names.end()) {
      out.emplace_back(c.name(), exploded[it - names.begin()]);
    } else if (identity) {
      out.push_back(c);
    } else if (c.is_scalar()) {
      out.push_back(Column::scalar(c.name(), c.scalar_value(), out_n));
    } else {
      out.emplace_back(c.name(), take(*c.as_array(), rows));
    }
  }
  return DataFrame(std::move(out));
}

}  // namespace frazil::compute
