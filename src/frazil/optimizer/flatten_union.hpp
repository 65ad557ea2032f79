// Nested unions become one: concat([concat([a, b]), c]) reads as concat([a, b, c]), so
// every arm is a direct input (pushdown then reaches all arms in one step).
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node flatten_union(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
