#include "frazil/exec/executor.hpp"

#include "frazil/core/env.hpp"
#include "frazil/core/length_limit.hpp"
#include "frazil/exec/lower/lower.hpp"
#include "frazil/exec/pipeline/runner.hpp"

namespace frazil::exec {

ExecOptions ExecOptions::from_env() {
  ExecOptions o;
  if (auto n = env_int("FRAZIL_MORSEL_SIZE", 1, kMaxLength)) o.morsel_size = *n;
  return o;
}

DataFrame execute_plan(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const ExecOptions& options) {
  PhysicalPlan physical = lower_plan(root, lp_arena, expr_arena, options);
  return run_physical_plan(physical, options);
}

void execute_plan_into(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const std::function<void(const DataFrame&)>& consume, const ExecOptions& options) {
  PhysicalPlan physical = lower_plan_into(root, lp_arena, expr_arena, consume, options);
  run_physical_plan(physical, options);
}

std::string explain_physical(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                             const ExecOptions& options) {
  return lower_plan(root, lp_arena, expr_arena, options).explain();
}

}  // namespace frazil::exec
