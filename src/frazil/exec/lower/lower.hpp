// Lowering: an optimized IR plan becomes a physical plan (exec/pipeline/physical_plan.hpp).
// Every strategy is chosen here and recorded in the plan: which pipelines exist, what
// streams and what is gathered, each join's strategy (exec/lower/join_strategy.hpp) with the
// sideways key filter as a plan edge, two-phase or whole group-bys, partial selects of
// aggregations (with a filter fused in), top-k sorts, and one pipeline per cache id shared
// by its consumers. Where the choice depends on sizes only known at run time, the operator
// or sink chosen applies a documented adaptive rule when its pipeline starts, shown in the
// explain text.
//
// Lowering reads no data; it opens Parquet footers (row group sources, row estimates).
#pragma once

#include <functional>

#include "frazil/exec/exec_options.hpp"
#include "frazil/exec/pipeline/physical_plan.hpp"

namespace frazil::exec {

PhysicalPlan lower_plan(plan::Node root, const plan::IRArena& lp, const plan::ExprArena& ea,
                        const ExecOptions& options);

// For execute_plan_into: the root's rows go to `consume` in order, a few batches at a time
// when the root streams (scans, filters, projections, streaming join probes); any other root
// is gathered by its own pipeline and handed over whole, once.
PhysicalPlan lower_plan_into(plan::Node root, const plan::IRArena& lp, const plan::ExprArena& ea,
                             std::function<void(const DataFrame&)> consume, const ExecOptions& options);

}  // namespace frazil::exec
