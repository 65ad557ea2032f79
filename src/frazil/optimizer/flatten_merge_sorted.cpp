#include "frazil/optimizer/flatten_merge_sorted.hpp"

#include <vector>

#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using plan::IRKind;
using plan::MergeSortedNode;
using plan::Node;

namespace {

bool same_merge(const plan::IR& ir, const MergeSortedNode& m) {
  const auto* o = ir.get_if<MergeSortedNode>();
  return o && o->key == m.key && o->maintain_order == m.maintain_order;
}

// The inputs of the chain under `root`, left to right. An inner merge read by another node
// too is an input as it is (its other readers keep it).
void collect_inputs(Node root, const MergeSortedNode& m, const plan::IRArena& lp,
                    const std::vector<uint32_t>& parents, std::vector<Node>& out) {
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    const plan::IR& ir = lp.get(n);
    if (same_merge(ir, m) && (n == root || parents[n.idx] <= 1)) {
      stack.push_back(ir.inputs[1]);
      stack.push_back(ir.inputs[0]);
    } else {
      out.push_back(n);
    }
  }
}

// A balanced tree of merges over inputs[lo, hi), the left part the larger; returns its root.
Node build(const std::vector<Node>& inputs, size_t lo, size_t hi, const MergeSortedNode& m,
           const SchemaRef& schema, plan::IRArena& lp, std::vector<bool>& built) {
  if (hi - lo == 1) return inputs[lo];
  const size_t split = lo + (hi - lo + 1) / 2;
  const Node l = build(inputs, lo, split, m, schema, lp, built);
  const Node r = build(inputs, split, hi, m, schema, lp, built);
  const Node n = lp.add(plan::IR(m, {l, r}, schema));
  if (built.size() <= n.idx) built.resize(n.idx + 1, false);
  built[n.idx] = true;
  return n;
}

}  // namespace

Node flatten_merge_sorted(Node root, plan::IRArena& lp, plan::ExprArena&) {
  const std::vector<uint32_t> parents = plan::count_parents(root, lp);
  std::vector<bool> seen(lp.size(), false), built(lp.size(), false);
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    if (n.idx < seen.size() && seen[n.idx]) continue;
    if (n.idx < seen.size()) seen[n.idx] = true;
    if (lp.get(n).kind() == IRKind::MergeSorted && !(n.idx < built.size() && built[n.idx])) {
      const MergeSortedNode m = lp.get(n).as<MergeSortedNode>();
      std::vector<Node> inputs;
      collect_inputs(n, m, lp, parents, inputs);
      if (inputs.size() > 2) {
        const SchemaRef schema = lp.get(n).schema;
        const size_t split = (inputs.size() + 1) / 2;
        const Node l = build(inputs, 0, split, m, schema, lp, built);
        const Node r = build(inputs, split, inputs.size(), m, schema, lp, built);
        lp.get_mut(n).inputs = {l, r};
      }
      for (Node in : inputs) stack.push_back(in);
      continue;
    }
    for (Node in : lp.get(n).inputs) stack.push_back(in);
  }
  return root;
}

}  // namespace frazil::optimizer
