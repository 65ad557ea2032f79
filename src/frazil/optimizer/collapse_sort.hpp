// Polars' CollapseSort (its sort_collapse flag): a sort directly above another sort (one
// without a slice) sorts the inner sort's input itself. An outer sort that does not keep
// the order of equal keys makes the inner one pointless; a stable outer sort keeps the
// inner's order among its ties, so the inner keys it lacks become its tie-breakers (with
// the inner sort's stability).
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node collapse_sort(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
