// Building blocks of the rewrites passes make to expressions: conjuncts split and combined,
// columns renamed, subtrees copied and compared. Rewrites copy (never edit a node in place:
// it may be shared) and walk with explicit stacks.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frazil/plan/expr_ir.hpp"

namespace frazil::plan {

// The conjuncts of a Boolean AND tree: (a & b) & c -> [a, b, c]. A filter keeps a row iff
// its predicate is true, and under Kleene logic `a & b` is true iff both are, so the
// conjuncts of a filter predicate may be applied separately and in any order. An operand
// reached twice (a shared subtree) is listed once: a & a is a.
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

}  // namespace frazil::plan
