// The executor: lowers an optimized IR plan into a physical plan (exec/lower: pipelines of
// source -> operators -> sink, every strategy chosen there) and runs it (exec/pipeline/
// runner.hpp). A pipeline pulls batches from its source (the row groups of Parquet files, a
// frame in memory, the output of another pipeline; exec/sources/), cuts them into morsels
// and pushes every morsel through its operators on every core (filters, projections, join
// probes; exec/operators/) into its sink (collect, group-by, join build, sort...;
// exec/sinks/). A Cache node is one pipeline, shared by all its consumers.
#pragma once

#include <functional>
#include <string>

#include "frazil/exec/exec_options.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

DataFrame execute_plan(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const ExecOptions& options = ExecOptions::from_env());

// The streaming sinks' hook: runs the plan and hands its output to `consume` batch by batch,
// in row order, a few batches in memory at a time (a root that is a pipeline: scans,
// filters, projections, join probes); any other root is computed whole and handed over once.
void execute_plan_into(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const std::function<void(const DataFrame&)>& consume,
                       const ExecOptions& options = ExecOptions::from_env());

// The physical plan execute_plan would run, as text (explain(format="physical")).
std::string explain_physical(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                             const ExecOptions& options = ExecOptions::from_env());

}  // namespace frazil::exec
