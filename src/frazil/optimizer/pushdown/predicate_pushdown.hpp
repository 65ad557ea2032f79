// Predicate pushdown: moves filters down the plan, as close to the sources as they may go,
// and into the scans (IR::predicate, shown as SELECTION). Consecutive filters merge.
//
// A filter moves past a node only when filtering first gives the same rows:
//   - into scans (not a file scan that already has a row limit);
//   - through select/with_columns, renaming through plain aliases, never past a column the
//     projection computes or overwrites, and past window expressions only when it reads
//     just the partition keys that every window shares;
//   - into each side of a join where valid: inner and cross to both sides; left joins send
//     left predicates left, and a predicate that rejects the right side's padding nulls
//     turns the left join into an inner join; right joins the mirror (a null-rejecting left
//     predicate goes left and also stays above); full joins keep everything above;
//   - into every arm of a union, through sorts and renames, through group_by and unique
//     when it reads only plain key columns.
// Never past a slice, a row index, a cache, a filter whose predicate is not row-local
// (`x == x.min()`), or a node shared by several consumers. Only row-local predicates move;
// one that may fail at runtime (a narrowing strict cast) stays above nodes that remove rows.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node predicate_pushdown(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
