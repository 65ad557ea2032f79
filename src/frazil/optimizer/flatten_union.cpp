#include "frazil/optimizer/flatten_union.hpp"

#include <vector>

namespace frazil::optimizer {

using plan::IRKind;
using plan::Node;

Node flatten_union(Node root, plan::IRArena& lp, plan::ExprArena&) {
  std::vector<Node> stack{root};
  std::vector<bool> seen(lp.size(), false);
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    if (seen[n.idx]) continue;
    seen[n.idx] = true;
    if (lp.get(n).kind() == IRKind::Union) {
      // Splice the arms of union inputs in place, in order. An inner union read elsewhere
      // too stays as it is for its other readers: only node indices are copied.
      std::vector<Node> arms;
      bool changed = false;
      for (Node in : lp.get(n).inputs) {
        if (lp.get(in).kind() == IRKind::Union) {
          for (Node arm : lp.get(in).inputs) arms.push_back(arm);
          changed = true;
        } else {
          arms.push_back(in);
        }
      }
      if (changed) {
        lp.get_mut(n).inputs = std::move(arms);
        seen[n.idx] = false;  // the new arms may be unions too
        stack.push_back(n);
        continue;
      }
    }
    for (Node in : lp.get(n).inputs) stack.push_back(in);
  }
  return root;
}

}  // namespace frazil::optimizer
