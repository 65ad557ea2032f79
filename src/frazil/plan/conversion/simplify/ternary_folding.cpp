// when(<literal bool>).then(a).otherwise(b) -> the taken branch, only when both branches
// are scalars or both are elementwise columns: otherwise the result's length would change.
#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::plan::simplify {

std::optional<AExpr> fold_ternary(ExprArena& arena, Node node) {
  const AExpr& e = arena.get(node);
  if (e.kind != AExprKind::Ternary) return std::nullopt;
  auto predicate = arena.get(e.inputs[0]).literal_bool();
  if (!predicate) return std::nullopt;
  const Node truthy = e.inputs[1], falsy = e.inputs[2];
  const bool t_scalar = is_scalar_ae(truthy, arena);
  const bool f_scalar = is_scalar_ae(falsy, arena);
  if (t_scalar != f_scalar) return std::nullopt;
  if (!t_scalar && !(is_elementwise_rec(truthy, arena) && is_elementwise_rec(falsy, arena))) return std::nullopt;
  return arena.get(*predicate ? truthy : falsy);
}

}  // namespace frazil::plan::simplify
