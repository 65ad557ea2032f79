// The join ladder, written once: how a Join node runs, from the plan's row estimates
// (plan/cost) and whether the join's output order is observed (plan/row_order). `as_stream`:
// the join's rows are wanted as a stream (operators, a group-by or a select of aggregations
// above it in a pipeline), not as a gathered result.
//
//   KeyFilteredProbe / KeyFilteredWhole  the right side groups by the right join keys and the
//        left side is expected to be no bigger than the rows grouped: the left side runs
//        first and its keys filter the group-by's input (KeyFilter, a plan edge from the
//        left side's pipeline to the group-by's input pipeline); then the left side's frame
//        is probed against the right (as a stream) or both are joined whole;
//   ProbeLeft           the right side is expected to be the smaller: a JoinBuildSink builds
//        on it and the left side streams through a JoinProbe, in left order;
//   UnorderedLeftBuild  nobody observes the output order (inner and left joins), the left
//        side is expected to be the smaller: built on the left, the right side's pipeline
//        goes on through the join (adaptive: the other side when the right is the smaller at
//        run time);
//   Materialize         (as a stream) none of these: the join is gathered and its output is
//        the source of the pipeline above;
//   LeftBuild           (gathered) built on the left, the right side streams through and
//        the matches are placed in left order (adaptive: the whole join when the right is
//        the smaller at run time);
//   Whole               both sides gathered and joined by execute_join (full and cross joins,
//        keys that are not row-local).
#pragma once

#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

enum class JoinStrategy : uint8_t {
  KeyFilteredProbe,
  KeyFilteredWhole,
  ProbeLeft,
  UnorderedLeftBuild,
  Materialize,
  LeftBuild,
  Whole,
};

struct JoinChoice {
  JoinStrategy strategy = JoinStrategy::Whole;
  double grouped_rows = 0;  // key-filtered strategies: the rows the right group-by is estimated to see
};

// `unordered`: plan::unordered_outputs of the plan being lowered. `row_estimates` false
// (Polars' row_estimate flag off): the strategies chosen by estimated sizes (key filters,
// ProbeLeft) are not considered.
JoinChoice choose_join_strategy(plan::Node join, bool as_stream, const plan::IRArena& lp, const plan::ExprArena& ea,
                                const std::vector<bool>& unordered, bool row_estimates = true);

}  // namespace frazil::exec
