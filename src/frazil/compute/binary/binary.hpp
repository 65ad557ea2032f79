// Binary kernels (Polars' `bin` namespace): byte-level matching, sizes, slices and
// single bytes, and bytes reinterpreted as numbers. Arguments are arrays of one value
// (broadcast) or one per row; a null argument gives a null row.
#pragma once

#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Whether each value contains / starts with / ends with the bytes of `pattern` (Binary).
ArrayRef bin_contains(const Array& values, const Array& pattern);
ArrayRef bin_starts_with(const Array& values, const Array& prefix);
ArrayRef bin_ends_with(const Array& values, const Array& suffix);
// The size of each value: UInt32 bytes for unit "b"; Float64 in "kb", "mb", "gb", "tb".
ArrayRef bin_size(const Array& values, const std::string& unit);
// Bytes [offset, offset + length) (negative offset from the end; null length: to the end).
ArrayRef bin_slice(const Array& values, const Array& offset, const Array& length);
// The first / last n bytes (negative n: all but the last / first -n).
ArrayRef bin_head(const Array& values, const Array& n);
ArrayRef bin_tail(const Array& values, const Array& n);
// The byte at `index` (negative from the end) as UInt8; out of bounds is null when
// null_on_oob, else ComputeError.
ArrayRef bin_get(const Array& values, const Array& index, bool null_on_oob);
// Each value of exactly the dtype's width read as a value of `dtype` (little or big endian):
// a number, a temporal (its physical number), or an Array of those (each element in turn);
// values of other sizes are null.
ArrayRef bin_reinterpret(const Array& values, const DataType& dtype, bool little_endian);
// InvalidOperationError (Polars' message) for a dtype bin_reinterpret cannot give.
void check_reinterpret_dtype(const DataType& dtype);

}  // namespace frazil::compute
