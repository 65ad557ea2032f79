// Common subplan elimination: subplans that fingerprint identically (CanonicalIRMap) are
// wrapped in Cache nodes of one cache id, which the executor computes once and shares.
//
// Runs only when the member collector finds a join or union and duplicate scans. Counts
// the occurrences (hits) of every canonical id and caches the topmost deterministic node
// hit more often than its parent; plain scans only when `cache_plain_scans` (re-reading a
// source is usually cheaper than holding it). Every occurrence keeps its own copy of the
// subplan under its Cache node: set_cache_states (after pushdown) checks that the copies
// are still identical, then makes them share one input, or removes the caches.
#pragma once

#include "frazil/plan/canonical/canonical_ir_map.hpp"

namespace frazil::optimizer::cse {

struct CspeOptions {
  bool cache_plain_scans = false;
  plan::CanonicalIRMap::Hooks hooks;  // tests: colliding hashes, non-deterministic kinds
};

// Returns the root (unchanged: the rewrite is in place). `caches_inserted`, when given,
// receives the number of distinct cache ids created.
plan::Node comm_subplan_elim(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena,
                             const CspeOptions& options = {}, size_t* caches_inserted = nullptr);

// A scan with nothing on top: the plain scans are not cached by default.
bool is_plain_scan(const plan::IR& ir);

}  // namespace frazil::optimizer::cse
