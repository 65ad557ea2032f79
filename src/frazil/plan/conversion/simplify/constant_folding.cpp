// lit(a) op lit(b) -> lit(a op b), only when both literals have the same dtype (and the
// same dynamic-ness), computed by the same kernels the query would run, so folding never
// changes an answer (float comparisons use the total order there too).
#include <cstdint>

#include "frazil/plan/conversion/simplify/rules.hpp"
#include "frazil/plan/evaluate_operator.hpp"

namespace frazil::plan::simplify {

namespace {

bool is_dynamic_int(const dsl::LiteralValue& v) {
  return v.dynamic && !v.is_series() && !v.scalar.is_null() && v.scalar.dtype().id() == TypeId::Int64;
}

// Python ints are exact: lit(2**40) * lit(2**40) must not wrap in Int64 (nor lit(10**5) *
// lit(10**5) in Int32, their materialized dtype). A result past Int64 is UInt64 when it fits
// (as lit(2**63) is) and else Float64: frazil has no Int128, Polars' type for it.
std::optional<AExpr> fold_dynamic_ints(dsl::Operator op, int64_t a, int64_t b) {
  int128_t x = a, y = b, v;
  switch (op) {
    case dsl::Operator::Plus: v = x + y; break;
    case dsl::Operator::Minus: v = x - y; break;
    case dsl::Operator::Multiply: v = x * y; break;
    default: return std::nullopt;
  }
  dsl::LiteralValue lit;
  if (v >= INT64_MIN && v <= INT64_MAX) {
    lit.scalar = Scalar::int64(static_cast<int64_t>(v));
    lit.dynamic = true;
  } else if (v > 0 && v <= static_cast<int128_t>(UINT64_MAX)) {
    lit.scalar = Scalar::uint64(static_cast<uint64_t>(v));
  } else {
    lit.scalar = Scalar::float64(static_cast<double>(v));
  }
  return AExpr::literal_value(std::move(lit));
}

}  // namespace

std::optional<AExpr> fold_constants(ExprArena& arena, Node node, const Schema& schema) {
  const AExpr& e = arena.get(node);
  if (e.kind != AExprKind::BinaryExpr) return std::nullopt;
  const AExpr& l = arena.get(e.inputs[0]);
  const AExpr& r = arena.get(e.inputs[1]);
  if (!l.is_literal() || !r.is_literal() || l.literal().is_series() || r.literal().is_series()) return std::nullopt;
  if (is_dynamic_int(l.literal()) && is_dynamic_int(r.literal())) {
    if (auto folded = fold_dynamic_ints(e.op, l.literal().scalar.as_int64(), r.literal().scalar.as_int64()))
      return folded;
  }
  if (l.literal().dynamic != r.literal().dynamic) return std::nullopt;
  Scalar a = l.literal().materialized_scalar();
  Scalar b = r.literal().materialized_scalar();
  if (a.dtype() != b.dtype() || a.dtype().is_null()) return std::nullopt;
  // Boolean arithmetic is coerced to integers first; fold after that.
  if (a.dtype().is_boolean() && !dsl::is_logical(e.op) && !dsl::is_comparison(e.op)) return std::nullopt;
  ArrayRef out = evaluate_operator(e.op, *scalar_to_array(a, 1), *scalar_to_array(b, 1));
  Scalar v = array_get(*out, 0);
  dsl::LiteralValue lit;
  // Dynamic ints stay dynamic (the value is held as Int64, as for lit(3) itself).
  if (l.literal().dynamic && v.dtype() == a.dtype() && !v.is_null()) {
    lit.scalar = v.with_dtype(l.literal().scalar.dtype());
    lit.dynamic = true;
  } else {
    lit.scalar = v;
  }
  return AExpr::literal_value(std::move(lit));
}

}  // namespace frazil::plan::simplify
