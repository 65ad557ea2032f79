// The parallel aggregation sinks.
//  - group_by: rows are hash-partitioned by their keys (in parallel, morsel by morsel),
//    then every partition is grouped and aggregated on its own thread: a group lives in
//    exactly one partition, so every aggregation, decomposable or not, stays exact.
//  - select of aggregations only: each morsel is reduced to partial states in parallel,
//    the partials are combined, and the expressions above the aggregations are evaluated
//    once on the results.
#pragma once

#include <functional>
#include <optional>

#include "frazil/exec/operators.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

// A group_by whose aggregations all split into partial states (sum, min, max, count, len,
// mean of row-wise inputs), in two halves for a pipeline: `partial` is one more streaming
// operator that turns each morsel into the partial states of its groups, and `combine`
// folds the partials of all morsels (in order) into the result. The input never needs to
// be gathered. nullopt for other shapes.
struct PartialAggregation {
  OperatorRef partial;
  std::function<DataFrame(const DataFrame& partials)> combine;
};
std::optional<PartialAggregation> plan_partial_group_by(const plan::IR& ir, const plan::ExprArena& arena,
                                                        const Schema& input_schema);

DataFrame execute_group_by(const plan::IR& ir, const DataFrame& input, const plan::ExprArena& arena,
                           int64_t morsel_size);

// nullopt when the select has other shapes than decomposable aggregations (sum, min, max,
// count, len, mean of row-wise inputs) under row-wise expressions.
std::optional<DataFrame> try_scalar_aggregate(const plan::IR& ir, const DataFrame& input,
                                              const plan::ExprArena& arena, int64_t morsel_size);

}  // namespace frazil::exec
