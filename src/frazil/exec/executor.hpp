// The executor: runs an optimized IR plan. Chains of streaming operators (filter,
// row-wise select/with_columns, projections) run morsel by morsel on every core; pipeline
// breakers (group_by, join, sort, unique, ...) gather their input and compute with
// parallel kernels. A Cache node is computed once and shared by all its consumers.
#pragma once

#include <functional>

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

struct ExecOptions {
  // Rows per morsel (FRAZIL_MORSEL_SIZE overrides; tests make it small to force many).
  int64_t morsel_size = 100'000;
  static ExecOptions from_env();
};

DataFrame execute_plan(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const ExecOptions& options = ExecOptions::from_env());

// A file reader for scans: reads the scan node's files with its projection, predicate and
// row limit applied. Registered per format by the io glue (exec/scan_*.cpp).
using ScanReader = std::function<DataFrame(const plan::IR& scan, const plan::ExprArena& arena)>;
void register_scan_reader(dsl::ScanFormat format, ScanReader reader);

}  // namespace frazil::exec
