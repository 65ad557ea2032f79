#include "frazil/exec/executor.hpp"

#include <cstdlib>

#include "frazil/exec/lower/lower.hpp"
#include "frazil/exec/pipeline/runner.hpp"

namespace frazil::exec {

ExecOptions ExecOptions::from_env() {
  ExecOptions o;
  if (const char* v = std::getenv("FRAZIL_MORSEL_SIZE")) {
    long n = std::strtol(v, nullptr, 10);
    if (n > 0) o.morsel_size = n;
  }
  return o;
}

DataFrame execute_plan(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const ExecOptions& options) {
  PhysicalPlan physical = lower_plan(root, lp_arena, expr_arena, options);
  return run_physical_plan(physical, options);
}

std::string explain_physical(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                             const ExecOptions& options) {
  return lower_plan(root, lp_arena, expr_arena, options).explain();
}

}  // namespace frazil::exec
