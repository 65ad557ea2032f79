// The partial/final split of an aggregation, for plans that run in partitions: a group_by
// (or a select of aggregations only) becomes a partial aggregation run on every partition,
// whose outputs are concatenated (in partition order) and fed to a final aggregation that
// folds the partial states into the original result (same names, dtypes and order of
// columns). Every decomposable aggregation has its states:
//   sum, count, len, null_count   the partial count/sum, summed
//   min, max                      min of mins, max of maxes
//   mean                          sum (Float64) and count, divided (null when no values)
//   first, last                   the value and the partition's row count (empty partitions
//                                 of a select are skipped); needs partitions in row order
//   std, var                      count, mean and M2 per partition, merged as Chan et al.
//   n_unique                      the distinct values as a list, exploded and counted
//   any, all                      any of anys / all of alls (Kleene when nulls count)
// Anything else (median, quantile, windows, bare columns, a key that reads other rows)
// is refused: the caller gathers the input to one task instead.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::distributed {

struct AggregationSplit {
  // The partial aggregation over the original node's input: a GroupBy (keys, then the
  // states "__frazil_p<a>_<j>") or a Select of the states (one row per partition).
  plan::Node partial;
  // What the final needs, applied by add_final over any node producing partial_schema.
  SchemaRef partial_schema;
  bool grouped = false;
  bool maintain_order = false;
  std::vector<dsl::Expr> final_keys;    // col(key) per key
  std::vector<dsl::Expr> final_merges;  // the folded states, "__frazil_f<a>"
  std::vector<dsl::Expr> final_outputs; // the original outputs over the folded states
  SchemaRef output_schema;              // the original node's
};

// nullopt when `node` is not a GroupBy or a Select of aggregations, or when one of its
// aggregations does not decompose. The partial node is added to `lp` over the original input.
std::optional<AggregationSplit> split_aggregation(plan::Node node, plan::IRArena& lp, plan::ExprArena& ea);

// The final aggregation over `partials` (a node with the split's partial schema): a GroupBy
// (or Select) of the merges, then a Select of the original outputs. Returns the top node.
plan::Node add_final(const AggregationSplit& split, plan::Node partials, plan::IRArena& lp, plan::ExprArena& ea);

// Why split_aggregation refuses `node` (empty when it does not): for explain and the tests.
std::string split_refusal(plan::Node node, const plan::IRArena& lp, const plan::ExprArena& ea);

}  // namespace frazil::distributed
