// SimplifyExprRule: the small, always-valid rewrites applied during conversion, each in
// its own file under plan/conversion/simplify/. The rule tries them in order.
#pragma once

#include "frazil/plan/optimization_rule.hpp"

namespace frazil::plan {

class SimplifyExprRule final : public OptimizationRule {
 public:
  const char* name() const override { return "simplify_expr"; }
  std::optional<AExpr> optimize_expr(ExprArena& arena, Node node, const Schema& schema,
                                     const OptimizeExprContext& ctx) override;
};

}  // namespace frazil::plan
