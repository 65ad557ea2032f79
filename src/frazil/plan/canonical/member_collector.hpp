// The cheap pre-check before common subplan elimination: one walk over the plan that
// notes joins, unions and caches, and puts every scan through the canonical map. The plan
// has duplicate scans exactly when it has more scans than distinct scan ids.
#pragma once

#include <unordered_set>

#include "frazil/plan/canonical/canonical_ir_map.hpp"

namespace frazil::plan {

struct PlanMembers {
  bool has_joins = false;
  bool has_unions = false;
  bool has_caches = false;
  size_t scan_count = 0;        // DataFrameScan and Scan nodes
  size_t distinct_scans = 0;    // their distinct canonical ids

  bool has_duplicate_scans() const { return scan_count != distinct_scans; }
  // Where can one plan hold the same subplan twice? Only under a node with several inputs
  // (frazil has no multi-sink plans yet).
  bool worth_subplan_elim() const { return (has_joins || has_unions) && has_duplicate_scans(); }
};

// Visits every node once (a node shared by several parents counts once).
PlanMembers collect_members(Node root, const IRArena& lp_arena, const ExprArena& expr_arena, CanonicalIRMap& map);

}  // namespace frazil::plan
