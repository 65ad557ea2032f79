// lit(a) op lit(b) -> lit(a op b), only when both literals have the same dtype (and the
// same dynamic-ness), computed by the same kernels the query would run, so folding never
// changes an answer (float comparisons use the total order there too).
#include "frazil/plan/conversion/simplify/rules.hpp"
#include "frazil/plan/evaluate_operator.hpp"

namespace frazil::plan::simplify {

std::optional<AExpr> fold_constants(ExprArena& arena, Node node, const Schema& schema) {
  const AExpr& e = arena.get(node);
  if (e.kind != AExprKind::BinaryExpr) return std::nullopt;
  const AExpr& l = arena.get(e.inputs[0]);
  const AExpr& r = arena.get(e.inputs[1]);
  if (!l.is_literal() || !r.is_literal() || l.literal.is_series() || r.literal.is_series()) return std::nullopt;
  if (l.literal.dynamic != r.literal.dynamic) return std::nullopt;
  Scalar a = l.literal.materialized_scalar();
  Scalar b = r.literal.materialized_scalar();
  if (a.dtype() != b.dtype() || a.dtype().is_null()) return std::nullopt;
  // Boolean arithmetic is coerced to integers first; fold after that.
  if (a.dtype().is_boolean() && !dsl::is_logical(e.op) && !dsl::is_comparison(e.op)) return std::nullopt;
  ArrayRef out = evaluate_operator(e.op, *scalar_to_array(a, 1), *scalar_to_array(b, 1));
  Scalar v = array_get(*out, 0);
  dsl::LiteralValue lit;
  // Dynamic ints stay dynamic (the value is held as Int64, as for lit(3) itself).
  if (l.literal.dynamic && v.dtype() == a.dtype() && !v.is_null()) {
    lit.scalar = v.with_dtype(l.literal.scalar.dtype());
    lit.dynamic = true;
  } else {
    lit.scalar = v;
  }
  return AExpr::literal_value(std::move(lit));
}

}  // namespace frazil::plan::simplify
