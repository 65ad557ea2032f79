// Cache states: runs after predicate and projection pushdown, which stop at Cache nodes
// and leave what they could not push as Filter / SimpleProjection nodes above each cache.
// Per cache id it reconciles the consumers, then decides with row estimates whether the
// cache is worth keeping.
//
//  1. The copies under the cache's nodes must still be identical (else the caches go).
//  2. Columns: the cache reads the union of what its consumers need.
//  3. Predicates: a conjunct every consumer filters on moves below the cache; the rest
//     stay above, per consumer, so each still gets exactly its rows. When every consumer
//     filters, the OR of their remaining filters also goes below (it drops only rows no
//     consumer keeps).
//  4. Cost: removal = consumers x work of the subplan; keep = work of the reconciled
//     subplan + consumers x its rows (one pass over the materialised rows each). The
//     caches are removed when removal is not more expensive; kept when a source cannot be
//     sized. The trace (plan::RewriteTrace, FRAZIL_TRACE=1) records both and the choice.
//
// All nodes of one cache id then read one shared input, which the executor computes once.
#pragma once

#include <functional>

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer::cse {

struct CacheStateOptions {
  bool use_cost_model = true;
  // Pushdown re-run on a subplan whose shape this pass changed (the filters and the
  // projection it put on top of a shared input, or the filters above removed caches):
  // returns the subplan's new root. Unset: the new nodes stay where this pass put them.
  std::function<plan::Node(plan::Node)> reoptimize;
};

plan::Node set_cache_states(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena,
                            const CacheStateOptions& options = {});

}  // namespace frazil::optimizer::cse
