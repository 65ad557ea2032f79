// Polars' FusedArithmetic: a * b + c, a * b - c and c - a * b become one fused node
// (fma, fms, fsm: functions/fused.cpp) evaluated in one pass. Where Polars fuses: the
// product's operands are numeric and not scalars (a literal is for constant folding), and
// the multiplication is looked for on the left first. frazil fuses floats only, with all
// operands of the result's dtype (integers and mixed dtypes stay unfused), and its kernel
// rounds as the unfused expression does, so results are equal bit for bit. Predicates
// pushed into scans are fused too, as in Polars (statistics pruning keeps a row group
// whenever it cannot read a predicate). Switched by simplify_expression, as in Polars.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node fused_arithmetic(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
