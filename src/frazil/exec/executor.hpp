// The executor: runs an optimized IR plan as pipelines. A pipeline pulls batches from a
// source (the row groups of Parquet files, or a frame in memory, exec/source.hpp), cuts
// them into morsels and pushes every morsel through a chain of streaming operators on
// every core: filters, row-wise projections, join probes against a table built on the
// other input (exec/join.hpp), and at the end the partial states of a group_by or a select
// of aggregations (exec/aggregate_sinks.hpp). What cannot stream (sort, unique, windows,
// non-decomposable aggregations, the build side of a join) gathers its input and computes
// with parallel kernels. A Cache node is computed once and shared by all its consumers.
#pragma once

#include <array>
#include <atomic>
#include <functional>

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class QueryObserver;

// What one run executed, for tests of sharing (a Cache computes its input once however
// many consumers read it). Counting costs nothing when no ExecStats is given.
struct ExecStats {
  std::atomic<int64_t> cache_computations{0};  // Cache inputs computed
  std::atomic<int64_t> cache_reuses{0};        // Cache reads served by a computed result
  std::array<std::atomic<int64_t>, static_cast<size_t>(plan::IRKind::Invalid) + 1> runs_by_kind{};
  int64_t runs(plan::IRKind kind) const { return runs_by_kind[static_cast<size_t>(kind)].load(); }
};

struct ExecOptions {
  // Rows per morsel (FRAZIL_MORSEL_SIZE overrides; tests make it small to force many).
  int64_t morsel_size = 100'000;
  ExecStats* stats = nullptr;  // test hook, see ExecStats
  QueryObserver* observer = nullptr;  // progress, verbose log, profile (exec/query_observer.hpp)
  static ExecOptions from_env();
};

DataFrame execute_plan(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const ExecOptions& options = ExecOptions::from_env());

// The streaming sinks' hook: runs the plan and hands its output to `consume` batch by batch,
// in row order, a few batches in memory at a time (a root that is a pipeline: scans,
// filters, projections, join probes); any other root is computed whole and handed over once.
void execute_plan_into(plan::Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const std::function<void(const DataFrame&)>& consume,
                       const ExecOptions& options = ExecOptions::from_env());

}  // namespace frazil::exec
