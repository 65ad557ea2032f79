// What the sources of a frame say about its columns without reading them: whether a
// column has no nulls, and a bound on its distinct values (from Parquet footers or an
// in-memory frame's arrays). SUM drops its "no rows -> NULL" guard for columns without
// nulls, and FROM-list join ordering sizes key joins with the bounds; and how many rows
// the cost model expects a frame to have.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/api/lazy_frame.hpp"

namespace frazil::sql {

struct SourceColumnStats {
  bool non_null = false;
  std::optional<double> distinct_bound;  // at most this many distinct values
};

// Per column of `frame` (by name), when the frame reads a source directly (a file scan or
// an in-memory frame, possibly filtered or sliced); nullopt otherwise.
std::optional<SourceColumnStats> source_column_stats(const LazyFrame& frame, const std::string& column);

// Rows the optimizer's cost model expects from a frame (its sources' sizes and fixed
// filter selectivities); a million when a source cannot be sized.
double estimate_rows(const LazyFrame& frame);

}  // namespace frazil::sql
