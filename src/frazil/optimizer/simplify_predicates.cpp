#include "frazil/optimizer/simplify_predicates.hpp"

#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::ExprIR;
using plan::IRArena;
using plan::Node;
using plan::split_conjuncts;
using plan::combine_conjuncts;
using plan::predicate_ir;
using plan::expr_equal;
using plan::count_parents;

using plan::AExpr;
using plan::IR;
using plan::IRKind;

namespace {

// The simplified predicate; nullopt when it is always true.
std::optional<Node> simplify(Node predicate, const Schema& schema, ExprArena& ea) {
  std::vector<Node> conjuncts, kept;
  split_conjuncts(predicate, ea, schema, conjuncts);
  for (Node c : conjuncts) {
    const AExpr& e = ea.get(c);
    if (auto b = e.literal_bool()) {
      if (!*b) return c;  // nothing passes
      continue;
    }
    if (e.is_literal() && !e.literal().is_series() && e.literal().scalar.is_null()) return c;
    bool repeated = false;
    for (Node k : kept) {
      repeated |= expr_equal(c, k, ea);
      // Conditions that cannot hold together, also when they came from separate filters
      // (filter(a > 5).filter(a <= 5)): a predicate, where null counts as false.
      const AExpr& ke = ea.get(k);
      if (plan::simplify::comparisons_contradict(e, ke, ea) || plan::simplify::is_self_negation(e, k, ea) ||
          plan::simplify::is_self_negation(ke, c, ea))
        return ea.add(AExpr::scalar(Scalar::boolean(false)));
    }
    if (!repeated) kept.push_back(c);
  }
  if (kept.size() == conjuncts.size()) return predicate;
  return combine_conjuncts(kept, ea);
}

}  // namespace

Node simplify_predicates(Node root, IRArena& lp, ExprArena& ea) {
  const auto parents = count_parents(root, lp);
  std::vector<Node> stack{root};
  std::vector<bool> seen(lp.size(), false);
  seen[root.idx] = true;
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    const IR& ir = lp.get(n);
    if (const ExprIR* predicate = plan::predicate_of(ir)) {
      auto simplified = simplify(predicate->node(), plan::predicate_schema(ir), ea);
      if (simplified && *simplified != predicate->node()) {
        plan::set_predicate(lp.get_mut(n), predicate_ir(*simplified, ea));
      } else if (!simplified) {
        if (ir.kind() != IRKind::Filter) {
          plan::set_predicate(lp.get_mut(n), std::nullopt);
        } else if (parents[ir.inputs[0].idx] <= 1) {
          // The filter's node takes its input's place; its parents need not change.
          lp.replace(n, IR(lp.get(ir.inputs[0])));
          stack.push_back(n);  // look at what is there now
          continue;
        }
      }
    }
    for (Node in : lp.get(n).inputs)
      if (!seen[in.idx]) {
        seen[in.idx] = true;
        stack.push_back(in);
      }
  }
  return root;
}

}  // namespace frazil::optimizer
