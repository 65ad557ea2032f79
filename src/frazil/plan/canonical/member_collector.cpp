#include "frazil/plan/canonical/member_collector.hpp"

#include <vector>

namespace frazil::plan {

PlanMembers collect_members(Node root, const IRArena& lp_arena, const ExprArena& expr_arena, CanonicalIRMap& map) {
  PlanMembers m;
  std::vector<bool> seen(lp_arena.size(), false);
  std::unordered_set<uint32_t> scan_ids;
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    if (seen[n.idx]) continue;
    seen[n.idx] = true;
    const IR& ir = lp_arena.get(n);
    switch (ir.kind()) {
      case IRKind::Join: m.has_joins = true; break;
      case IRKind::Union: m.has_unions = true; break;
      case IRKind::Cache: m.has_caches = true; break;
      case IRKind::DataFrameScan:
      case IRKind::Scan:
        ++m.scan_count;
        scan_ids.insert(map.resolve(n, lp_arena, expr_arena).value);
        break;
      default: break;
    }
    for (Node in : ir.inputs) stack.push_back(in);
  }
  m.distinct_scans = scan_ids.size();
  return m;
}

}  // namespace frazil::plan
