// OptFlags: which optimizations run, with Polars' QueryOptFlags names.
#pragma once

namespace frazil::plan {

struct OptFlags {
  bool predicate_pushdown = true;
  bool projection_pushdown = true;
  bool simplify_expression = true;
  bool slice_pushdown = true;
  bool comm_subplan_elim = true;
  bool comm_subexpr_elim = true;
  bool cluster_with_columns = true;
  bool type_coercion = true;  // always on: a plan without it cannot run
  bool check_order_observe = true;
  bool collapse_joins = true;
  bool fast_projection = true;  // SimpleProjectionAndCollapse (optimizer/simple_projection)
  bool sort_collapse = true;    // CollapseSort (optimizer/collapse_sort)
  // Row estimates (plan/cost) choose join build sides and key filters (exec/lower) and
  // whether a common subplan is worth its cache (optimizer/cse/cache_states); off, joins
  // take the order-keeping strategy and every cache stays.
  bool row_estimate = true;

  // Everything off except what execution needs (type coercion).
  static OptFlags none() {
    OptFlags f;
    f.predicate_pushdown = f.projection_pushdown = f.simplify_expression = f.slice_pushdown = false;
    f.comm_subplan_elim = f.comm_subexpr_elim = f.cluster_with_columns = false;
    f.check_order_observe = f.collapse_joins = f.fast_projection = f.sort_collapse = false;
    f.row_estimate = false;
    return f;
  }
};

}  // namespace frazil::plan
