#include "frazil/plan/plan_walk.hpp"

namespace frazil::plan {

void for_each_plan_node(Node root, const IRArena& lp, const std::function<void(Node)>& fn) {
  std::vector<Node> stack{root};
  std::vector<bool> seen(lp.size(), false);
  seen[root.idx] = true;
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    fn(n);
    for (Node in : lp.get(n).inputs) {
      if (in.idx >= seen.size()) seen.resize(lp.size(), false);  // fn added nodes
      if (!seen[in.idx]) {
        seen[in.idx] = true;
        stack.push_back(in);
      }
    }
  }
}

std::vector<Node> plan_post_order(Node root, const IRArena& lp) {
  std::vector<Node> out;
  std::vector<bool> seen(lp.size(), false);
  std::vector<std::pair<Node, size_t>> stack{{root, 0}};
  seen[root.idx] = true;
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    const IR& ir = lp.get(n);
    if (next < ir.inputs.size()) {
      const Node in = ir.inputs[next++];
      if (!seen[in.idx]) {
        seen[in.idx] = true;
        stack.emplace_back(in, 0);
      }
      continue;
    }
    out.push_back(n);
    stack.pop_back();
  }
  return out;
}

std::vector<uint32_t> count_parents(Node root, const IRArena& lp) {
  std::vector<uint32_t> parents(lp.size(), 0);
  for_each_plan_node(root, lp, [&](Node n) {
    for (Node in : lp.get(n).inputs) ++parents[in.idx];
  });
  return parents;
}

}  // namespace frazil::plan
