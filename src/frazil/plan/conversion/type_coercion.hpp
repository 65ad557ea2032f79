// TypeCoercionRule: inserts the casts that make an expression type-correct, with Polars'
// supertype rules and literals that adapt to the other operand's dtype when they fit.
#pragma once

#include "frazil/plan/optimization_rule.hpp"

namespace frazil::plan {

class TypeCoercionRule final : public OptimizationRule {
 public:
  const char* name() const override { return "type_coercion"; }
  std::optional<AExpr> optimize_expr(ExprArena& arena, Node node, const Schema& schema,
                                     const OptimizeExprContext& ctx) override;
};

// The dtype a dynamic literal (Python int/float) takes next to an operand of `other`.
DataType adapt_dynamic_literal(const dsl::LiteralValue& lit, const DataType& other);

// A Cast node over `input`, folded into a new literal when `input` is a literal.
// Strict casts of literals that fail raise InvalidOperationError naming the value.
Node add_cast(ExprArena& arena, Node input, const DataType& dtype, bool strict = true);

// Checks the types of a fully coerced expression: raises SchemaError /
// InvalidOperationError naming the expression for operations the dtypes do not support.
void type_check(Node node, const ExprArena& arena, const Schema& schema);

}  // namespace frazil::plan
