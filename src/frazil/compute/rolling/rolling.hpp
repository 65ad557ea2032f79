// Rolling-window aggregations: every row aggregates the non-null values of its window, the
// rows [start, end) around it. Windows come from a fixed size (rolling_sum(3)) or from the
// values of a sorted index (rolling_sum_by("t", "2d"), Expr.rolling); they move forward
// monotonically, so each kernel adds and removes every row once:
//   sum, mean      running sums (integers exact; floats compensated, NaN/inf counted apart)
//   min, max       a monotonic deque
//   var, std, skew, kurtosis   moment states over a two-stack queue (no subtraction drift)
//   median, quantile           two heaps split at the quantile, with lazy deletion
//   rank           a sorted buffer of the window
// A row's result is null when its window holds fewer than min_samples non-null values (an
// empty window sums to 0). Weighted windows (sum, mean, var, std, min, max) compute each
// window's dot product with the weights.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "frazil/compute/rank.hpp"
#include "frazil/compute/segments.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class RollingAgg : uint8_t { Sum, Mean, Min, Max, Var, Std, Median, Quantile, Skew, Kurtosis, Rank };

struct RollingParams {
  RollingAgg agg = RollingAgg::Sum;
  int64_t min_samples = 1;
  int ddof = 1;                           // var, std
  double quantile = 0.5;                  // quantile
  std::string interpolation = "nearest";  // quantile: nearest lower higher midpoint linear equiprobable
  bool bias = true;                       // skew, kurtosis
  bool fisher = true;                     // kurtosis
  RankMethod rank_method = RankMethod::Average;
  std::optional<uint64_t> seed;           // rank "random"
};

const char* rolling_agg_name(RollingAgg agg);  // "rolling_sum", ...
// The result dtype for an input dtype (InvalidOperationError for dtypes Polars rejects).
DataType rolling_dtype(RollingAgg agg, const DataType& input, bool weighted = false,
                       RankMethod method = RankMethod::Average);

// Each row's window [start, end) (global row numbers, inside its segment), non-decreasing.
struct RollingWindows {
  std::vector<int64_t> start, end;
};

// Fixed windows of `size` rows ending at each row, or centred on it (the larger half after
// it); cut at the segment's edges.
RollingWindows fixed_windows(Segments segments, int64_t size, bool center);
// Windows by index values `t` (sorted ascending within each segment, no nulls): row i's
// window holds the rows with t in (t_i + offset, t_i + offset + period], the ends open or
// closed as `closed` says (right, left, both, none).
RollingWindows windows_by(const int64_t* t, Segments segments, int64_t period, int64_t offset,
                          const std::string& closed);
// Row i's window from given bounds: t in (lo[i], hi[i]], the ends as `closed` says; the bounds
// are non-decreasing within each segment (calendar_windows.hpp computes calendar ones).
struct WindowBounds {
  std::vector<int64_t> lo, hi;
};
RollingWindows windows_by_bounds(const int64_t* t, Segments segments, const WindowBounds& bounds,
                                 const std::string& closed);

// The aggregate of each row's window over `values` (numbers, Boolean, temporals as Polars
// allows for `agg`). Windows must be non-decreasing.
ArrayRef rolling(const Array& values, const RollingWindows& windows, const RollingParams& params);
// Fixed windows without materialising them (rolling_sum(100) over 10^7 rows).
ArrayRef rolling_fixed(const Array& values, Segments segments, int64_t size, bool center,
                       const RollingParams& params);
// Weighted fixed windows: weights[k] multiplies the k-th row of a full window (aligned at the
// window's end, or its centre). Sum, Mean, Var, Std, Min, Max; other aggregates ignore the
// weights. Nulls are not supported (ComputeError), as in Polars.
ArrayRef rolling_weighted(const Array& values, Segments segments, std::span<const double> weights, bool center,
                          const RollingParams& params);

// rolling_*_by: windows by the values of `by` (integers, Date, Datetime) of length
// `window_size` (a Polars duration string: "2d", "3i"); rows are taken in `by` order within
// each segment (gathered and put back when `by` is not sorted).
ArrayRef rolling_by(const Array& values, const Array& by, Segments segments, const std::string& window_size,
                    const std::string& closed, const RollingParams& params);
// The index column as int64 ticks and a duration string in those ticks (Date counts
// microseconds); InvalidOperationError for other dtypes or an index duration on a temporal.
ArrayRef index_ticks(const Array& by, const char* what);
int64_t duration_ticks(const std::string& duration, const DataType& by, const char* what);

}  // namespace frazil::compute
