// Slice pushdown: moves head/slice/tail towards the sources so that less is read and
// computed. A slice becomes a file scan's row limit (IR::n_rows), a sort's top-k
// (IR::sort_slice), moves through row-wise projections, renames and row indexes (whose
// offset it shifts), merges with the slices below it, and is copied into every arm of a
// union (the slice stays above the union as well: the arms' rows add up). It stops at
// filters, joins, group-bys, unique, caches and shared nodes.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node slice_pushdown(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
