#include "frazil/optimizer/cse/comm_subplan_elim.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "frazil/plan/canonical/member_collector.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"

namespace frazil::optimizer::cse {

using plan::CanonicalIRMap;
using plan::IR;
using plan::IRKind;
using plan::Node;

bool is_plain_scan(const IR& ir) { return ir.kind() == IRKind::DataFrameScan || ir.kind() == IRKind::Scan; }

namespace {

struct Occurrence {
  Node node;
  uint32_t id;
  int64_t parent;  // index into the occurrence list; -1 for the root
};

// One entry per path from the root: the plan is a tree, except below Cache nodes, whose
// shared input is entered once.
std::vector<Occurrence> occurrences(Node root, const plan::IRArena& lp, CanonicalIRMap& map) {
  std::vector<Occurrence> out;
  std::unordered_set<uint32_t> entered_cache_inputs;
  std::vector<std::pair<Node, int64_t>> stack{{root, -1}};
  while (!stack.empty()) {
    auto [n, parent] = stack.back();
    stack.pop_back();
    const auto self = static_cast<int64_t>(out.size());
    out.push_back({n, map.lookup(n).value, parent});
    const IR& ir = lp.get(n);
    if (ir.kind() == IRKind::Cache && !entered_cache_inputs.insert(ir.inputs[0].idx).second) continue;
    for (auto it = ir.inputs.rbegin(); it != ir.inputs.rend(); ++it) stack.emplace_back(*it, self);
  }
  return out;
}

// The subplan's top in one line: its explain text, flattened and cut.
std::string summary(Node n, const plan::IRArena& lp, const plan::ExprArena& ea) {
  std::string s = plan::explain_plan(n, lp, ea);
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
    if (out.size() >= 160) return out + " ...";
  }
  return out;
}

}  // namespace

Node comm_subplan_elim(Node root, plan::IRArena& lp, plan::ExprArena& ea, const CspeOptions& options,
                       size_t* caches_inserted) {
  if (caches_inserted) *caches_inserted = 0;
  CanonicalIRMap map(options.hooks);
  const plan::PlanMembers members = plan::collect_members(root, lp, ea, map);
  if (!members.worth_subplan_elim()) return root;

  map.resolve(root, lp, ea);  // ids for every node, bottom-up
  std::vector<Occurrence> occs = occurrences(root, lp, map);
  std::unordered_map<uint32_t, uint32_t> hits;
  for (const auto& o : occs) ++hits[o.id];

  // The topmost deterministic node hit more often than its parent: caching the parent
  // instead would already share it, and below it a cache would only split the subplan.
  std::vector<size_t> to_cache;
  for (size_t i = 0; i < occs.size(); ++i) {
    const Occurrence& o = occs[i];
    if (o.parent < 0) continue;
    const IR& ir = lp.get(o.node);
    if (ir.kind() == IRKind::Cache) continue;
    if (!options.cache_plain_scans && is_plain_scan(ir)) continue;
    const plan::CanonicalIRId id{o.id};
    if (map.is_nondeterministic(id)) continue;
    const plan::CanonicalIRId parent{occs[o.parent].id};
    const uint32_t h = hits[o.id];
    bool shared = map.is_nondeterministic(parent) ? h > 1 : h > hits[parent.value];
    if (shared) to_cache.push_back(i);
  }
  if (to_cache.empty()) return root;

  // Cache ids: fresh per plan, after any the plan holds already; one per canonical id.
  uint64_t next_cache_id = 0;
  if (members.has_caches)
    for (const auto& o : occs)
      if (const auto* c = lp.get(o.node).get_if<plan::CacheNode>()) next_cache_id = std::max(next_cache_id, c->id + 1);
  std::unordered_map<uint32_t, uint64_t> cache_of;
  std::unordered_map<uint64_t, size_t> consumers;
  const bool trace = plan::RewriteTrace::enabled();
  std::map<uint64_t, std::string> described;
  for (size_t i : to_cache) {
    const Occurrence& o = occs[i];
    auto [it, fresh] = cache_of.emplace(o.id, next_cache_id);
    if (fresh) {
      ++next_cache_id;
      if (trace) described[it->second] = summary(o.node, lp, ea);
    }
    ++consumers[it->second];
  }
  // Each occurrence keeps its own subplan under its own Cache node (see the header).
  for (size_t i : to_cache) {
    const Occurrence& o = occs[i];
    Node moved = lp.add(lp.take(o.node));
    SchemaRef schema = lp.get(moved).schema;
    lp.replace(o.node, IR(plan::CacheNode{cache_of[o.id]}, {moved}, std::move(schema)));
  }
  if (trace)
    for (const auto& [cache_id, text] : described) {
      std::ostringstream after;
      after << "CACHE[id: " << std::hex << cache_id << std::dec << "] over " << consumers[cache_id]
            << " identical subplans";
      plan::RewriteTrace::record({"comm_subplan_elim", text, after.str()});
    }
  if (caches_inserted) *caches_inserted = cache_of.size();
  return root;
}

}  // namespace frazil::optimizer::cse
