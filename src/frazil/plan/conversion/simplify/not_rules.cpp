// NOT rewrites that push negation towards the leaves, exposing AND/OR chains to the
// boolean rules. Each holds under Kleene logic (NOT null = null) and the float total order.
#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::plan::simplify {

using dsl::Operator;

std::optional<AExpr> simplify_not(ExprArena& arena, Node node, const Schema& schema, const OptimizeExprContext& ctx) {
  const AExpr& e = arena.get(node);
  if (!e.is_function("not")) return std::nullopt;
  const Node in = e.inputs[0];
  const AExpr inner = arena.get(in);
  // NOT(NOT(a)) -> a, for booleans and (bitwise) integers alike.
  if (inner.is_function("not")) return arena.get(inner.inputs[0]);
  if (inner.kind != AExprKind::BinaryExpr) return std::nullopt;
  // The rest is boolean logic only.
  if (!dtype_of(in, arena, schema, ctx).is_boolean()) return std::nullopt;
  auto negate = [&](Node n) { return arena.add(AExpr::function_call("not", {n})); };
  switch (inner.op) {
    case Operator::And:  // NOT(a AND b) -> NOT(a) OR NOT(b)
      if (!dtype_of(inner.inputs[0], arena, schema, ctx).is_boolean()) return std::nullopt;
      return AExpr::binary(negate(inner.inputs[0]), Operator::Or, negate(inner.inputs[1]));
    case Operator::Or:  // NOT(a OR b) -> NOT(a) AND NOT(b)
      if (!dtype_of(inner.inputs[0], arena, schema, ctx).is_boolean()) return std::nullopt;
      return AExpr::binary(negate(inner.inputs[0]), Operator::And, negate(inner.inputs[1]));
    // NOT of a comparison is the complementary comparison (total order: no NaN surprises).
    case Operator::Eq: return AExpr::binary(inner.inputs[0], Operator::NotEq, inner.inputs[1]);
    case Operator::NotEq: return AExpr::binary(inner.inputs[0], Operator::Eq, inner.inputs[1]);
    case Operator::Lt: return AExpr::binary(inner.inputs[0], Operator::GtEq, inner.inputs[1]);
    case Operator::LtEq: return AExpr::binary(inner.inputs[0], Operator::Gt, inner.inputs[1]);
    case Operator::Gt: return AExpr::binary(inner.inputs[0], Operator::LtEq, inner.inputs[1]);
    case Operator::GtEq: return AExpr::binary(inner.inputs[0], Operator::Lt, inner.inputs[1]);
    default: return std::nullopt;
  }
}

}  // namespace frazil::plan::simplify
