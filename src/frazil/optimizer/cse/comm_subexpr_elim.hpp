// Common subexpression elimination in select, with_columns and group_by().agg():
// a subexpression that occurs more than once (same CanonicalExprMap id) is computed once,
// as a temporary column `__FRAZIL_CSER_0x<id>` of a with_columns placed below the node,
// and every occurrence reads that column. The temporaries never reach the output.
//
// What may be hoisted (see subexpr_roles.hpp for the per-node rules):
//  - an expression with the frame's height (elementwise over columns, shift, sort, a whole
//    window, ...): its column is the same wherever it is evaluated on that frame;
//  - in select / with_columns, also a scalar (an aggregation) whose every ancestor up to
//    the output is elementwise, where the output is broadcast to the frame's height anyway
//    (a select must have a frame-height output and no other lengths);
//  - in group_by, only elementwise frame-height expressions: they are what the aggregation
//    reads, evaluated before grouping. An aggregation never leaves its group context.
// Temporaries may repeat subexpressions among themselves; those are hoisted again, into a
// with_columns below, until none is left.
#pragma once

#include <string>

#include "frazil/plan/canonical/canonical_expr_map.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::optimizer::cse {

struct CseOptions {
  plan::CanonicalExprMap::Hooks hooks;  // tests: colliding hashes, non-deterministic kinds
};

plan::Node comm_subexpr_elim(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena,
                             const CseOptions& options = {});

// "__FRAZIL_CSER_0x<id in hex>".
std::string cse_column_name(plan::CanonicalExprId id);
inline constexpr const char* kCseColumnPrefix = "__FRAZIL_CSER_0x";

}  // namespace frazil::optimizer::cse
