// LazyFrame: the user's lazy query in C++. Every method returns a new LazyFrame over an
// extended DslPlan; collect() converts it to IR (once: the arenas are cached), optimizes
// and executes it.
#pragma once

#include <chrono>
#include <map>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "frazil/api/verify.hpp"
#include "frazil/core/cancel.hpp"
#include "frazil/dsl/dsl_plan.hpp"
#include "frazil/plan/opt_flags.hpp"

namespace frazil {

namespace monitor {
class QueryMonitor;
}

using dsl::Expr;
using plan::OptFlags;

struct SortArgs {
  std::vector<bool> descending{false};
  std::vector<bool> nulls_last{false};
  bool maintain_order = false;
};

// How collect() runs: the optimizations, and the controls of a long or doubtful query.
struct CollectOptions {
  OptFlags flags;
  // Set it (CancelToken::cancel, from any thread or a signal handler) to stop the query:
  // collect() then throws CancelledError, having freed what the query held.
  std::shared_ptr<CancelToken> cancel;
  // The query throws CancelledError once it has run this long.
  std::optional<std::chrono::milliseconds> timeout;
  // Verify mode (api/verify.hpp): also run the query without optimizations (EachPass: and
  // with each optimization off in turn) and throw ComputeError printing both plans when a
  // result differs. nullopt: as FRAZIL_VERIFY says.
  std::optional<VerifyMode> verify;
};

struct JoinArgs {
  compute::JoinType how = compute::JoinType::Inner;
  std::string suffix = "_right";
  std::optional<bool> coalesce;  // default: true except for full joins
};

class LazyGroupBy;

class LazyFrame {
 public:
  explicit LazyFrame(dsl::DslPlanRef plan);
  static LazyFrame from_frame(DataFrame df);
  static LazyFrame from_scan(dsl::ScanSource source);

  LazyFrame select(std::vector<Expr> exprs) const;
  LazyFrame with_columns(std::vector<Expr> exprs) const;
  LazyFrame filter(const Expr& predicate) const;
  // The rows for which every predicate holds (combined with &, as Polars' filter(*predicates)).
  LazyFrame filter(const std::vector<Expr>& predicates) const;
  LazyFrame sort(std::vector<Expr> by, SortArgs args = {}) const;
  LazyFrame slice(int64_t offset, std::optional<int64_t> length = std::nullopt) const;
  LazyFrame head(int64_t n = 5) const { return slice(0, n); }
  LazyFrame tail(int64_t n = 5) const;
  LazyFrame limit(int64_t n = 5) const { return head(n); }
  LazyGroupBy group_by(std::vector<Expr> keys, bool maintain_order = false) const;
  LazyFrame join(const LazyFrame& other, std::vector<Expr> left_on, std::vector<Expr> right_on,
                 JoinArgs args = {}) const;
  LazyFrame join(const LazyFrame& other, std::vector<Expr> on, JoinArgs args = {}) const {
    return join(other, on, on, args);
  }
  LazyFrame cross_join(const LazyFrame& other, std::string suffix = "_right") const;
  // Each left row joined with the right row nearest by key (both sides sorted by their
  // key; options.strategy, `by` groups, tolerance, ... as Polars' join_asof).
  LazyFrame join_asof(const LazyFrame& other, Expr left_on, Expr right_on, dsl::AsofJoinOptions options = {}) const;
  // The pairs of rows of this frame and `other` for which every predicate holds (inner);
  // right columns are named with `suffix` where a name is on both sides.
  LazyFrame join_where(const LazyFrame& other, std::vector<Expr> predicates, std::string suffix = "_right") const;
  // This frame and `other`, both sorted ascending by `key`, with equal schemas, merged.
  LazyFrame merge_sorted(const LazyFrame& other, std::string key, bool maintain_order = false) const;
  LazyFrame unique(std::vector<std::string> subset = {}, std::string keep = "any", bool maintain_order = false) const;
  LazyFrame rename(const std::vector<std::pair<std::string, std::string>>& mapping) const;
  LazyFrame drop(std::vector<std::string> names) const;
  LazyFrame with_row_index(std::string name = "index", int64_t offset = 0) const;
  // Every element of the List columns `columns` on a row of its own, the other columns
  // repeated (Polars' explode; the lists of one row must have equal lengths).
  LazyFrame explode(std::vector<std::string> columns, compute::ExplodeOptions options = {}) const;

  // The output schema; converts the plan once and caches the arenas for collect().
  Schema collect_schema() const;
  DataFrame collect(const OptFlags& flags = OptFlags()) const;
  DataFrame collect(const CollectOptions& options) const;
  // Runs the query and hands its output to `consume` batch by batch, in row order, with a
  // few batches in memory at a time where the plan streams (what the sink_* functions use).
  void collect_into(const std::function<void(const DataFrame&)>& consume, const OptFlags& flags = OptFlags()) const;
  // Runs the query and times it: the result, and a frame of one row per plan node run
  // (node: String, start and end: UInt64 microseconds since the query started; a node's
  // span contains its inputs'), the first row being the optimization, as Polars' profile().
  std::pair<DataFrame, DataFrame> profile(const OptFlags& flags = OptFlags()) const;
  // streaming_engine: the names Polars prints for explain(engine="streaming") (plan/format.hpp).
  std::string explain(bool optimized = true, const OptFlags& flags = OptFlags(), bool streaming_engine = false) const;
  // The physical plan collect() would run (explain(format="physical")): the pipelines, each
  // source -> operators -> sink, with the strategy every join, group-by and sort chose and
  // the adaptive rules they apply at run time. Reads no data (Parquet footers only).
  std::string explain_physical(const OptFlags& flags = OptFlags()) const;
  std::string to_dot(bool optimized = true, const OptFlags& flags = OptFlags()) const;

  const dsl::DslPlanRef& plan() const { return plan_; }
  // How many times this frame's plan has been converted to IR (for tests of the cache).
  int conversions() const;

 private:
  struct Prepared;
  Prepared prepare(const OptFlags& flags, bool optimized) const;
  void verify(const CollectOptions& options, const DataFrame& result) const;
  // Optimizes and runs under `monitor` (progress, verbose log, profile).
  DataFrame run(monitor::QueryMonitor& monitor, const OptFlags& flags) const;
  LazyFrame extend(dsl::DslPayload step) const;  // `step` over this frame's plan

  struct ArenaCache;
  dsl::DslPlanRef plan_;
  std::shared_ptr<ArenaCache> cache_;
};

class LazyGroupBy {
 public:
  LazyGroupBy(LazyFrame input, std::vector<Expr> keys, bool maintain_order)
      : input_(std::move(input)), keys_(std::move(keys)), maintain_order_(maintain_order) {}
  LazyFrame agg(std::vector<Expr> aggs) const;
  LazyFrame len(const std::string& name = "len") const;

 private:
  LazyFrame input_;
  std::vector<Expr> keys_;
  bool maintain_order_;
};

// Vertical concatenation of frames with the same schema; `rechunk`: the result's columns
// are one contiguous chunk each (where the consumer needs it: optimizer/delay_rechunk).
LazyFrame concat(const std::vector<LazyFrame>& frames, bool rechunk = false);
// Eager vertical concatenation, checked first as Polars' eager vstack checks: the same width
// (ShapeError), the same names in order (ShapeError) and dtypes (SchemaError). Leading frames
// of no columns are skipped (a frame of width 0 takes what is stacked onto it). Chunks are
// kept, not copied.
DataFrame vstack(const std::vector<DataFrame>& frames);

}  // namespace frazil
