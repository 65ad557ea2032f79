// Polars' supertype rules: the dtype two operands are cast to before an operation.
#pragma once

#include <optional>

#include "frazil/core/dtype.hpp"

namespace frazil {

// nullopt when the dtypes have no common supertype.
std::optional<DataType> get_supertype(const DataType& a, const DataType& b);

}  // namespace frazil
