#include "frazil/plan/conversion/simplify_expr.hpp"

#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::plan {

std::optional<AExpr> SimplifyExprRule::optimize_expr(ExprArena& arena, Node node, const Schema& schema,
                                                     const OptimizeExprContext& ctx) {
  if (auto out = simplify::simplify_and_or(arena, node, schema, ctx)) return out;
  if (auto out = simplify::simplify_not(arena, node, schema, ctx)) return out;
  if (auto out = simplify::fold_constants(arena, node, schema)) return out;
  if (auto out = simplify::fold_ternary(arena, node, schema)) return out;
  if (auto out = simplify::simplify_functions(arena, node, schema)) return out;
  if (auto out = simplify::simplify_count_comparisons(arena, node, schema)) return out;
  return std::nullopt;
}

}  // namespace frazil::plan
