// How a plan is run: morsel size, the thread count the plan is made for, and the hooks that
// watch a run (ExecStats for tests, a QueryObserver for progress and profiles).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

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
  // Threads the physical plan is made for (a two-phase group-by needs more than one);
  // 0: the thread pool's size. Running always uses the pool.
  int64_t threads = 0;
  ExecStats* stats = nullptr;  // test hook, see ExecStats
  QueryObserver* observer = nullptr;  // progress, verbose log, profile (exec/query_observer.hpp)
  // Polars' check_order_observe: lowering may give rows in any order where nobody observes
  // it (plan/row_order.hpp); off, every operator keeps its input order.
  bool check_order_observe = true;
  // Polars' row_estimate: join build sides and key filters come from the plan's row
  // estimates (exec/lower/join_strategy); off, no estimate is asked for.
  bool row_estimate = true;
  static ExecOptions from_env();
};

}  // namespace frazil::exec
