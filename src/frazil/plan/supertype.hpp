// Polars' supertype rules: the dtype two operands are cast to before an operation.
#pragma once

#include <optional>

#include "frazil/core/dtype.hpp"

namespace frazil::plan {

// nullopt when the dtypes have no common supertype.
std::optional<DataType> get_supertype(const DataType& a, const DataType& b);

// Whether every value of `from` is representable in `to` (a widening cast).
bool is_lossless_cast(const DataType& from, const DataType& to);

}  // namespace frazil::plan
