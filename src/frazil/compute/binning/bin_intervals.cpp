#include "frazil/compute/binning/bin_intervals.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/inspect.hpp"
#include "frazil/compute/positions.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

DataType category_dtype(const IntervalBinning& how) {
  return how.labels.empty() ? DataType::uint32() : DataType::enum_(Categories::fixed(how.labels));
}

ArrayRef f64_breaks(const std::vector<double>& breaks, const DataType& dtype) {
  PrimitiveBuilder<double> b(DataType::float64(), static_cast<int64_t>(breaks.size()));
  for (double v : breaks) b.push(v);
  ArrayRef f = b.finish();
  if (dtype.is_float() || dtype.is_null()) return dtype.is_null() ? f : cast(*f, dtype);
  // Rounded up to a value the dtype holds, as Polars derives breaks for integer input.
  PrimitiveBuilder<double> r(DataType::float64(), static_cast<int64_t>(breaks.size()));
  for (double v : breaks) r.push(std::ceil(v));
  return cast(*r.finish(), dtype, false);
}

// Merges repeated neighbours of ascending breaks.
ArrayRef distinct_breaks(const ArrayRef& breaks) {
  if (breaks->length() < 2) return breaks;
  ArrayRef pos = search_sorted(*breaks, *breaks, "left", false);
  std::vector<IdxSize> keep;
  const auto* p = pos->values<IdxSize>();
  for (int64_t i = 0; i < breaks->length(); ++i)
    if (p[i] == static_cast<IdxSize>(i)) keep.push_back(static_cast<IdxSize>(i));
  return static_cast<int64_t>(keep.size()) == breaks->length() ? breaks : take(*breaks, keep);
}

// The non-null, non-NaN values as Float64, sorted.
std::vector<double> sorted_numbers(const Array& values) {
  if (!values.dtype().is_numeric() && !values.dtype().is_boolean() && !values.dtype().is_null())
    throw InvalidOperationError(err_msg("binning by count or quantile needs numeric values, got `",
                                        values.dtype().short_name(), "`"));
  std::vector<double> out;
  if (values.dtype().is_null()) return out;
  ArrayRef f = cast(values, DataType::float64(), false);
  const double* v = f->values<double>();
  for (int64_t i = 0; i < f->length(); ++i)
    if (f->is_valid(i) && !std::isnan(v[i])) out.push_back(v[i]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

DataType interval_bins_dtype(const DataType& value_dtype, const IntervalBinning& how) {
  DataType bin = category_dtype(how);
  if (!how.include_intervals) return bin;
  return DataType::struct_({Field{"bin", bin}, Field{"left", value_dtype}, Field{"right", value_dtype}});
}

ArrayRef bin_by_breaks(const Array& values, const Array& breaks, const IntervalBinning& how) {
  if (breaks.null_count() > 0) throw ComputeError("breakpoints cannot contain nulls");
  ArrayRef b = breaks.dtype() == values.dtype() ? breaks.slice(0, breaks.length()) : cast(breaks, values.dtype());
  const int64_t nb = b->length();
  if (!is_sorted(*b, false, false)) throw ComputeError("breakpoints must be non-decreasing");
  if (!how.labels.empty() && static_cast<int64_t>(how.labels.size()) != nb + 1)
    throw ShapeError(err_msg("`bin_intervals` produces ", nb + 1, " bins but got ", how.labels.size(), " labels"));
  const DataType bin_dtype = category_dtype(how);
  const int64_t n = values.length();
  ArrayRef idx = search_sorted(*b, values, how.right_closed ? "left" : "right", false);
  const auto* k = idx->values<IdxSize>();
  PrimitiveBuilder<uint32_t> bins(bin_dtype, n);
  for (int64_t i = 0; i < n; ++i) {
    if (values.is_null(i)) {
      bins.push_null();
    } else {
      bins.push(static_cast<uint32_t>(k[i]));
    }
  }
  ArrayRef bin = bins.finish();
  if (!how.include_intervals) return bin;
  PrimitiveBuilder<int64_t> left_at(DataType::int64(), n), right_at(DataType::int64(), n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t kk = static_cast<int64_t>(k[i]);
    if (values.is_null(i) || kk == 0) left_at.push_null(); else left_at.push(kk - 1);
    if (values.is_null(i) || kk == nb) right_at.push_null(); else right_at.push(kk);
  }
  ArrayRef left = gather(*b, *left_at.finish(), true);
  ArrayRef right = gather(*b, *right_at.finish(), true);
  return Array::make(interval_bins_dtype(values.dtype(), how), n, Buffer(), {}, {bin, left, right});
}

ArrayRef bin_uniform(const Array& values, int64_t n, const IntervalBinning& how) {
  if (n < 1) throw InvalidOperationError(err_msg("bin_intervals needs at least one bin, got ", n));
  const auto sorted = sorted_numbers(values);
  std::vector<double> breaks;
  if (!sorted.empty()) {
    const double lo = sorted.front(), hi = sorted.back();
    for (int64_t k = 1; k < n; ++k) {
      const double t = static_cast<double>(k) / static_cast<double>(n);
      breaks.push_back(lo * (1.0 - t) + hi * t);
    }
  }
  IntervalBinning h = how;
  ArrayRef b = distinct_breaks(f64_breaks(breaks, values.dtype()));
  if (!h.labels.empty() && static_cast<int64_t>(h.labels.size()) != n)
    throw ShapeError(err_msg("expected ", n, " labels (one per bin), got ", h.labels.size()));
  if (!h.labels.empty()) h.labels.resize(static_cast<size_t>(b->length() + 1));
  ArrayRef out = bin_by_breaks(values, *b, h);
  return h.labels.size() == how.labels.size() ? out : cast(*out, interval_bins_dtype(values.dtype(), how));
}

ArrayRef bin_at_quantiles(const Array& values, const std::vector<double>& quantiles, const IntervalBinning& how) {
  std::vector<double> qs = quantiles;
  for (double q : qs)
    if (!(q >= 0.0 && q <= 1.0)) throw ComputeError(err_msg("quantile should be between 0.0 and 1.0, got ", q));
  std::sort(qs.begin(), qs.end());
  const auto sorted = sorted_numbers(values);
  // Polars' quantile with "lower" interpolation over the non-null values, NaNs sorted last:
  // rank floor(q * (n - 1)) of the n of them, NaNs counted (0.5 of [0, 1, 2, 3] is 1, of
  // [0, 1, 2, NaN] 1, 0.3 of 0..9 is 2); a rank among the NaNs is a NaN break (as Polars:
  // NaN sorts above every number).
  int64_t nans = 0;
  if (values.dtype().is_float()) {
    ArrayRef f = cast(values, DataType::float64(), false);
    for (int64_t i = 0; i < f->length(); ++i) nans += f->is_valid(i) && std::isnan(f->values<double>()[i]);
  }
  const double ranked = static_cast<double>(sorted.size()) + static_cast<double>(nans);
  std::vector<double> breaks;
  if (!sorted.empty()) {
    for (double q : qs) {
      const size_t at = static_cast<size_t>(std::floor(q * (ranked - 1.0)));
      const double v = at < sorted.size() ? sorted[at] : std::numeric_limits<double>::quiet_NaN();
      breaks.push_back(v);
    }
  }
  if (!how.labels.empty() && how.labels.size() != qs.size() + 1)
    throw ShapeError(err_msg("expected ", qs.size() + 1, " labels (one per bin), got ", how.labels.size()));
  IntervalBinning h = how;
  ArrayRef b = distinct_breaks(f64_breaks(breaks, values.dtype()));
  if (!h.labels.empty()) h.labels.resize(static_cast<size_t>(b->length() + 1));
  ArrayRef out = bin_by_breaks(values, *b, h);
  return h.labels.size() == how.labels.size() ? out : cast(*out, interval_bins_dtype(values.dtype(), how));
}

ArrayRef bin_by_rank(const Array& values, const std::vector<double>& ranks, int64_t n_bins, const IntervalBinning& how) {
  if (values.dtype().is_nested())
    throw InvalidOperationError(err_msg("bin_ranks needs orderable values, got `", values.dtype().short_name(), "`"));
  const int64_t n = values.length();
  const int64_t valid = n - values.null_count();
  // cuts[k]: the sorted position where bin k + 1 starts.
  std::vector<int64_t> cuts;
  if (ranks.empty()) {
    if (n_bins < 1) throw InvalidOperationError(err_msg("bin_ranks needs at least one bin, got ", n_bins));
    const int64_t base = valid / n_bins, extra = valid % n_bins;
    int64_t at = 0;
    for (int64_t k = 0; k + 1 < n_bins; ++k) cuts.push_back(at += base + (k < extra ? 1 : 0));
  } else {
    double prev = 0.0;
    for (double r : ranks) {
      if (!(r >= 0.0 && r <= 1.0) || r < prev)
        throw ComputeError("bin_ranks needs non-decreasing fractions in [0, 1]");
      prev = r;
      cuts.push_back(static_cast<int64_t>(std::floor(r * static_cast<double>(valid) + 0.5)));
    }
  }
  const size_t bins_count = cuts.size() + 1;
  if (!how.labels.empty() && how.labels.size() != bins_count)
    throw ShapeError(err_msg("`bin_ranks` produces ", bins_count, " bins but got ", how.labels.size(), " labels"));
  SortOptions o;
  o.stable = true;
  o.nulls_last = {true};
  o.descending = {false};
  const std::vector<IdxSize> order = arg_sort({values.slice(0, n)}, o);
  std::vector<int64_t> bin_of_row(static_cast<size_t>(n), -1);
  for (int64_t j = 0; j < valid; ++j) {
    const int64_t k = std::upper_bound(cuts.begin(), cuts.end(), j) - cuts.begin();
    bin_of_row[order[static_cast<size_t>(j)]] = k;
  }
  PrimitiveBuilder<uint32_t> bins(category_dtype(how), n);
  for (int64_t i = 0; i < n; ++i) {
    if (bin_of_row[static_cast<size_t>(i)] < 0) bins.push_null(); else bins.push(static_cast<uint32_t>(bin_of_row[static_cast<size_t>(i)]));
  }
  ArrayRef bin = bins.finish();
  if (!how.include_intervals) return bin;
  // Bin k starts at sorted position cuts[k - 1]; its right bound is where the next
  // non-empty bin starts (the value at position cuts[k], when there is one).
  PrimitiveBuilder<int64_t> left_at(DataType::int64(), n), right_at(DataType::int64(), n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = bin_of_row[static_cast<size_t>(i)];
    if (k <= 0) left_at.push_null(); else left_at.push(order[static_cast<size_t>(cuts[static_cast<size_t>(k - 1)])]);
    if (k < 0 || static_cast<size_t>(k) >= cuts.size() || cuts[static_cast<size_t>(k)] >= valid) {
      right_at.push_null();
    } else {
      right_at.push(order[static_cast<size_t>(cuts[static_cast<size_t>(k)])]);
    }
  }
  ArrayRef left = gather(values, *left_at.finish(), true);
  ArrayRef right = gather(values, *right_at.finish(), true);
  return Array::make(interval_bins_dtype(values.dtype(), how), n, Buffer(), {}, {bin, left, right});
}

}  // namespace frazil::compute
