// Reductions: over a whole array (-> Scalar) and per group (-> one value per group).
// Nulls are skipped (except by first/last, len, null_count, n_unique). The dtype rules are
// Polars 2.1's: sum of Int8/16/UInt8/16 -> Int64, Int32 -> Int32 (wrapping), Int64,
// UInt32, UInt64 and floats keep their dtype, Boolean -> UInt32, Duration stays,
// Decimal(p, s) -> Decimal(38, s); mean/median/std/var/quantile -> Float64 (Float32 stays
// Float32; Decimal -> Float64); mean/median/quantile of Date -> Datetime(us), of Datetime,
// Duration, Time -> the same dtype (truncated); min/max/first/last keep the dtype;
// count/len/n_unique/null_count -> UInt32; any/all: Boolean -> Boolean. A Null input gives
// a Null result (counts excepted). Other combinations throw InvalidOperationError.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/scratch.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

enum class AggKind {
  Sum,
  Mean,
  Min,
  Max,
  Count,      // non-null values
  Len,        // all rows, nulls included
  NullCount,
  NUnique,    // distinct values, null counts as one value
  First,
  Last,
  Median,
  Std,        // with ddof
  Var,        // with ddof
  Quantile,   // with quantile + interpolation
  Any,        // Boolean; ignore_nulls
  All,
};

struct AggOptions {
  int ddof = 1;
  double quantile = 0.5;
  std::string interpolation = "nearest";  // nearest | lower | higher | midpoint | linear
  bool ignore_nulls = true;               // Any/All: Kleene when false
};

const char* agg_name(AggKind kind);  // "sum", "mean", ...
DataType agg_result_dtype(AggKind kind, const DataType& input);

// Whole-array reduction. Empty or all-null input: sum -> 0, count/len -> 0, any -> false,
// all -> true, others -> null. std/var with count <= ddof -> null. Min/max skip NaN unless
// every value is NaN; median/quantile sort NaN last.
Scalar aggregate(AggKind kind, const Array& values, const AggOptions& options = {});

// Group assignment: rows of a key set mapped to dense group ids in order of first
// appearance.
struct Groups {
  ScratchVector<IdxSize> group_ids;  // per row (ScratchVector: resize() leaves it unset)
  std::vector<IdxSize> first_rows;  // per group: the row where it first appears
  size_t num_groups() const { return first_rows.size(); }
};

// Groups rows by the values of the key columns (null == null, NaN == NaN, -0.0 == 0.0).
Groups group_rows(const std::vector<ArrayRef>& keys);
// n groups of one row each: group i holds row i (per-row partial states, per-group values
// aggregated again).
Groups one_group_per_row(int64_t n);

// Per-group reduction: result has num_groups rows, row g aggregates the rows with
// group_ids[row] == g. values has one row per group id (ShapeError otherwise).
ArrayRef aggregate_grouped(AggKind kind, const Array& values, const Groups& groups,
                           const AggOptions& options = {});

// The totals of UInt32 partial counts (len, count, the sum of a Boolean) of several
// morsels: UInt32 like the counts, and a ComputeError naming `what` ("len()") when a total
// passes UInt32's range (counts never wrap). The second form totals per group.
Scalar sum_counts(const Array& counts, std::string_view what);
ArrayRef sum_counts_grouped(const Array& counts, const Groups& groups, std::string_view what);

// Distinct rows of a key set. keep = "first" | "last" | "any" | "none"; returns the row
// indices kept, in ascending row order.
std::vector<IdxSize> unique_rows(const std::vector<ArrayRef>& keys, const std::string& keep);

}  // namespace frazil::compute
