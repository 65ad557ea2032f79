// The parallel aggregation sinks.
//  - group_by, decomposable aggregations: a partial aggregation per morsel inside the
//    input's pipeline, then one combine (see PartialAggregation).
//  - group_by, any aggregation, materialised input: rows are hash-partitioned by their
//    keys, then every partition is grouped on its own thread (above two threads), or the
//    whole input is grouped at once.
//  - select of aggregations only: partial states per morsel, combined once, then the
//    expressions above the aggregations are evaluated on the results.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "frazil/compute/selection.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

// Groups of some rows: one output row per group, and per group the row (of the grouped
// frame) where it first appears.
struct GroupedRows {
  DataFrame frame;
  std::vector<compute::IdxSize> first_rows;
};

// A group_by whose aggregations all split into partial states (sum, min, max, count, len,
// mean of row-wise inputs), in two halves for a pipeline: `partial` is one more streaming
// operator that turns each morsel into the partial states of its groups, and `combine`
// folds the partials of all morsels (in order) into the result. The input never needs to
// be gathered. nullopt for other shapes.
struct PartialAggregation {
  OperatorRef partial;
  std::function<DataFrame(const DataFrame& partials)> combine;
  // The same with the partial row where each group first appears (group-by only; for
  // combining spilled partitions in first-appearance order).
  std::function<GroupedRows(const DataFrame& partials)> combine_grouped;
};
std::optional<PartialAggregation> plan_partial_group_by(const plan::IR& ir, const plan::ExprArena& arena,
                                                        const Schema& input_schema);

DataFrame execute_group_by(const plan::IR& ir, DataFrame input, const plan::ExprArena& arena,
                           int64_t morsel_size);

// The same for a select of aggregations only (no keys): each morsel becomes a one-row
// frame of partial states. nullopt when the select has other shapes than decomposable
// aggregations under row-wise expressions.
std::optional<PartialAggregation> plan_partial_select(const plan::IR& ir, const plan::ExprArena& arena,
                                                      const Schema& input_schema);

// When a pipeline ends in a filter, column selections and a partial select (the `partial`
// above), replaces the three with one operator whose null-skipping aggregations (sum, min,
// max, count, mean of columns, len) read the filter's mask as nulls: no filtered copy.
void fuse_filter_into_partial_select(std::vector<OperatorRef>& ops);

}  // namespace frazil::exec
