// The optimizer driver: runs each enabled pass over the arenas, by name, timed, and
// re-checks after each that the plan's output schema did not change.
#pragma once

#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"
#include "frazil/plan/opt_flags.hpp"

namespace frazil::optimizer {

struct PassTiming {
  std::string name;
  double seconds;
};

// Optimizes the plan rooted at `root`; returns the new root. `timings`, when given,
// receives one entry per pass that ran.
plan::Node optimize(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena,
                    const plan::OptFlags& flags, std::vector<PassTiming>* timings = nullptr);

}  // namespace frazil::optimizer
