// The seed's SimpleProjectionAndCollapse: a select of plain columns becomes a simple
// projection (columns picked, no expression evaluated per morsel), a projection of a
// projection reads the inner one's input, and a projection that keeps every column of its
// input in order disappears (a scan's pushed-down projection then stands alone, as in Polars).
// Switched by OptFlags::fast_projection, Polars' flag for it.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node simple_projection(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
