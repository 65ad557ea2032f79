// Small expression helpers shared by the pushdown passes: conjunct splitting and
// combining, column renaming by copy (never in place: a node may be shared), structural
// equality, and the properties that decide whether an expression may move.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::ExprIR;
using plan::IRArena;
using plan::Node;

// The conjuncts of a Boolean AND tree: (a & b) & c -> [a, b, c]. A filter keeps a row iff
// its predicate is true, and under Kleene logic `a & b` is true iff both are, so the
// conjuncts of a filter predicate may be applied separately and in any order.
void split_conjuncts(Node node, const ExprArena& arena, const Schema& schema, std::vector<Node>& out);
// The operands of a Boolean OR tree: (a | b) | c -> [a, b, c].
void split_disjuncts(Node node, const ExprArena& arena, const Schema& schema, std::vector<Node>& out);

// Left-deep AND of `nodes` in order; nullopt when empty.
std::optional<Node> combine_conjuncts(const std::vector<Node>& nodes, ExprArena& arena);

// The ExprIR of a predicate node, named as Polars names an unaliased expression.
ExprIR predicate_ir(Node node, const ExprArena& arena);

// A copy of the subtree with columns renamed by `map`; untouched subtrees are shared and
// the node itself is returned when nothing is renamed.
Node rename_columns(Node node, ExprArena& arena, const std::unordered_map<std::string, std::string>& map);

// A full copy of the subtree (for a predicate pushed into several places).
Node deep_copy(Node node, ExprArena& arena);

// Structural equality of two subtrees.
bool expr_equal(Node a, Node b, const ExprArena& arena);

// The distinct column names a subtree reads.
std::vector<std::string> columns_of(Node node, const ExprArena& arena);

// Output row i depends only on input row i: no aggregation, window, sort, filter or
// shape-changing function anywhere (is_in only against a literal set), nothing
// non-deterministic. Such an expression gives the same value for a row whatever other rows
// are present, and wherever in the plan it is evaluated.
bool is_row_local(Node node, const ExprArena& arena);

// Can fail at runtime for some rows (a strict cast that may not fit): such a predicate
// must not be evaluated on rows that an earlier filter removed.
bool is_fallible(Node node, const ExprArena& arena, const Schema& schema);

// Gives the same result for -0.0 and 0.0 (and any two NaNs) in every column it reads, so
// that it agrees on all rows of a group whose float keys compare equal.
bool is_zero_sign_insensitive(Node node, const ExprArena& arena);

// Calls fn(node) once for every plan node reachable from `root`, a node before its inputs.
// fn may rewrite the node in place; the walk goes on into the inputs it has afterwards.
void for_each_plan_node(Node root, const IRArena& lp_arena, const std::function<void(Node)>& fn);

// How many parents each node reachable from `root` has (indexed by node); a node with
// more than one is shared and must not be rewritten for one consumer.
std::vector<uint32_t> count_parents(Node root, const IRArena& lp_arena);

}  // namespace frazil::optimizer
