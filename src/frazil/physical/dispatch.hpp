// The function dispatch table: IR function kind -> kernel closure, chosen once at planning
// time. A closure takes the evaluated inputs (input 0 is the root) and returns the result.
#pragma once

#include <functional>
#include <span>

#include "frazil/core/array.hpp"
#include "frazil/dsl/function_expr.hpp"

namespace frazil::physical {

using ColumnsUdf = std::function<ArrayRef(std::span<const ArrayRef> inputs)>;

ColumnsUdf function_expr_to_udf(const dsl::FunctionExpr& function);

}  // namespace frazil::physical
