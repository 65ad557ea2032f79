// Polars' cluster_with_columns: of two stacked with_columns, the upper one's expressions
// that read no column the lower one computes move into the lower one (with_columns
// evaluates its expressions side by side on its input, so they see the same values there),
// unless another upper expression reads the column they would replace. A column computed
// and overwritten before anything reads it is then computed once, and independent stages
// become one. When the merged columns come out in another order, a projection restores it.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node cluster_with_columns(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
