// Horizontal (row-wise across columns) reductions and the range generators.
#pragma once

#include <span>

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class HorizontalKind : uint8_t { Sum, Mean, Min, Max, Any, All };

// Row i combines row i of every input (one-row inputs broadcast), computed in `out`'s
// dtype: Sum treats nulls as 0 (null when any is null without ignore_nulls), Mean averages
// the non-null values (null when none, or any without ignore_nulls), Min and Max skip nulls
// and NaN (NaN only when every value is NaN), Any and All are Kleene OR and AND.
ArrayRef horizontal(HorizontalKind kind, std::span<const ArrayRef> inputs, const DataType& out, bool ignore_nulls);

// start, start + step, ... before end (after it for a negative step), in `dtype`.
ArrayRef int_range(int64_t start, int64_t end, int64_t step, const DataType& dtype);
// One int_range list per row of start, end and step (one-row inputs broadcast).
ArrayRef int_ranges(const Array& start, const Array& end, const Array& step, const DataType& dtype);
// `num` evenly spaced floats from start to end; closed says which ends are included
// (both, left, right, none).
ArrayRef linear_space(double start, double end, int64_t num, const std::string& closed, const DataType& dtype);
// linear_space per row of start, end and num (each of the rows' length or of one row), as a
// List(dtype) (dtype Float32 or Float64); a null input gives a null list.
ArrayRef linear_spaces(const Array& start, const Array& end, const Array& num, const std::string& closed,
                       const DataType& dtype);

}  // namespace frazil::compute
