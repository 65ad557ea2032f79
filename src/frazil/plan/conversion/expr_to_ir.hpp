// DSL Expr -> AExpr nodes in the arena, bottom-up: children are added first, so the
// parent is pushed last and the arena is in post-order. Multi-output expressions
// (col("*"), cols([...]), exclude, nth) are expanded against the input schema first.
#pragma once

#include <vector>

#include "frazil/dsl/expr.hpp"
#include "frazil/plan/expr_ir.hpp"

namespace frazil::plan {

// Replaces every multi-output leaf by one expression per column it stands for.
std::vector<dsl::Expr> expand_expressions(const std::vector<dsl::Expr>& exprs, const Schema& schema);

// Converts one single-output expression (already expanded). Aliases are pruned into the
// ExprIR's output name; the output name follows Polars (leftmost input, "literal", "len").
ExprIR to_expr_ir(const dsl::Expr& expr, ExprArena& arena, const Schema& schema);

// IR -> DSL, for error messages and explain().
dsl::Expr node_to_expr(Node node, const ExprArena& arena);

}  // namespace frazil::plan
