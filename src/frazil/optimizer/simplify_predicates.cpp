#include "frazil/optimizer/simplify_predicates.hpp"

#include <unordered_map>
#include <unordered_set>

#include "frazil/plan/canonical/canonical_expr_map.hpp"
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
using plan::count_parents;

using plan::AExpr;
using plan::IR;
using plan::IRKind;

namespace {

// The simplified predicate; nullopt when it is always true. Conjuncts are compared by
// their canonical ids (structural identity), through hash sets: a predicate of n conjuncts
// costs O(n), not the O(n^2) subtree comparisons of checking every pair.
std::optional<Node> simplify(Node predicate, const Schema& schema, ExprArena& ea, plan::CanonicalExprMap& canon) {
  std::vector<Node> conjuncts, kept;
  split_conjuncts(predicate, ea, schema, conjuncts);
  auto id_of = [&](Node n) { return canon.resolve(n, ea).value; };
  auto pair_key = [](uint32_t a, uint32_t b) { return a < b ? uint64_t{a} << 32 | b : uint64_t{b} << 32 | a; };
  std::unordered_set<uint32_t> kept_ids;      // of the kept conjuncts
  std::unordered_set<uint32_t> negated_ids;   // of x, for each kept conjunct NOT(x)
  // The kept binary conjuncts by their (unordered) pair of operands: only those can
  // contradict a comparison of the same operands.
  std::unordered_map<uint64_t, std::vector<Node>> by_operands;
  for (Node c : conjuncts) {
    const AExpr& e = ea.get(c);
    if (auto b = e.literal_bool()) {
      if (!*b) return c;  // nothing passes
      continue;
    }
    if (e.is_literal() && !e.literal().is_series() && e.literal().scalar.is_null()) return c;
    const uint32_t id = id_of(c);
    // Conditions that cannot hold together, also when they came from separate filters
    // (filter(a > 5).filter(a <= 5)): a predicate, where null counts as false.
    const bool negation = e.is_function("not");
    if ((negation && kept_ids.count(id_of(e.inputs[0]))) || negated_ids.count(id))
      return ea.add(AExpr::scalar(Scalar::boolean(false)));
    const bool binary = e.kind == plan::AExprKind::BinaryExpr && e.inputs.size() == 2;
    uint64_t key = 0;
    if (binary) {
      key = pair_key(id_of(e.inputs[0]), id_of(e.inputs[1]));
      if (auto it = by_operands.find(key); it != by_operands.end())
        for (Node k : it->second)
          if (plan::simplify::comparisons_contradict(e, ea.get(k), ea))
            return ea.add(AExpr::scalar(Scalar::boolean(false)));
    }
    if (!kept_ids.insert(id).second) continue;  // repeated
    kept.push_back(c);
    if (negation) negated_ids.insert(id_of(e.inputs[0]));
    if (binary) by_operands[key].push_back(c);
  }
  if (kept.size() == conjuncts.size()) return predicate;
  return combine_conjuncts(kept, ea);
}

}  // namespace

Node simplify_predicates(Node root, IRArena& lp, ExprArena& ea) {
  const auto parents = count_parents(root, lp);
  plan::CanonicalExprMap canon;  // the pass appends to the expression arena, never edits it
  std::vector<Node> stack{root};
  std::vector<bool> seen(lp.size(), false);
  seen[root.idx] = true;
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    const IR& ir = lp.get(n);
    if (const ExprIR* predicate = plan::predicate_of(ir)) {
      auto simplified = simplify(predicate->node(), plan::predicate_schema(ir), ea, canon);
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
