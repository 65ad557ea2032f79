// when(<literal bool or null>).then(a).otherwise(b) -> the taken branch, only when both branches
// are scalars or both are elementwise columns: otherwise the result's length would change;
// and only once both branches have one dtype (after coercion to their supertype): otherwise
// the result's dtype would be the taken branch's.
#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::plan::simplify {

std::optional<AExpr> fold_ternary(ExprArena& arena, Node node, const Schema& schema) {
  const AExpr& e = arena.get(node);
  if (e.kind != AExprKind::Ternary) return std::nullopt;
  const AExpr& p = arena.get(e.inputs[0]);
  std::optional<bool> predicate = p.literal_bool();
  // A null predicate takes the otherwise branch, as false does.
  if (!predicate && p.kind == AExprKind::Literal && !p.literal().is_series() && p.literal().scalar.is_null())
    predicate = false;
  if (!predicate) return std::nullopt;
  const Node truthy = e.inputs[1], falsy = e.inputs[2];
  const bool t_scalar = is_scalar_ae(truthy, arena);
  const bool f_scalar = is_scalar_ae(falsy, arena);
  if (t_scalar != f_scalar) return std::nullopt;
  const AExpr& ta = arena.get(truthy);
  const AExpr& fa = arena.get(falsy);
  if ((ta.kind == AExprKind::Literal && ta.literal().dynamic) || (fa.kind == AExprKind::Literal && fa.literal().dynamic))
    return std::nullopt;
  if (node_dtype(truthy, arena, schema) != node_dtype(falsy, arena, schema)) return std::nullopt;
  if (!t_scalar && !(is_elementwise_rec(truthy, arena) && is_elementwise_rec(falsy, arena))) return std::nullopt;
  return arena.get(*predicate ? truthy : falsy);
}

}  // namespace frazil::plan::simplify
