// Polars 2.1's bin_intervals / bin_quantiles: each value gets the index of the interval
// between ascending breakpoints it falls in (left-closed [a, b) by default, right-closed
// (a, b] on request; below the first break is bin 0, past the last is bin len(breaks);
// NaN sorts above every number), as UInt32, as an Enum of labels, or as a Struct
// {bin, left, right} whose outer bounds are null. Nulls get null.
#pragma once

#include <string>
#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

struct IntervalBinning {
  std::vector<std::string> labels;  // empty: UInt32 bin indices
  bool include_intervals = false;
  bool right_closed = false;
};

// The output dtype for values of `value_dtype` (the bounds' dtype).
DataType interval_bins_dtype(const DataType& value_dtype, const IntervalBinning& how);

// Bins over explicit breaks (non-decreasing, no nulls; cast to the values' dtype):
// ComputeError otherwise; ShapeError for a wrong number of labels.
ArrayRef bin_by_breaks(const Array& values, const Array& breaks, const IntervalBinning& how);

// `n` equal-width bins over [min, max] of the non-null, non-NaN values (breaks at
// min + (max - min) * k / n, rounded up for integer values).
ArrayRef bin_uniform(const Array& values, int64_t n, const IntervalBinning& how);

// Bins at the values' quantiles: for probability q, the value of rank floor(q * n) among
// the n sorted non-null, non-NaN values (in the values' dtype); repeated breaks merge.
ArrayRef bin_at_quantiles(const Array& values, const std::vector<double>& quantiles, const IntervalBinning& how);

// Bins by position in sorted order (bin_ranks): the non-null values are sorted (ties in
// input order) and cut at positions round(r * n) of the fractions `ranks`, or into `n_bins`
// near-equal bins (earlier bins one larger). The bounds are the values where bins start.
ArrayRef bin_by_rank(const Array& values, const std::vector<double>& ranks, int64_t n_bins, const IntervalBinning& how);

}  // namespace frazil::compute
