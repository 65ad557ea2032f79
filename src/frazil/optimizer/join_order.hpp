// JoinOrder (Polars' join_order flag: "reorder runs of inner equi-joins by estimated
// cardinality"). A run is a tree of three or more inputs joined by inner joins that
// coalesce keys of one name on both sides (`on="k"`), where the names two sides share
// are exactly their keys (no suffixed columns). Such a run means: every combination of
// its inputs' rows that agrees on every shared name, so any join tree over the inputs
// along the shared names gives the same rows.
//
// Greedily (DuckDB's fallback for large join graphs, simplified): first the pair of
// connected inputs whose join the cost model (plan/cost) estimates smallest, then the
// connected input that keeps the running result smallest. The new tree replaces the run
// when the sum of its intermediate row estimates is below the written tree's; a simple
// projection above it restores the column order.
//
// Joins give rows in left order and `maintain_order="left"` relies on that, so only runs
// whose row order nobody observes (plan/row_order: below a group-by, an aggregation, a
// semi join's right side...) are reordered.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node join_order(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
