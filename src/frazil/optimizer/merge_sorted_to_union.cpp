#include "frazil/optimizer/merge_sorted_to_union.hpp"

#include "frazil/plan/row_order.hpp"

namespace frazil::optimizer {

using plan::IRKind;
using plan::Node;

Node merge_sorted_to_union(Node root, plan::IRArena& lp, plan::ExprArena& ea) {
  // A merge made a union lets the merges under it go too: again until none changes.
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<bool> unordered = plan::unordered_outputs(root, lp, ea);
    for (uint32_t i = 0; i < unordered.size() && i < lp.size(); ++i) {
      const Node n(i);
      if (!unordered[i] || lp.get(n).kind() != IRKind::MergeSorted) continue;
      plan::IR& ir = lp.get_mut(n);
      ir = plan::IR(plan::UnionNode{}, ir.inputs, ir.schema);
      changed = true;
    }
  }
  return root;
}

}  // namespace frazil::optimizer
