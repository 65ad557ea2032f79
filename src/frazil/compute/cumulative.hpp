// Cumulative and difference kernels over segments (compute/segments.hpp): each segment is
// computed as a whole array of its own. Dtype rules are Polars 2.1's.
#pragma once

#include <optional>

#include "frazil/compute/segments.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

// The dtype cum_sum / cum_prod compute in: cum_sum widens Int8/16, UInt8/16 to Int64 and
// Boolean to UInt32, Decimal(p, s) to Decimal(38, s); cum_prod widens every integer below
// 64 bits (and Boolean) to Int64. Other numbers keep their dtype; cum_sum keeps Duration.
// InvalidOperationError for other dtypes.
DataType cum_sum_dtype(const DataType& input);
DataType cum_prod_dtype(const DataType& input);

// Running sum / product / min / max of the non-null values up to each row (from the end of
// the segment with `reverse`); a null row stays null. Sums and products wrap for integers
// and propagate NaN; min and max skip NaN (NaN only before any number). cum_min/cum_max
// take any orderable dtype (numbers, Boolean, strings, temporals).
ArrayRef cum_sum(const Array& values, Segments segments, bool reverse);
ArrayRef cum_prod(const Array& values, Segments segments, bool reverse);
ArrayRef cum_min(const Array& values, Segments segments, bool reverse);
ArrayRef cum_max(const Array& values, Segments segments, bool reverse);
// The number of non-null values up to each row (UInt32, never null).
ArrayRef cum_count(const Array& values, Segments segments, bool reverse);

// The dtype of diff: unsigned integers widen to the next signed width (UInt64 -> Int64),
// Date and Datetime give Duration, Time Duration(ns), Decimal(p, s) Decimal(38, s).
DataType diff_dtype(const DataType& input);
// x[i] - x[i - n] within the segment (n < 0 looks ahead); null where either is null or out
// of the segment.
ArrayRef diff(const Array& values, Segments segments, int64_t n);
// (x[i] - x[i - n]) / x[i - n] as floats (Float32 stays Float32, else Float64).
ArrayRef pct_change(const Array& values, Segments segments, int64_t n);

// The run number of each row: it increases where the value differs from the previous row's
// (nulls equal nulls, NaN equals NaN). UInt32, starting at 0 in every segment.
ArrayRef rle_id(const Array& values, Segments segments);
// Runs of equal values: a Struct {len: UInt32, value: dtype} with one row per run.
ArrayRef rle(const Array& values);

// Local maxima (minima): x greater (smaller) than both neighbours, a missing neighbour at
// the segment's edge counting as 0; null comparisons combine as Kleene AND. Boolean.
ArrayRef peaks(const Array& values, Segments segments, bool maxima);

// Nulls replaced by the previous (next, with backward) non-null value of the segment, at most
// `limit` consecutive rows after it.
ArrayRef fill_forward(const Array& values, Segments segments, std::optional<int64_t> limit);
ArrayRef fill_backward(const Array& values, Segments segments, std::optional<int64_t> limit);

// Nulls between two non-null values interpolated linearly by position (or set to the
// nearest, ties to the later one); leading and trailing nulls stay. Linear gives floats
// (Float32 stays Float32) for numbers; nearest keeps the dtype.
ArrayRef interpolate(const Array& values, Segments segments, bool nearest);
// Linear interpolation of the nulls by the values of `by` (numbers or temporals, sorted
// within each segment or not: rows are taken in `by` order). Float64 (Float32 stays).
ArrayRef interpolate_by(const Array& values, const Array& by, Segments segments);

}  // namespace frazil::compute
