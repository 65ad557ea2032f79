// Structural questions about a DSL expression tree, for Expr.meta: equality and hashing of
// whole trees (NaN literals equal, as Polars' meta.eq), rebuilding a node over other inputs
// and applying a name rule (name.suffix(...)) to a name.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

// Same tree: node kinds, names, literals, operators, dtypes, function calls and options,
// recursively. Name rules and selectors compare by their display and identity.
bool same_expr(const Expr& a, const Expr& b);
size_t expr_hash(const Expr& e);

// `e`'s node over other inputs (as many as it has).
Expr with_inputs(const Expr& e, std::vector<Expr> inputs);

// A RenameAlias node's rule applied to `name`; nullopt for other nodes.
std::optional<std::string> apply_rename(const Expr& e, const std::string& name);

// The text of a node alone, without its inputs: "col(foo)", "binary: *", "sum", "window".
std::string node_label(const Expr& e);

}  // namespace frazil::dsl
