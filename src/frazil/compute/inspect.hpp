// Small kernels that inspect or re-label values: is_sorted, index_of, the dtype's bounds,
// reinterpret, truncdiv, drop_nans, hist.
#pragma once

#include <optional>
#include <span>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Sorted ascending (descending), nulls first (last); NaN sorts above every number.
bool is_sorted(const Array& values, bool descending, bool nulls_last);
// The first row equal to `element` (one row, cast to the values' dtype; null finds the first
// null), or nullopt.
std::optional<int64_t> index_of(const Array& values, const Array& element);
// The smallest / largest value of the dtype (integers and temporals by their physical type,
// floats -inf / inf), one row in the physical dtype. ComputeError for other dtypes.
ArrayRef dtype_bound(const DataType& dtype, bool upper);
// Integers of one width read as the other signedness (UInt8 <-> Int8, ...).
ArrayRef reinterpret_sign(const Array& values, bool as_signed);
// a / b truncated toward zero (integers: null on a zero divisor; floats: trunc(a / b)).
ArrayRef truncdiv(const Array& a, const Array& b);
// The rows that are not NaN (nulls kept).
ArrayRef drop_nans(const Array& values);
// Counts of the values per bin: bins (b0 < b1 < ...) give bins [b0, b1], (b1, b2], ...;
// without them, bin_count equal bins over [min, max]. With include_breakpoint, a Struct
// {breakpoint: Float64 (each bin's upper edge), count: UInt32}; else the counts.
ArrayRef hist(const Array& values, std::span<const double> bins, std::optional<int64_t> bin_count,
              bool include_breakpoint);

}  // namespace frazil::compute
