// A merge_sorted whose row order nobody observes (plan/row_order.hpp: a unique(), a
// group-by, ... above it) only concatenates its inputs: it becomes a union, which needs
// neither input gathered first nor a merge (Polars' check_order_observe does the same).
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node merge_sorted_to_union(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
