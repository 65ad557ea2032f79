#include "frazil/optimizer/optimizer.hpp"

#include <chrono>
#include <functional>

#include "frazil/core/error.hpp"
#include "frazil/optimizer/cse/cache_states.hpp"
#include "frazil/optimizer/cse/comm_subexpr_elim.hpp"
#include "frazil/optimizer/cse/comm_subplan_elim.hpp"
#include "frazil/optimizer/cluster_with_columns.hpp"
#include "frazil/optimizer/collapse_sort.hpp"
#include "frazil/optimizer/cross_join_to_inner.hpp"
#include "frazil/optimizer/delay_rechunk.hpp"
#include "frazil/optimizer/derive_join_predicates.hpp"
#include "frazil/optimizer/filter_constraint.hpp"
#include "frazil/optimizer/flatten_merge_sorted.hpp"
#include "frazil/optimizer/flatten_union.hpp"
#include "frazil/optimizer/merge_sorted_to_union.hpp"
#include "frazil/optimizer/fused_arithmetic.hpp"
#include "frazil/optimizer/join_order.hpp"
#include "frazil/optimizer/pre_partition_hive.hpp"
#include "frazil/optimizer/pushdown/predicate_pushdown.hpp"
#include "frazil/optimizer/pushdown/projection_pushdown.hpp"
#include "frazil/optimizer/pushdown/slice_pushdown.hpp"
#include "frazil/optimizer/simple_projection.hpp"
#include "frazil/optimizer/simplify_predicates.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"

namespace frazil::optimizer {

using plan::Node;

namespace {

struct Pass {
  const char* name;
  bool enabled;
  std::function<Node(Node)> run;
};

}  // namespace

Node optimize(Node root, plan::IRArena& lp, plan::ExprArena& ea, const plan::OptFlags& flags,
              std::vector<PassTiming>* timings) {
  std::vector<Pass> passes = {
      // Passes are added here in the order Polars runs them.
      // Early, on the plan as written: duplicate subplans become Cache nodes, which the
      // pushdown passes treat as barriers.
      {"comm_subplan_elim", flags.comm_subplan_elim, [&](Node r) { return cse::comm_subplan_elim(r, lp, ea); }},
      // Always valid and always cheap, as in Polars (no switch).
      {"flatten_union", true, [&](Node r) { return flatten_union(r, lp, ea); }},
      // Polars' FlattenMergeSortedRule, beside FlattenUnionRule (no switch either).
      {"flatten_merge_sorted", true, [&](Node r) { return flatten_merge_sorted(r, lp, ea); }},
      {"slice_pushdown", flags.slice_pushdown, [&](Node r) { return slice_pushdown(r, lp, ea); }},
      // Polars does it inside predicate pushdown: the partitions' is_in filters are pushed next.
      {"pre_partition_hive", flags.predicate_pushdown,
       [&](Node r) { return pre_partition_hive(r, lp, ea, flags.pre_partition_hive); }},
      // Not in Polars: one-sided consequences of OR predicates over joins, for pushdown.
      {"derive_join_predicates", flags.predicate_pushdown, [&](Node r) { return derive_join_predicates(r, lp, ea); }},
      {"predicate_pushdown", flags.predicate_pushdown, [&](Node r) { return predicate_pushdown(r, lp, ea); }},
      // Polars removed its collapse_joins flag (1.33.1): this rewrite is predicate pushdown's.
      {"cross_join_to_inner", flags.predicate_pushdown, [&](Node r) { return cross_join_to_inner(r, lp, ea); }},
      // On the pushed-down filters' estimates, before projection pushdown prunes the new tree.
      {"join_order", flags.join_order, [&](Node r) { return join_order(r, lp, ea); }},
      // Before projection pushdown, which may put projections between two sorts.
      {"collapse_sort", flags.sort_collapse, [&](Node r) { return collapse_sort(r, lp, ea); }},
      {"projection_pushdown", flags.projection_pushdown, [&](Node r) { return projection_pushdown(r, lp, ea); }},
      // Polars' FilterConstraintRule, before the boolean simplification that can use its `false`.
      {"filter_constraint", flags.simplify_expression, [&](Node r) { return filter_constraint(r, lp, ea); }},
      {"simplify_predicates", flags.simplify_expression, [&](Node r) { return simplify_predicates(r, lp, ea); }},
      // Again: filters that moved away may have brought slices next to scans and sorts.
      {"slice_pushdown", flags.slice_pushdown, [&](Node r) { return slice_pushdown(r, lp, ea); }},
      // After pushdown: reconcile each cache's consumers, keep the caches worth it.
      {"cache_states", flags.comm_subplan_elim,
       [&](Node r) {
         cse::CacheStateOptions options;
         options.use_cost_model = flags.row_estimate;  // Polars' row_estimate: "keep useful caches"
         options.reoptimize = [&](Node n) {
           if (flags.predicate_pushdown) n = predicate_pushdown(n, lp, ea);
           if (flags.projection_pushdown) n = projection_pushdown(n, lp, ea);
           return n;
         };
         return cse::set_cache_states(r, lp, ea, options);
       }},
      // Polars' FusedArithmetic, in its rule loop after the pushdowns (simplify_expression).
      {"fused_arithmetic", flags.simplify_expression, [&](Node r) { return fused_arithmetic(r, lp, ea); }},
      // Polars' SimpleProjectionAndCollapse (its fast_projection flag); after the caches are
      // settled (their consumers' projections are read by cache_states).
      {"simple_projection", flags.fast_projection, [&](Node r) { return simple_projection(r, lp, ea); }},
      // Polars' DelayRechunk, beside it in the rule loop; like Polars, without a switch.
      {"delay_rechunk", true, [&](Node r) { return delay_rechunk(r, lp, ea); }},
      // Polars' order: after the rule loop, before common subexpressions are found.
      {"cluster_with_columns", flags.cluster_with_columns,
       [&](Node r) { return cluster_with_columns(r, lp, ea); }},
      {"comm_subexpr_elim", flags.comm_subexpr_elim, [&](Node r) { return cse::comm_subexpr_elim(r, lp, ea); }},
      // Polars' order observation: a merge nobody reads the order of is a union.
      {"merge_sorted_to_union", flags.check_order_observe, [&](Node r) { return merge_sorted_to_union(r, lp, ea); }},
  };
  const Schema before = *lp.get(root).schema;
  const bool trace = plan::RewriteTrace::enabled();
  for (auto& pass : passes) {
    if (!pass.enabled) continue;
    // A pass that records no rewrite of its own (per node) is traced as a whole: the
    // plan before and after it, when it changed something.
    const size_t events_before = trace ? plan::RewriteTrace::recorded() : 0;
    const std::string plan_before = trace ? plan::explain_plan(root, lp, ea) : std::string();
    auto start = std::chrono::steady_clock::now();
    root = pass.run(root);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timings) timings->push_back({pass.name, secs});
    if (trace && plan::RewriteTrace::recorded() == events_before) {
      std::string plan_after = plan::explain_plan(root, lp, ea);
      if (plan_after != plan_before) plan::RewriteTrace::record({pass.name, plan_before, std::move(plan_after)});
    }
    // The trace names each pass with its time, to find the one a slow plan spends it in.
    if (trace) plan::RewriteTrace::record(plan::timing_event(pass.name, secs));
    const Schema& after = *lp.get(root).schema;
    if (!(after == before))
      throw InternalError(err_msg("optimizer pass '", pass.name, "' changed the output schema from ",
                                  before.to_string(), " to ", after.to_string()));
  }
  return root;
}

}  // namespace frazil::optimizer
