// join_asof and merge_sorted at conversion: their keys checked and their output schemas
// (shared with the optimizer, which recomputes them after pruning inputs, and the operators,
// which lay out their output by the same columns).
#pragma once

#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::plan {

// The node of a join_asof with its keys type-checked (integer keys of two dtypes compared as
// Int64), its `by` columns checked, and a tolerance string resolved to a number in the key's
// physical unit. Raises Polars' errors (SchemaError for key dtypes, ComputeError for `by`
// dtypes, a month tolerance or a duration tolerance on a non-temporal key). Without
// `coerce` (type_coercion off), keys of two integer dtypes are an error instead of a cast.
AsofJoinNode resolve_asof_join(ExprIR left_on, ExprIR right_on, dsl::AsofJoinOptions options, const Schema& left,
                               const Schema& right, ExprArena& arena, bool coerce = true);

// One output column of a join_asof, in output order.
struct AsofOutputColumn {
  bool from_right = false;
  std::string input;   // the input column (the right key's output name for `right_key`)
  std::string output;  // its name in the output (suffixed on a collision)
  bool right_key = false;  // the right key expression's values (not a right column): coalesce off
};

// Left columns, then the right ones except the `by` columns and (coalescing) a right key
// column named as the left key. DuplicateError when a suffixed name still collides.
std::vector<AsofOutputColumn> asof_join_columns(const Schema& left, const Schema& right, const AsofJoinNode& node,
                                                const ExprArena& arena);
SchemaRef asof_join_schema(const Schema& left, const Schema& right, const AsofJoinNode& node,
                           const ExprArena& arena);

// merge_sorted: both schemas equal and `key` one of their columns (SchemaError,
// ColumnNotFoundError); the output has that schema.
SchemaRef merge_sorted_schema(const SchemaRef& left, const Schema& right, const std::string& key);

}  // namespace frazil::plan
