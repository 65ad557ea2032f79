#include "frazil/optimizer/derive_join_predicates.hpp"

#include <unordered_map>
#include <unordered_set>

#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/optimizer/pushdown/join_columns.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::IRArena;
using plan::Node;
using plan::split_conjuncts;
using plan::split_disjuncts;
using plan::combine_conjuncts;
using plan::predicate_ir;
using plan::columns_of;
using plan::is_row_local;
using plan::for_each_plan_node;

using compute::JoinType;
using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;
using plan::IR;
using plan::IRKind;

namespace {

// Whether every column `node` reads comes from `side` (and it reads at least one).
bool reads_only(Node node, JoinSide side, const ExprArena& arena,
                const std::unordered_map<std::string, JoinSide>& origin) {
  const auto cols = columns_of(node, arena);
  if (cols.empty()) return false;
  for (const auto& c : cols) {
    auto it = origin.find(c);
    if (it == origin.end() || it->second != side) return false;
  }
  return true;
}

// The predicate `disjunction` implies for one side, or nullopt when some disjunct asks
// nothing of that side alone (or everything: then the disjunction itself is pushable).
std::optional<Node> derive(const std::vector<std::vector<Node>>& disjuncts, JoinSide side, ExprArena& ea,
                           const std::unordered_map<std::string, JoinSide>& origin) {
  std::vector<Node> parts;
  bool all_one_sided = true;
  for (const auto& conjuncts : disjuncts) {
    std::vector<Node> mine;
    for (Node c : conjuncts) {
      if (reads_only(c, side, ea, origin) && is_row_local(c, ea)) mine.push_back(c);
      else all_one_sided = false;
    }
    if (mine.empty()) return std::nullopt;
    parts.push_back(*combine_conjuncts(mine, ea));
  }
  if (all_one_sided) return std::nullopt;
  Node out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) out = ea.add(AExpr::binary(out, Operator::Or, parts[i]));
  return out;
}

void derive_for(Node n, IRArena& lp, ExprArena& ea) {
  const IR& filter = lp.get(n);
  const IR& join = lp.get(filter.inputs[0]);
  if (!join.is<plan::JoinNode>() || join.as<plan::JoinNode>().options.how != JoinType::Inner) return;
  const Schema& schema = *join.schema;
  std::unordered_map<std::string, JoinSide> origin;
  for (const auto& c : join_columns(join, *lp.get(join.inputs[0]).schema, *lp.get(join.inputs[1]).schema, ea))
    origin[c.output] = c.side;
  std::vector<Node> conjuncts;
  const Node predicate = filter.as<plan::FilterNode>().predicate.node();
  split_conjuncts(predicate, ea, schema, conjuncts);
  std::vector<Node> derived;
  for (Node c : conjuncts) {
    std::vector<Node> ors;
    split_disjuncts(c, ea, schema, ors);
    if (ors.size() < 2) continue;
    std::vector<std::vector<Node>> disjuncts(ors.size());
    for (size_t i = 0; i < ors.size(); ++i) split_conjuncts(ors[i], ea, schema, disjuncts[i]);
    for (JoinSide side : {JoinSide::Left, JoinSide::Right})
      if (auto d = derive(disjuncts, side, ea, origin)) derived.push_back(*d);
  }
  if (derived.empty()) return;
  derived.insert(derived.begin(), predicate);
  Node combined = *combine_conjuncts(derived, ea);
  lp.get_mut(n).as_mut<plan::FilterNode>().predicate = predicate_ir(combined, ea);
}

}  // namespace

Node derive_join_predicates(Node root, IRArena& lp, ExprArena& ea) {
  for_each_plan_node(root, lp, [&](Node n) {
    if (lp.get(n).kind() == IRKind::Filter) derive_for(n, lp, ea);
  });
  return root;
}

}  // namespace frazil::optimizer
