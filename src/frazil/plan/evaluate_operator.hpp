// The kernel behind each binary operator. Shared by execution (physical BinaryExpr) and
// constant folding, so that a folded literal is exactly what the query would compute.
#pragma once

#include "frazil/core/array.hpp"
#include "frazil/dsl/operator.hpp"

namespace frazil::plan {

// Both operands have one dtype (after coercion); one-row operands broadcast.
ArrayRef evaluate_operator(dsl::Operator op, const Array& left, const Array& right);

}  // namespace frazil::plan
