#include "frazil/plan/conversion/simplify_expr.hpp"

namespace frazil::plan {

std::optional<AExpr> SimplifyExprRule::optimize_expr(ExprArena& arena, Node node, const Schema& schema,
                                                     const OptimizeExprContext& ctx) {
  // The rules arrive with the simplification issue; until then nothing is rewritten.
  return std::nullopt;
}

}  // namespace frazil::plan
