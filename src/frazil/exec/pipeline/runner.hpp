// Runs a physical plan: each pipeline after the ones it reads, its source's batches in
// parallel (and the morsels of a big batch too) through its operators into its sink; then
// the operators' tails, and finalize. Nothing is chosen here that lowering did not choose:
// operators and sinks apply their own adaptive rules when their pipeline starts, and an
// operator whose rule makes it a pipeline breaker (Reroute) has the pipeline run up to it
// into a frame and go on from the source it gives.
#pragma once

#include "frazil/exec/exec_options.hpp"
#include "frazil/exec/pipeline/physical_plan.hpp"

namespace frazil::exec {

// The root pipeline's output. Each pipeline's source and operators are dropped once it has
// run, and a sink's output once every pipeline reading it has.
DataFrame run_physical_plan(PhysicalPlan& plan, const ExecOptions& options);

}  // namespace frazil::exec
