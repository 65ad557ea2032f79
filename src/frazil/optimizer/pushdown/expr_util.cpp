#include "frazil/optimizer/pushdown/expr_util.hpp"

#include <algorithm>
#include <unordered_set>

#include "frazil/plan/canonical/canonical_expr_map.hpp"

namespace frazil::optimizer {

using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;

// An operand reached twice (the tree shares a subtree) is kept once: a & a is a, a | a is a.
static void split_rec(Node node, Operator op, const ExprArena& arena, const Schema& schema, std::vector<Node>& out,
                      std::unordered_set<uint32_t>& seen) {
  if (!seen.insert(node.idx).second) return;
  const AExpr& e = arena.get(node);
  // `&` and `|` are bitwise on integers: only Boolean operands split.
  if (e.kind == AExprKind::BinaryExpr && e.op == op && plan::node_dtype(e.inputs[0], arena, schema).is_boolean() &&
      plan::node_dtype(e.inputs[1], arena, schema).is_boolean()) {
    split_rec(e.inputs[0], op, arena, schema, out, seen);
    split_rec(e.inputs[1], op, arena, schema, out, seen);
    return;
  }
  out.push_back(node);
}

void split_conjuncts(Node node, const ExprArena& arena, const Schema& schema, std::vector<Node>& out) {
  std::unordered_set<uint32_t> seen;
  split_rec(node, Operator::And, arena, schema, out, seen);
}

void split_disjuncts(Node node, const ExprArena& arena, const Schema& schema, std::vector<Node>& out) {
  std::unordered_set<uint32_t> seen;
  split_rec(node, Operator::Or, arena, schema, out, seen);
}

std::optional<Node> combine_conjuncts(const std::vector<Node>& nodes, ExprArena& arena) {
  if (nodes.empty()) return std::nullopt;
  Node out = nodes[0];
  for (size_t i = 1; i < nodes.size(); ++i) out = arena.add(AExpr::binary(out, Operator::And, nodes[i]));
  return out;
}

ExprIR predicate_ir(Node node, const ExprArena& arena) {
  if (auto name = plan::leftmost_column(node, arena))
    return ExprIR(node, plan::OutputName{plan::OutputNameKind::ColumnLhs, *name});
  return ExprIR(node, plan::OutputName{plan::OutputNameKind::LiteralLhs, "literal"});
}

namespace {

// The walks below run over a DAG (a subtree may have several parents): each remembers the
// nodes it has done, so a shared subtree costs once. The boolean ones return as soon as the
// answer is known, so a node seen before contributed the neutral value.
using Seen = std::unordered_set<uint64_t>;
using NodeMemo = std::unordered_map<uint32_t, Node>;

Node rename_rec(Node node, ExprArena& arena, const std::unordered_map<std::string, std::string>& map,
                NodeMemo& memo) {
  if (auto it = memo.find(node.idx); it != memo.end()) return it->second;
  const AExpr& e = arena.get(node);
  if (e.kind == AExprKind::Column) {
    auto it = map.find(e.name);
    if (it == map.end() || it->second == e.name) return node;
    return arena.add(AExpr::column(it->second));
  }
  std::vector<Node> inputs = e.inputs;
  bool changed = false;
  for (Node& in : inputs) {
    Node renamed = rename_rec(in, arena, map, memo);
    changed |= renamed != in;
    in = renamed;
  }
  Node out = node;
  if (changed) {
    AExpr copy = arena.get(node);
    copy.inputs = std::move(inputs);
    out = arena.add(std::move(copy));
  }
  memo.emplace(node.idx, out);
  return out;
}

Node deep_copy_rec(Node node, ExprArena& arena, NodeMemo& memo) {
  if (auto it = memo.find(node.idx); it != memo.end()) return it->second;
  std::vector<Node> inputs = arena.get(node).inputs;
  for (Node& in : inputs) in = deep_copy_rec(in, arena, memo);
  AExpr copy = arena.get(node);
  copy.inputs = std::move(inputs);
  Node out = arena.add(std::move(copy));
  memo.emplace(node.idx, out);
  return out;
}

bool expr_equal_rec(Node a, Node b, const ExprArena& arena, Seen& seen) {
  if (a == b) return true;
  const AExpr& x = arena.get(a);
  const AExpr& y = arena.get(b);
  if (!x.equal_shallow(y)) return false;
  if (!seen.insert(uint64_t{a.idx} << 32 | b.idx).second) return true;
  for (size_t i = 0; i < x.inputs.size(); ++i)
    if (!expr_equal_rec(x.inputs[i], y.inputs[i], arena, seen)) return false;
  return true;
}

}  // namespace

Node rename_columns(Node node, ExprArena& arena, const std::unordered_map<std::string, std::string>& map) {
  if (map.empty()) return node;
  NodeMemo memo;
  return rename_rec(node, arena, map, memo);
}

Node deep_copy(Node node, ExprArena& arena) {
  NodeMemo memo;
  return deep_copy_rec(node, arena, memo);
}

bool expr_equal(Node a, Node b, const ExprArena& arena) {
  Seen seen;
  return expr_equal_rec(a, b, arena, seen);
}

std::vector<std::string> columns_of(Node node, const ExprArena& arena) {
  std::vector<std::string> out;
  plan::collect_columns(node, arena, out);
  return out;
}

static bool is_row_local_rec(Node node, const ExprArena& arena, Seen& seen) {
  const AExpr& e = arena.get(node);
  if (!e.inputs.empty() && !seen.insert(node.idx).second) return true;
  // A non-deterministic expression gives other values when evaluated elsewhere.
  if (plan::is_nondeterministic_top_level(e)) return false;
  switch (e.kind) {
    case AExprKind::Agg:
    case AExprKind::Len:
    case AExprKind::Window:
    case AExprKind::Filter:
    case AExprKind::Sort:
    case AExprKind::SortBy: return false;
    case AExprKind::Literal: return !e.literal().is_series();
    case AExprKind::Function: {
      const auto& spec = e.spec();
      if (!spec.is_elementwise()) return false;
      // A Set input (is_in's values) is a whole series: only a literal one is independent of
      // the rows.
      for (size_t i = 0; i < e.inputs.size(); ++i) {
        const bool ok = spec.role(i) == functions::InputRole::Set ? arena.get(e.inputs[i]).kind == AExprKind::Literal
                                                                   : is_row_local_rec(e.inputs[i], arena, seen);
        if (!ok) return false;
      }
      return true;
    }
    default: break;
  }
  for (Node in : e.inputs)
    if (!is_row_local_rec(in, arena, seen)) return false;
  return true;
}

bool is_row_local(Node node, const ExprArena& arena) {
  Seen seen;
  return is_row_local_rec(node, arena, seen);
}

namespace {

// Integers of `from` all fit in `to`.
bool integer_fits(const DataType& from, const DataType& to) {
  if (from.id() == to.id()) return true;
  const int fw = from.byte_width(), tw = to.byte_width();
  if (from.is_signed_integer() == to.is_signed_integer()) return tw >= fw;
  return from.is_unsigned_integer() && to.is_signed_integer() && tw > fw;
}

bool cast_can_fail(const DataType& from, const DataType& to) {
  if (from == to || from.is_null()) return false;
  if (to.id() == TypeId::String) return false;
  if (to.is_float()) return !(from.is_primitive_numeric() || from.is_boolean());
  if (to.is_integer()) return !(from.is_boolean() || (from.is_integer() && integer_fits(from, to)));
  if (to.is_boolean()) return !from.is_primitive_numeric();
  return true;
}

}  // namespace

static bool is_fallible_rec(Node node, const ExprArena& arena, const Schema& schema, Seen& seen) {
  const AExpr& e = arena.get(node);
  if (e.inputs.empty() || !seen.insert(node.idx).second) return false;
  if (e.kind == AExprKind::Cast && e.strict) {
    DataType from;
    try {
      from = plan::node_dtype(e.inputs[0], arena, schema);
    } catch (const Error&) {
      return true;
    }
    if (cast_can_fail(from, e.dtype())) return true;
  }
  for (Node in : e.inputs)
    if (is_fallible_rec(in, arena, schema, seen)) return true;
  return false;
}

bool is_fallible(Node node, const ExprArena& arena, const Schema& schema) {
  Seen seen;
  return is_fallible_rec(node, arena, schema, seen);
}

static bool zero_sign_insensitive_rec(Node node, const ExprArena& arena, Seen& seen) {
  const AExpr& e = arena.get(node);
  if (!e.inputs.empty() && !seen.insert(node.idx).second) return true;
  switch (e.kind) {
    case AExprKind::Column:
    case AExprKind::Literal:
    case AExprKind::Ternary: break;
    case AExprKind::Cast:
      // "-0.0" and "0.0" differ as text.
      if (e.dtype().id() == TypeId::String || e.dtype().id() == TypeId::Binary) return false;
      break;
    case AExprKind::BinaryExpr:
      // x / -0.0 is -inf, x / 0.0 is +inf; everything else treats the zeros alike.
      if (e.op == Operator::TrueDivide || e.op == Operator::FloorDivide || e.op == Operator::Modulus) return false;
      break;
    case AExprKind::Function:
      if (!e.spec().zero_sign_insensitive) return false;
      break;
    default: return false;
  }
  for (Node in : e.inputs)
    if (!zero_sign_insensitive_rec(in, arena, seen)) return false;
  return true;
}

bool is_zero_sign_insensitive(Node node, const ExprArena& arena) {
  Seen seen;
  return zero_sign_insensitive_rec(node, arena, seen);
}

std::vector<uint32_t> count_parents(Node root, const IRArena& lp_arena) {
  std::vector<uint32_t> parents(lp_arena.size(), 0);
  std::vector<bool> seen(lp_arena.size(), false);
  std::vector<Node> stack{root};
  seen[root.idx] = true;
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    for (Node in : lp_arena.get(n).inputs) {
      ++parents[in.idx];
      if (!seen[in.idx]) {
        seen[in.idx] = true;
        stack.push_back(in);
      }
    }
  }
  return parents;
}

void for_each_plan_node(Node root, const IRArena& lp, const std::function<void(Node)>& fn) {
  std::vector<Node> stack{root};
  std::vector<bool> seen(lp.size(), false);
  seen[root.idx] = true;
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    fn(n);
    for (Node in : lp.get(n).inputs) {
      if (in.idx >= seen.size()) seen.resize(lp.size(), false);
      if (!seen[in.idx]) {
        seen[in.idx] = true;
        stack.push_back(in);
      }
    }
  }
}

}  // namespace frazil::optimizer
