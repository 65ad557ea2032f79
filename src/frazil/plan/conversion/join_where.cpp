#include "frazil/plan/conversion/join_where.hpp"

#include <unordered_map>
#include <unordered_set>

#include "frazil/dsl/operator_mirror.hpp"
#include "frazil/plan/aexpr.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/expr/walk.hpp"

namespace frazil::plan {

namespace {

using dsl::Operator;

enum class Origin { None, Left, Right, Both };

Origin origin_of(Node n, const ExprArena& ea, const std::unordered_set<std::string>& left_names) {
  std::vector<std::string> cols;
  collect_columns(n, ea, cols);
  bool l = false, r = false;
  for (const auto& c : cols) (left_names.count(c) ? l : r) = true;
  return l && r ? Origin::Both : l ? Origin::Left : r ? Origin::Right : Origin::None;
}

// A key an IEJoin can order: numbers and temporals (their physical order is their order).
// Keys the sort-based join compares as int64 or double without loss; UInt64, Int128 and
// UInt128 go through the nested loop, which evaluates the predicate itself.
bool orderable(const DataType& t) {
  if (t.id() == TypeId::UInt64 || t.id() == TypeId::Int128 || t.id() == TypeId::UInt128) return false;
  return t.is_primitive_numeric() || t.is_temporal();
}

struct Condition {
  Node left, right;  // the left side's expression, the right side's (over the joined schema)
  Operator op;
  Node source;       // the conjunct it came from
};

}  // namespace

bool is_range_join(const InequalityJoinNode& j, const ExprArena& arena) {
  if (j.nested_loop) return false;
  if (j.ops.size() == 1) return true;
  if (j.ops.size() != 2) return false;
  auto is_less = [](const std::string& op) { return op == "<" || op == "<="; };
  if (is_less(j.ops[0]) == is_less(j.ops[1])) return false;
  return expr_equal(j.left_on[0].node(), j.left_on[1].node(), arena) ||
         expr_equal(j.right_on[0].node(), j.right_on[1].node(), arena);
}

SchemaRef join_where_schema(const Schema& left, const Schema& right, const std::string& suffix,
                            const ExprArena& arena) {
  dsl::JoinOptions o;
  o.how = compute::JoinType::Cross;
  o.suffix = suffix;
  o.coalesce = false;
  return join_schema(left, right, {}, {}, o, arena);
}

Node plan_join_where(const std::vector<ExprIR>& predicates, Node left, Node right, const SchemaRef& joined,
                     const std::string& suffix, IRArena& lp, ExprArena& ea) {
  const Schema& ls = *lp.get(left).schema;
  const Schema& rs = *lp.get(right).schema;
  std::unordered_set<std::string> left_names;
  for (const auto& f : ls.fields()) left_names.insert(f.name);
  // Output name of a right column -> its name in the right input.
  std::unordered_map<std::string, std::string> right_input;
  for (const auto& f : rs.fields()) right_input[ls.contains(f.name) ? f.name + suffix : f.name] = f.name;

  std::vector<Node> conjuncts;
  for (const auto& p : predicates) split_conjuncts(p.node(), ea, *joined, conjuncts);
  std::vector<Condition> equal, unequal;
  for (Node c : conjuncts) {
    const AExpr& e = ea.get(c);
    if (e.kind != AExprKind::BinaryExpr) continue;
    const bool eq = e.op == Operator::Eq;
    const bool ineq = e.op == Operator::Lt || e.op == Operator::LtEq || e.op == Operator::Gt || e.op == Operator::GtEq;
    if (!eq && !ineq) continue;
    const Node a = e.inputs[0], b = e.inputs[1];
    const Origin oa = origin_of(a, ea, left_names), ob = origin_of(b, ea, left_names);
    Condition cond{a, b, e.op, c};
    if (oa == Origin::Right && ob == Origin::Left) cond = Condition{b, a, dsl::mirrored(e.op), c};
    else if (!(oa == Origin::Left && ob == Origin::Right)) continue;
    const DataType lt = node_dtype(cond.left, ea, *joined), rt = node_dtype(cond.right, ea, *joined);
    if (eq) {
      equal.push_back(cond);
    } else if (orderable(lt) && orderable(rt)) {
      unequal.push_back(cond);
    }
  }
  auto to_right_input = [&](Node n) { return rename_columns(n, ea, right_input); };
  // The join, and the conjuncts it does not apply.
  std::unordered_set<uint32_t> used;
  Node join;
  if (!equal.empty() || !unequal.empty()) {
    const std::vector<Condition>& keys = equal.empty() ? unequal : equal;
    std::vector<ExprIR> left_on, right_on;
    std::vector<std::string> ops;
    for (const auto& k : keys) {
      if (equal.empty() && left_on.size() == 2) break;  // an IEJoin takes two inequalities
      left_on.push_back(predicate_ir(k.left, ea));
      right_on.push_back(predicate_ir(to_right_input(k.right), ea));
      ops.push_back(dsl::operator_symbol(k.op));
      used.insert(k.source.idx);
    }
    if (!equal.empty()) {
      JoinNode j;
      j.left_on = std::move(left_on);
      j.right_on = std::move(right_on);
      j.options.how = compute::JoinType::Inner;
      j.options.suffix = suffix;
      j.options.coalesce = false;
      join = lp.add(IR(std::move(j), {left, right}, joined));
    } else {
      InequalityJoinNode j;
      j.left_on = std::move(left_on);
      j.right_on = std::move(right_on);
      j.ops = std::move(ops);
      j.suffix = suffix;
      join = lp.add(IR(std::move(j), {left, right}, joined));
    }
  } else {
    InequalityJoinNode j;
    j.nested_loop = true;
    j.predicate = predicate_ir(*combine_conjuncts(conjuncts, ea), ea);
    j.suffix = suffix;
    return lp.add(IR(std::move(j), {left, right}, joined));
  }
  std::vector<Node> rest;
  for (Node c : conjuncts)
    if (!used.count(c.idx)) rest.push_back(c);
  if (rest.empty()) return join;
  return lp.add(make_filter(join, predicate_ir(*combine_conjuncts(rest, ea), ea), joined));
}

}  // namespace frazil::plan
