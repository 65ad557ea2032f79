// DSL Expr -> AExpr nodes in the arena, bottom-up: children are added first, so the
// parent is pushed last and the arena is in post-order. Multi-output expressions
// (col("*"), cols([...]), exclude, nth) are expanded against the input schema first.
#pragma once

#include <unordered_map>
#include <vector>

#include "frazil/dsl/expr.hpp"
#include "frazil/plan/expr_ir.hpp"

namespace frazil::plan {

// Replaces every multi-output leaf by one expression per column it stands for.
std::vector<dsl::Expr> expand_expressions(const std::vector<dsl::Expr>& exprs, const Schema& schema);

// Where an expression is converted: the context ConversionOptimizer rewrites it in.
struct ConversionContext {
  bool filter_predicate = false;
  bool in_aggregation = false;
};

// Converts one single-output expression (already expanded). Aliases are pruned into the
// ExprIR's output name; the output name follows Polars (leftmost input, "literal", "len").
// A DSL subtree shared by several parents becomes one arena node with several parents
// (per context), so the arena holds a DAG as large as the DSL graph, not its unfolding.
ExprIR to_expr_ir(const dsl::Expr& expr, ExprArena& arena, const Schema& schema, ConversionContext ctx = {});

// IR -> DSL, for error messages and explain(). Shared arena nodes stay shared.
dsl::Expr node_to_expr(Node node, const ExprArena& arena);

// node_to_expr for many nodes of one arena, sharing the conversions of common subtrees.
class NodeToExpr {
 public:
  explicit NodeToExpr(const ExprArena& arena) : arena_(arena) {}
  dsl::Expr operator()(Node node);
  // The node itself, over the (memoized) conversions of its inputs; never from the memo.
  dsl::Expr expand(Node node);
  // Converts `node` to `expr` from now on (a placeholder for a shared subexpression).
  void set(Node node, dsl::Expr expr);

 private:
  const ExprArena& arena_;
  std::unordered_map<uint32_t, dsl::Expr> memo_;
};

}  // namespace frazil::plan
