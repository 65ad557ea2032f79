// The simplification rules, one concern per file. Each returns the replacement for the
// node, or nullopt; none recurses. They are small and always value-preserving in the
// contexts they are enabled in: there is deliberately no `x + 0 -> x`, `x * 1 -> x`,
// `0 * x -> 0` or reassociation (dtype changes, -0.0 + 0.0, 0 * NaN, 0 * inf).
#pragma once

#include <optional>

#include "frazil/plan/optimization_rule.hpp"

namespace frazil::plan::simplify {

// AND / OR identities, self-negation and contradicting comparisons (boolean_rules.cpp).
std::optional<AExpr> simplify_and_or(ExprArena& arena, Node node, const Schema& schema,
                                     const OptimizeExprContext& ctx);
// NOT: double negation, de Morgan, negated comparisons (not_rules.cpp).
std::optional<AExpr> simplify_not(ExprArena& arena, Node node, const Schema& schema, const OptimizeExprContext& ctx);
// Literal op literal of the same dtype folded with the runtime kernels (constant_folding.cpp).
std::optional<AExpr> fold_constants(ExprArena& arena, Node node, const Schema& schema);
// when(<literal bool>).then(a).otherwise(b) (ternary_folding.cpp).
std::optional<AExpr> fold_ternary(ExprArena& arena, Node node, const Schema& schema);
// is_null().any(), is_not_null().any(), sort().reverse(), drop_nulls().len() (function_rules.cpp).
std::optional<AExpr> simplify_functions(ExprArena& arena, Node node, const Schema& schema);
// count op k for a count (null_count, len) and an integer literal k (count_comparisons.cpp).
std::optional<AExpr> simplify_count_comparisons(ExprArena& arena, Node node, const Schema& schema);

// `(x op1 y) AND (x op2 y)` can never both hold: their true-sets over {<, ==, >} are
// disjoint (operands may be swapped in the second). Encoded as three bits per comparison.
bool comparisons_contradict(const AExpr& a, const AExpr& b, const ExprArena& arena);
// `negated` is NOT(other) (including NOT(is_in(...))).
bool is_self_negation(const AExpr& negated, Node other, const ExprArena& arena);

// Structural equality of two subtrees (shallow equality, node by node).
bool subtrees_equal(Node a, Node b, const ExprArena& arena);

// A node's dtype, through the driver's memo when it has one (deriving it afresh at every
// node of an AND chain would be quadratic in its length).
DataType dtype_of(Node node, const ExprArena& arena, const Schema& schema, const OptimizeExprContext& ctx);

}  // namespace frazil::plan::simplify
