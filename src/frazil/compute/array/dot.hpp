// arr.dot: the sum of the products of two Arrays' values, row by row (nulls skipped).
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// The result dtype (the sum's dtype of the values' supertype); ShapeError for two widths,
// InvalidOperationError for a non-Array or non-numeric input (Polars' messages).
DataType dot_dtype(const DataType& left, const DataType& right);
// One value per row, null where either row is null. `right` may be one row (broadcast).
ArrayRef array_dot(const Array& left, const Array& right);

}  // namespace frazil::compute
