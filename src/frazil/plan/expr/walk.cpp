#include "frazil/plan/expr/walk.hpp"

#include <algorithm>

namespace frazil::plan {

namespace {

// Calls fn(e) for the nodes reachable from `root` in pre-order, inputs left to right, each
// once; stops when fn returns true.
template <typename Fn>
void pre_order_until(Node root, const ExprArena& arena, Fn&& fn) {
  std::vector<Node> stack{root};
  NodeSet seen(root);
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    const AExpr& e = arena.get(n);
    if (fn(e)) return;
    for (auto it = e.inputs.rbegin(); it != e.inputs.rend(); ++it)
      if (seen.insert(*it)) stack.push_back(*it);
  }
}

}  // namespace

void collect_columns(Node node, const ExprArena& arena, std::vector<std::string>& out) {
  pre_order_until(node, arena, [&](const AExpr& e) {
    if (e.kind == AExprKind::Column && std::find(out.begin(), out.end(), e.name) == out.end()) out.push_back(e.name);
    return false;
  });
}

std::vector<std::string> columns_of(Node node, const ExprArena& arena) {
  std::vector<std::string> out;
  collect_columns(node, arena, out);
  return out;
}

std::optional<std::string> leftmost_column(Node node, const ExprArena& arena) {
  std::optional<std::string> found;
  pre_order_until(node, arena, [&](const AExpr& e) {
    if (e.kind == AExprKind::Column) found = e.name;
    return found.has_value();
  });
  return found;
}

}  // namespace frazil::plan
