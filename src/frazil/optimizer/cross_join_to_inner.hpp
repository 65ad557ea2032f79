// A filter on a cross join whose predicate equates an expression of the left columns with
// one of the right columns becomes an inner join on those keys (Polars' collapse_joins):
// the same rows in the same order, without building the product. Null keys never match,
// as `null == x` is never true; floats match as `==` compares them (-0.0 == 0.0, NaN ==
// NaN). The other conjuncts stay in a filter above the join.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node cross_join_to_inner(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
