// The executor: runs an optimized IR plan. Chains of streaming operators (filter,
// row-wise select/with_columns, projections) run morsel by morsel on every core; pipeline
// breakers (group_by, join, sort, unique, ...) gather their input and compute with
// parallel kernels. A Cache node is computed once and shared by all its consumers.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

struct ExecOptions {
  // Rows per morsel (FRAZIL_MORSEL_SIZE overrides; tests make it small to force many).
  int64_t morsel_size = 100'000;
  static ExecOptions from_env();
};

DataFrame execute_plan(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const ExecOptions& options = ExecOptions::from_env());

}  // namespace frazil::exec
