#include "frazil/optimizer/cross_join_to_inner.hpp"

#include <unordered_map>

#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/optimizer/pushdown/join_columns.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::ExprIR;
using plan::IRArena;
using plan::Node;
using plan::split_conjuncts;
using plan::combine_conjuncts;
using plan::predicate_ir;
using plan::rename_columns;
using plan::columns_of;
using plan::is_row_local;
using plan::for_each_plan_node;
using plan::count_parents;

using compute::JoinType;
using plan::AExpr;
using plan::AExprKind;
using plan::IR;
using plan::IRKind;

namespace {

// The side all columns of `node` come from (nullopt: none, or both).
std::optional<JoinSide> side_of(Node node, const ExprArena& arena,
                                const std::unordered_map<std::string, const JoinColumn*>& origin) {
  std::optional<JoinSide> side;
  for (const auto& c : columns_of(node, arena)) {
    JoinSide s = origin.at(c)->side;
    if (side && *side != s) return std::nullopt;
    side = s;
  }
  return side;
}

ExprIR key_ir(Node node, const ExprArena& arena) {
  auto name = plan::leftmost_column(node, arena);
  return ExprIR(node, plan::OutputName{plan::OutputNameKind::ColumnLhs, name.value_or("literal")});
}

// Rewrites the filter `n` over a cross join in place; true when it did.
bool collapse(Node n, IRArena& lp, ExprArena& ea, const std::vector<uint32_t>& parents) {
  const IR& filter = lp.get(n);
  const Node j = filter.inputs[0];
  const IR& join = lp.get(j);
  if (!join.is<plan::JoinNode>() || join.as<plan::JoinNode>().options.how != JoinType::Cross || parents[j.idx] > 1)
    return false;
  const Schema& schema = *join.schema;
  const auto columns = join_columns(join, *lp.get(join.inputs[0]).schema, *lp.get(join.inputs[1]).schema, ea);
  std::unordered_map<std::string, const JoinColumn*> origin;
  std::unordered_map<std::string, std::string> to_input;
  for (const auto& c : columns) {
    origin[c.output] = &c;
    to_input[c.output] = c.input;
  }
  std::vector<Node> conjuncts, rest;
  split_conjuncts(filter.as<plan::FilterNode>().predicate.node(), ea, schema, conjuncts);
  std::vector<ExprIR> left_on, right_on;
  for (Node c : conjuncts) {
    const AExpr& e = ea.get(c);
    if (e.kind == AExprKind::BinaryExpr && e.op == dsl::Operator::Eq && is_row_local(c, ea)) {
      Node a = e.inputs[0], b = e.inputs[1];
      auto sa = side_of(a, ea, origin), sb = side_of(b, ea, origin);
      if (sa && sb && *sa == JoinSide::Right && *sb == JoinSide::Left) std::swap(a, b), std::swap(sa, sb);
      DataType ta = plan::node_dtype(a, ea, schema), tb = plan::node_dtype(b, ea, schema);
      if (sa && sb && *sa == JoinSide::Left && *sb == JoinSide::Right && ta == tb && !ta.is_nested() &&
          !ta.is_null()) {
        left_on.push_back(key_ir(rename_columns(a, ea, to_input), ea));
        right_on.push_back(key_ir(rename_columns(b, ea, to_input), ea));
        continue;
      }
    }
    rest.push_back(c);
  }
  if (left_on.empty()) return false;
  IR inner = lp.get(j);
  auto& spec = inner.as_mut<plan::JoinNode>();
  spec.options.how = JoinType::Inner;
  spec.options.coalesce = false;  // both key columns stay, as in the cross join
  spec.left_on = std::move(left_on);
  spec.right_on = std::move(right_on);
  if (auto remaining = combine_conjuncts(rest, ea)) {
    lp.replace(j, std::move(inner));
    lp.get_mut(n).as_mut<plan::FilterNode>().predicate = predicate_ir(*remaining, ea);
  } else {
    // The filter's node becomes the join; its parents need not change.
    lp.replace(n, std::move(inner));
  }
  return true;
}

}  // namespace

Node cross_join_to_inner(Node root, IRArena& lp, ExprArena& ea) {
  const auto parents = count_parents(root, lp);
  for_each_plan_node(root, lp, [&](Node n) {
    if (lp.get(n).kind() == IRKind::Filter) collapse(n, lp, ea, parents);
  });
  return root;
}

}  // namespace frazil::optimizer
