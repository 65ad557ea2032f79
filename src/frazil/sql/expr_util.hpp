// Small helpers over DSL expressions and parse-tree literals shared by the translation
// steps: structural equality, Polars' output names, conjuncts, constants.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "frazil/dsl/expr.hpp"
#include "frazil/dsl/str_namespace.hpp"
#include "frazil/sql/pg_tree.hpp"

namespace frazil::sql {

// Structural equality of two DSL expressions (same tree, same options, same literals).
bool exprs_equal(const dsl::Expr& a, const dsl::Expr& b);

// The name Polars gives an expression's output: its leftmost column, "literal", "len".
std::string derived_name(const dsl::Expr& e);

// The name of a plain column expression `col(name)`, or nullptr for any other expression.
inline const std::string* plain_column_name(const dsl::Expr& e) {
  return e.kind() == dsl::ExprKind::Column ? &e.node().names[0] : nullptr;
}

// Calls `visit` on every node of `e` (pre-order); `visit` returning false skips children.
template <typename F>
void visit_expr(const dsl::Expr& e, F&& visit) {
  if (!visit(e)) return;
  for (const auto& c : e.inputs()) visit_expr(c, visit);
}

// `e` with every node for which `map` returns a value replaced by it (bottom-up order of
// children is kept; the replacement's own children are not revisited).
dsl::Expr rewrite_expr(const dsl::Expr& e, const std::function<std::optional<dsl::Expr>(const dsl::Expr&)>& map);

// Whether the expression holds an aggregation (Agg or Len) outside any window.
bool has_aggregation(const dsl::Expr& e);

// list[index] with SQL's 1-based index (arr[i], ARRAY_GET): n > 0 reads element n - 1, n < 0
// counts from the end, 0 and out of range give NULL. `index_node`: the index's parse node
// (a constant index is folded).
dsl::Expr list_get_one_based(const dsl::Expr& list, const dsl::Expr& index, const PgNode* index_node);

// Splits an AND tree (BoolExpr AND) into its conjuncts.
void split_conjuncts(const PgNode* node, std::vector<const PgNode*>& out);

// The value of an integer / string literal node (unary minus included).
std::optional<int64_t> const_int(const PgNode* node);
std::optional<std::string> const_string(const PgNode* node);

// Escapes RE2 metacharacters so that `s` matches itself.
std::string compute_regex_escape(const std::string& s);

// A dtype as Polars prints it in messages ("date", "i64", "str").
std::string dtype_display(const DataType& t);

}  // namespace frazil::sql

namespace frazil::sql {
// Whether `text` matches the LIKE pattern (for `* ILIKE 'pattern'` over column names).
bool like_matches(const std::string& text, const std::string& pattern, bool case_insensitive);
}  // namespace frazil::sql

namespace frazil::sql {
// The string matchers SQL's LIKE and functions use (the C++ str() namespace).
inline dsl::Expr str_contains(const dsl::Expr& e, const std::string& pattern, bool literal) {
  return e.str().contains(pattern, literal);
}
inline dsl::Expr str_starts_with(const dsl::Expr& e, const std::string& prefix) { return e.str().starts_with(prefix); }
inline dsl::Expr str_ends_with(const dsl::Expr& e, const std::string& suffix) { return e.str().ends_with(suffix); }
}  // namespace frazil::sql
