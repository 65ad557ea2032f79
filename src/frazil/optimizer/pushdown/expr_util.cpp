#include "frazil/optimizer/pushdown/expr_util.hpp"

#include <algorithm>

#include "frazil/plan/canonical/canonical_expr_map.hpp"

namespace frazil::optimizer {

using dsl::FunctionKind;
using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;

void split_conjuncts(Node node, const ExprArena& arena, const Schema& schema, std::vector<Node>& out) {
  const AExpr& e = arena.get(node);
  // `&` is bitwise on integers: only a Boolean AND splits.
  if (e.kind == AExprKind::BinaryExpr && e.op == Operator::And &&
      plan::node_dtype(e.inputs[0], arena, schema).is_boolean() &&
      plan::node_dtype(e.inputs[1], arena, schema).is_boolean()) {
    split_conjuncts(e.inputs[0], arena, schema, out);
    split_conjuncts(e.inputs[1], arena, schema, out);
    return;
  }
  out.push_back(node);
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

Node rename_columns(Node node, ExprArena& arena, const std::unordered_map<std::string, std::string>& map) {
  if (map.empty()) return node;
  const AExpr& e = arena.get(node);
  if (e.kind == AExprKind::Column) {
    auto it = map.find(e.name);
    if (it == map.end() || it->second == e.name) return node;
    return arena.add(AExpr::column(it->second));
  }
  std::vector<Node> inputs = e.inputs;
  bool changed = false;
  for (Node& in : inputs) {
    Node renamed = rename_columns(in, arena, map);
    changed |= renamed != in;
    in = renamed;
  }
  if (!changed) return node;
  AExpr copy = arena.get(node);
  copy.inputs = std::move(inputs);
  return arena.add(std::move(copy));
}

Node deep_copy(Node node, ExprArena& arena) {
  std::vector<Node> inputs = arena.get(node).inputs;
  for (Node& in : inputs) in = deep_copy(in, arena);
  AExpr copy = arena.get(node);
  copy.inputs = std::move(inputs);
  return arena.add(std::move(copy));
}

bool expr_equal(Node a, Node b, const ExprArena& arena) {
  if (a == b) return true;
  const AExpr& x = arena.get(a);
  const AExpr& y = arena.get(b);
  if (!x.equal_shallow(y)) return false;
  for (size_t i = 0; i < x.inputs.size(); ++i)
    if (!expr_equal(x.inputs[i], y.inputs[i], arena)) return false;
  return true;
}

std::vector<std::string> columns_of(Node node, const ExprArena& arena) {
  std::vector<std::string> out;
  plan::collect_columns(node, arena, out);
  return out;
}

bool is_row_local(Node node, const ExprArena& arena) {
  const AExpr& e = arena.get(node);
  // A non-deterministic expression gives other values when evaluated elsewhere.
  if (plan::is_nondeterministic_top_level(e)) return false;
  switch (e.kind) {
    case AExprKind::Agg:
    case AExprKind::Len:
    case AExprKind::Window:
    case AExprKind::Filter:
    case AExprKind::Sort:
    case AExprKind::SortBy: return false;
    case AExprKind::Literal: return !e.literal.is_series();
    case AExprKind::Function:
      if (!dsl::function_is_elementwise(e.function.kind)) return false;
      // The set of is_in is a whole series: only a literal one is independent of the rows.
      if (e.function.kind == FunctionKind::IsIn)
        return arena.get(e.inputs[1]).kind == AExprKind::Literal && is_row_local(e.inputs[0], arena);
      break;
    default: break;
  }
  for (Node in : e.inputs)
    if (!is_row_local(in, arena)) return false;
  return true;
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

bool is_fallible(Node node, const ExprArena& arena, const Schema& schema) {
  const AExpr& e = arena.get(node);
  if (e.kind == AExprKind::Cast && e.strict) {
    DataType from;
    try {
      from = plan::node_dtype(e.inputs[0], arena, schema);
    } catch (const Error&) {
      return true;
    }
    if (cast_can_fail(from, e.dtype)) return true;
  }
  for (Node in : e.inputs)
    if (is_fallible(in, arena, schema)) return true;
  return false;
}

bool is_zero_sign_insensitive(Node node, const ExprArena& arena) {
  const AExpr& e = arena.get(node);
  switch (e.kind) {
    case AExprKind::Column:
    case AExprKind::Literal:
    case AExprKind::Ternary: break;
    case AExprKind::Cast:
      // "-0.0" and "0.0" differ as text.
      if (e.dtype.id() == TypeId::String || e.dtype.id() == TypeId::Binary) return false;
      break;
    case AExprKind::BinaryExpr:
      // x / -0.0 is -inf, x / 0.0 is +inf; everything else treats the zeros alike.
      if (e.op == Operator::TrueDivide || e.op == Operator::FloorDivide || e.op == Operator::Modulus) return false;
      break;
    case AExprKind::Function:
      switch (e.function.kind) {
        case FunctionKind::Not:
        case FunctionKind::IsNull:
        case FunctionKind::IsNotNull:
        case FunctionKind::IsNan:
        case FunctionKind::IsNotNan:
        case FunctionKind::IsFinite:
        case FunctionKind::IsInfinite:
        case FunctionKind::IsIn:
        case FunctionKind::IsBetween:
        case FunctionKind::FillNull:
        case FunctionKind::FillNan:
        case FunctionKind::Coalesce:
        case FunctionKind::Abs:
        case FunctionKind::Negate:
        case FunctionKind::Round:
        case FunctionKind::Floor:
        case FunctionKind::Ceil:
        case FunctionKind::Sqrt: break;
        default: return false;
      }
      break;
    default: return false;
  }
  for (Node in : e.inputs)
    if (!is_zero_sign_insensitive(in, arena)) return false;
  return true;
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

}  // namespace frazil::optimizer
