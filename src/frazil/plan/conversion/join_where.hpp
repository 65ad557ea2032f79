// join_where at conversion: its predicates (over the joined schema: left columns, then the
// right ones suffixed where a name is taken) split into the join Polars plans for them:
// equalities between a left and a right expression make an inner hash join on them; else
// one or two inequalities of that form make an IEJoin; else a nested-loop join on all of
// them. The predicates not used by the join filter its output.
#pragma once

#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::plan {

// The schema of the pairs: the left columns, then the right ones (suffixed on a collision).
SchemaRef join_where_schema(const Schema& left, const Schema& right, const std::string& suffix,
                            const ExprArena& arena);

// An IEJoin with one inequality, or with a lower and an upper bound on one side's shared
// expression (a <= x < b): the shape Polars' streaming engine runs as a range join.
bool is_range_join(const InequalityJoinNode& j, const ExprArena& arena);

// Adds the join (and the filter above it) to `lp`; `predicates` are bound to `joined`.
Node plan_join_where(const std::vector<ExprIR>& predicates, Node left, Node right, const SchemaRef& joined,
                     const std::string& suffix, IRArena& lp, ExprArena& ea);

}  // namespace frazil::plan
