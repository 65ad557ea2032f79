// Cumulative sums, minima, maxima and counts in array order (Polars' cum_sum, cum_min,
// cum_max, cum_count). Nulls stay null and are skipped by the running value; cum_count
// counts the non-null values so far and is never null.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class CumulativeKind : uint8_t { Sum, Min, Max, Count };

// The output dtype of a cumulative function over `input` (Polars: sums of 8/16-bit
// integers are Int64, of booleans UInt32; counts UInt32; the others keep the dtype).
// Throws InvalidOperationError for dtypes it does not apply to.
DataType cumulative_dtype(CumulativeKind kind, const DataType& input);

ArrayRef cumulative(const Array& values, CumulativeKind kind);

}  // namespace frazil::compute
