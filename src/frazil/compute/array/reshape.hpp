// Expr.reshape: a column's leaf values cut into (nested) Arrays of the given dimensions, as
// Polars does (one dimension may be negative: inferred from the number of values).
#pragma once

#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// InvalidOperationError for dimensions Polars refuses before looking at the values.
void reshape_check(const DataType& input, const std::vector<int64_t>& dims);
// Array(leaf, dims[1:]) for two or more dimensions, the leaf dtype for one.
DataType reshape_dtype(const DataType& input, const std::vector<int64_t>& dims);
ArrayRef reshape(const Array& values, const std::vector<int64_t>& dims);

}  // namespace frazil::compute
