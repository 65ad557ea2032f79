#include "frazil/optimizer/pushdown/null_rejecting.hpp"

namespace frazil::optimizer {

using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;
using plan::ExprArena;
using plan::Node;

namespace {

using NullColumn = std::function<bool(const std::string&)>;

// The value is null on such rows.
bool is_null_value(Node node, const ExprArena& arena, const NullColumn& is_null_column) {
  const AExpr& e = arena.get(node);
  auto in = [&](size_t i) { return is_null_value(e.inputs[i], arena, is_null_column); };
  switch (e.kind) {
    case AExprKind::Column: return is_null_column(e.name);
    case AExprKind::Literal: return !e.literal().is_series() && e.literal().scalar.is_null();
    case AExprKind::Cast: return in(0);
    case AExprKind::BinaryExpr:
      switch (e.op) {
        case Operator::EqValidity:
        case Operator::NotEqValidity: return false;
        // Kleene logic: null & false is false, null | true is true.
        case Operator::And:
        case Operator::Or: return in(0) && in(1);
        default: return in(0) || in(1);  // comparisons, arithmetic, xor propagate nulls
      }
    case AExprKind::Function: {
      // Null on the rows where an input whose null propagates is null (is_null, fill_null,
      // coalesce, is_in, ... propagate none: they may turn a null into a value).
      const uint32_t propagating = e.spec().null_if_null;
      for (size_t i = 0; i < e.inputs.size() && i < 32; ++i)
        if ((propagating >> i & 1) && in(i)) return true;
      return false;
    }
    default: return false;  // ternaries, aggregations, windows: unknown
  }
}

// The value is null or false on such rows.
bool is_null_or_false(Node node, const ExprArena& arena, const NullColumn& is_null_column) {
  const AExpr& e = arena.get(node);
  if (is_null_value(node, arena, is_null_column)) return true;
  if (auto b = e.literal_bool(); b && !*b) return true;
  auto nof = [&](size_t i) { return is_null_or_false(e.inputs[i], arena, is_null_column); };
  if (e.kind == AExprKind::BinaryExpr) {
    if (e.op == Operator::And) return nof(0) || nof(1);
    if (e.op == Operator::Or) return nof(0) && nof(1);
  }
  if (e.kind == AExprKind::Function) {
    // is_not_null(x) is false where x is null; x.is_between(lo, hi) is null or false where
    // any of them is.
    const uint32_t falsifying = e.spec().null_or_false_if_null;
    for (size_t i = 0; i < e.inputs.size() && i < 32; ++i)
      if ((falsifying >> i & 1) && is_null_value(e.inputs[i], arena, is_null_column)) return true;
  }
  return false;
}

}  // namespace

bool rejects_nulls(Node predicate, const ExprArena& arena, const NullColumn& is_null_column) {
  return is_null_or_false(predicate, arena, is_null_column);
}

}  // namespace frazil::optimizer
