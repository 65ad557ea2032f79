// OptFlags: which optimizations run, with Polars' QueryOptFlags names.
#pragma once

namespace frazil::plan {

struct OptFlags {
  // Also turns cross joins filtered on equal keys into inner joins (optimizer/cross_join_to_inner),
  // which Polars folded into this flag when it removed `collapse_joins` (1.33.1).
  bool predicate_pushdown = true;
  bool projection_pushdown = true;
  bool simplify_expression = true;
  bool slice_pushdown = true;
  bool comm_subplan_elim = true;
  bool comm_subexpr_elim = true;
  bool cluster_with_columns = true;
  // Off: no casts are inserted while the plan is converted; an expression whose operands
  // need one is an error naming it (plan/conversion/conversion_optimizer).
  bool type_coercion = true;
  bool check_order_observe = true;
  bool fast_projection = true;  // SimpleProjectionAndCollapse (optimizer/simple_projection)
  bool sort_collapse = true;    // CollapseSort (optimizer/collapse_sort)
  // A group-by or join on a hive key of hive-partitioned scans becomes a union of one
  // group-by or join per partition value (optimizer/pre_partition_hive). Needs predicate_pushdown.
  bool pre_partition_hive = true;
  // Runs of inner equi-joins whose row order nobody observes are reordered by estimated
  // cardinality (optimizer/join_order).
  bool join_order = true;
  // Row estimates (plan/cost) choose join build sides and key filters (exec/lower) and
  // whether a common subplan is worth its cache (optimizer/cse/cache_states); off, joins
  // take the order-keeping strategy and every cache stays.
  bool row_estimate = true;

  // Everything off except type coercion (as Polars' QueryOptFlags.none()).
  static OptFlags none() {
    OptFlags f;
    f.predicate_pushdown = f.projection_pushdown = f.simplify_expression = f.slice_pushdown = false;
    f.comm_subplan_elim = f.comm_subexpr_elim = f.cluster_with_columns = false;
    f.check_order_observe = f.fast_projection = f.sort_collapse = false;
    f.pre_partition_hive = f.join_order = f.row_estimate = false;
    return f;
  }
};

}  // namespace frazil::plan
