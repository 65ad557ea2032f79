// The properties of expressions that the optimizer and the executor ask, in one place:
// whether an expression is one value, computed row by row, independent of which other rows
// are present, safe to evaluate on rows a filter would have removed, blind to the sign of
// zero, and how tall its output is. Functions contribute through their registry rows
// (functions/function_spec.hpp); nothing here names a function. Every walk is iterative
// (plan/expr/walk.hpp).
#pragma once

#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "frazil/core/schema.hpp"
#include "frazil/plan/aexpr.hpp"

namespace frazil::plan {

// The node itself draws random numbers (sample, shuffle): evaluated twice, or elsewhere,
// it gives other values.
bool is_nondeterministic_top_level(const AExpr& e);

// The output has exactly one row (a scalar literal, an aggregation, len(), a reduction).
bool is_scalar_ae(Node node, const ExprArena& arena);

// The partition keys shared by every window of an expression (in input names), gathered
// when windows are allowed (see ElementwiseOptions::windows).
struct WindowKeys {
  bool any = false;
  std::unordered_set<std::string> keys;
};

// What "row by row" means to the asker; the default is the executor's (can it stream?).
struct ElementwiseOptions {
  // A Set input (is_in's values) must be a literal: a column of the frame would make the
  // result depend on which rows are present.
  bool literal_sets = false;
  // A non-deterministic function (sample, shuffle) gives other values elsewhere.
  bool deterministic = false;
  // Subtrees taken as given columns (computed elsewhere, e.g. common subexpressions).
  const std::unordered_set<uint32_t>* leaves = nullptr;
  // When set, windows over plain columns are allowed: each is evaluated per partition, and
  // the keys every window shares are intersected into *windows (it fails when none remain).
  WindowKeys* windows = nullptr;
};

// Output row i depends only on input row i (one-row values broadcast): no aggregation,
// window, sort, filter or shape-changing function anywhere.
bool is_elementwise(Node node, const ExprArena& arena, const ElementwiseOptions& options = {});
bool is_elementwise_rec(Node node, const ExprArena& arena);
bool is_elementwise_rec(Node node, const ExprArena& arena, const std::unordered_set<uint32_t>& leaves);

// Elementwise, deterministic and with literal sets: such an expression gives the same value
// for a row whatever other rows are present, wherever in the plan it is evaluated.
bool is_row_local(Node node, const ExprArena& arena);

// Whether a projection expression lets a filter move below it: row-local, except for
// windows over plain columns; filtering on keys every window shares removes whole
// partitions and leaves the others' results unchanged.
bool lets_filters_through(Node node, const ExprArena& arena, WindowKeys& windows);

// Can fail at runtime for some rows (a strict cast that may not fit, a fallible function):
// such a predicate must not be evaluated on rows that an earlier filter removed.
bool is_fallible(Node node, const ExprArena& arena, const Schema& schema);

// Gives the same result for -0.0 and 0.0 (and any two NaNs) in every column it reads, so
// that it agrees on all rows of a group whose float keys compare equal.
bool is_zero_sign_insensitive(Node node, const ExprArena& arena);

// Contains an aggregation, a window, a sort, a filter or any function that needs the whole
// column.
bool has_aggregation(Node node, const ExprArena& arena);
bool has_window(Node node, const ExprArena& arena);

// How many rows an expression gives over a frame: one, the frame's, or a number of its own
// (unique(), head(), a series literal).
enum class Height : uint8_t { Scalar, Frame, Other };
// One node's height from its inputs' (the rule expr_height applies node by node).
Height node_height(const AExpr& e, std::span<const Height> inputs);
Height expr_height(Node node, const ExprArena& arena);

}  // namespace frazil::plan
