// Projection pushdown: every node computes and carries only the columns some consumer
// uses; scans read only those (IR::projection, shown as `PROJECT k/n COLUMNS`).
//
// Two phases over the plan as a DAG. Top-down, in topological order, each node's needed
// output columns give the columns it needs from its inputs (a node read by several
// consumers, and all Cache nodes of one id, get the union of their needs). Bottom-up, each
// node is rewritten in place: unused expressions are dropped, schemas recomputed, a
// with_columns left with nothing to do and identity projections disappear.
//
// A rewritten node outputs at least the columns needed from it, in the original order, and
// possibly a few more (a join keeps the left column a suffixed right column collided with);
// union arms are made exact. Heights never change: a select keeps an expression that has
// the frame's height, and a scan of which no column is used still reads its narrowest one.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node projection_pushdown(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
