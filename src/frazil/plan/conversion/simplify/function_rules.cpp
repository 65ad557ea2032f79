// Rewrites that change the shape of a function call into a cheaper equivalent.
#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::plan::simplify {

using compute::AggKind;
using dsl::Operator;

namespace {

Node zero_u32(ExprArena& arena) { return arena.add(AExpr::scalar(Scalar::uint32(0))); }

AExpr agg_of(Node input, AggKind kind) {
  AExpr a;
  a.kind = AExprKind::Agg;
  a.inputs = {input};
  a.agg = kind;
  return a;
}

}  // namespace

std::optional<AExpr> simplify_functions(ExprArena& arena, Node node, const Schema&) {
  const AExpr e = arena.get(node);
  if (e.kind == AExprKind::Agg && (e.agg == AggKind::Any) && !e.inputs.empty()) {
    const AExpr& in = arena.get(e.inputs[0]);
    // is_null().any() -> null_count() > 0: one pass, no mask. is_null never yields null,
    // so ignore_nulls does not matter.
    if (in.is_function("is_null")) {
      Node nc = arena.add(AExpr::function_call("null_count", {in.inputs[0]}));
      return AExpr::binary(nc, Operator::Gt, zero_u32(arena));
    }
    // is_not_null().any() -> count() > 0 (count is the number of non-null values).
    if (in.is_function("is_not_null")) {
      Node count = arena.add(agg_of(in.inputs[0], AggKind::Count));
      return AExpr::binary(count, Operator::Gt, zero_u32(arena));
    }
  }
  // drop_nulls().len() and drop_nulls().count() -> count().
  if (e.kind == AExprKind::Agg && (e.agg == AggKind::Len || e.agg == AggKind::Count)) {
    const AExpr& in = arena.get(e.inputs[0]);
    if (in.is_function("drop_nulls")) return agg_of(in.inputs[0], AggKind::Count);
  }
  // sort().reverse() -> the same sort with descending and nulls_last flipped; not for a
  // stable sort, whose ties would come out in the opposite order.
  if (e.is_function("reverse")) {
    const AExpr& in = arena.get(e.inputs[0]);
    if (in.kind == AExprKind::Sort && !in.sort().maintain_order) {
      AExpr out = in;
      out.sort_mut().descending = !in.sort().descending;
      out.sort_mut().nulls_last = !in.sort().nulls_last;
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace frazil::plan::simplify
