#include "frazil/api/lazy_frame.hpp"

#include <algorithm>

#include "frazil/api/result_order.hpp"
#include "frazil/api/monitor/query_monitor.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/exec/executor.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/format.hpp"

namespace frazil {

using dsl::DslPlan;

// The converted (unoptimized) arenas of this frame's plan, kept for later calls. A copy
// is taken before optimizing, so the cached plan stays as converted.
struct LazyFrame::ArenaCache {
  std::mutex mu;
  bool valid = false;
  bool simplified = false;  // converted with simplify_expression
  bool coerced = true;      // converted with type_coercion
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root;
  uint32_t lp_version = 0;
  uint32_t ea_version = 0;
  int conversions = 0;
};

struct LazyFrame::Prepared {
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root;
};

LazyFrame::LazyFrame(dsl::DslPlanRef plan) : plan_(std::move(plan)), cache_(std::make_shared<ArenaCache>()) {}

namespace {
template <typename Step>
dsl::DslPlanRef make_plan(Step step, std::vector<dsl::DslPlanRef> inputs = {}) {
  return std::make_shared<DslPlan>(DslPlan{std::move(step), std::move(inputs)});
}
}  // namespace

LazyFrame LazyFrame::from_frame(DataFrame df) {
  return LazyFrame(make_plan(dsl::DslDataFrameScan{std::make_shared<const DataFrame>(std::move(df))}));
}

LazyFrame LazyFrame::from_scan(dsl::ScanSource source) { return LazyFrame(make_plan(dsl::DslScan{std::move(source)})); }

LazyFrame LazyFrame::extend(dsl::DslPayload step) const { return LazyFrame(make_plan(std::move(step), {plan_})); }

LazyFrame LazyFrame::select(std::vector<Expr> exprs) const { return extend(dsl::DslSelect{std::move(exprs)}); }

LazyFrame LazyFrame::with_columns(std::vector<Expr> exprs) const {
  return extend(dsl::DslWithColumns{std::move(exprs)});
}

LazyFrame LazyFrame::filter(const Expr& predicate) const { return extend(dsl::DslFilter{predicate}); }

LazyFrame LazyFrame::filter(const std::vector<Expr>& predicates) const {
  if (predicates.empty()) throw InvalidOperationError("filter() needs at least one predicate");
  Expr combined = predicates[0];
  for (size_t i = 1; i < predicates.size(); ++i) combined = combined & predicates[i];
  return filter(combined);
}

LazyFrame LazyFrame::sort(std::vector<Expr> by, SortArgs args) const {
  if (by.empty()) throw InvalidOperationError("sort() needs at least one column or expression");
  dsl::DslSort step;
  step.by = std::move(by);
  step.options.descending = args.descending;
  step.options.nulls_last = args.nulls_last;
  step.options.maintain_order = args.maintain_order;
  return extend(std::move(step));
}

LazyFrame LazyFrame::slice(int64_t offset, std::optional<int64_t> length) const {
  if (length && *length < 0) throw InvalidOperationError(err_msg("negative slice length ", *length, " is not allowed"));
  return extend(dsl::DslSlice{offset, length});
}

LazyFrame LazyFrame::tail(int64_t n) const { return slice(-n, n); }

LazyGroupBy LazyFrame::group_by(std::vector<Expr> keys, bool maintain_order) const {
  if (keys.empty()) throw InvalidOperationError("group_by() needs at least one key");
  return LazyGroupBy(*this, std::move(keys), maintain_order);
}

LazyFrame LazyGroupBy::agg(std::vector<Expr> aggs) const {
  return LazyFrame(make_plan(dsl::DslGroupBy{keys_, std::move(aggs), maintain_order_}, {input_.plan()}));
}

LazyFrame LazyGroupBy::len(const std::string& name) const { return agg({dsl::len().alias(name)}); }

LazyFrame LazyFrame::join(const LazyFrame& other, std::vector<Expr> left_on, std::vector<Expr> right_on,
                          JoinArgs args) const {
  dsl::DslJoin step;
  if (args.how != compute::JoinType::Cross) {
    step.left_on = std::move(left_on);
    step.right_on = std::move(right_on);
  }
  step.options.how = args.how;
  step.options.suffix = args.suffix;
  step.options.coalesce = args.coalesce.value_or(args.how != compute::JoinType::Full);
  return LazyFrame(make_plan(std::move(step), {plan_, other.plan_}));
}

LazyFrame LazyFrame::cross_join(const LazyFrame& other, std::string suffix) const {
  JoinArgs a;
  a.how = compute::JoinType::Cross;
  a.suffix = std::move(suffix);
  return join(other, {}, {}, a);
}

LazyFrame LazyFrame::join_asof(const LazyFrame& other, Expr left_on, Expr right_on,
                               dsl::AsofJoinOptions options) const {
  return LazyFrame(
      make_plan(dsl::DslAsofJoin{std::move(left_on), std::move(right_on), std::move(options)}, {plan_, other.plan_}));
}

LazyFrame LazyFrame::join_where(const LazyFrame& other, std::vector<Expr> predicates, std::string suffix) const {
  return LazyFrame(make_plan(dsl::DslJoinWhere{std::move(predicates), std::move(suffix)}, {plan_, other.plan_}));
}

LazyFrame LazyFrame::merge_sorted(const LazyFrame& other, std::string key, bool maintain_order) const {
  return LazyFrame(make_plan(dsl::DslMergeSorted{std::move(key), maintain_order}, {plan_, other.plan_}));
}

LazyFrame LazyFrame::unique(std::vector<std::string> subset, std::string keep, bool maintain_order) const {
  if (keep != "first" && keep != "last" && keep != "any" && keep != "none")
    throw InvalidOperationError(err_msg("`keep` must be one of {'first', 'last', 'any', 'none'}, got '", keep, "'"));
  return extend(dsl::DslDistinct{std::move(subset), std::move(keep), maintain_order});
}

LazyFrame LazyFrame::rename(const std::vector<std::pair<std::string, std::string>>& mapping) const {
  dsl::DslRename step;
  for (const auto& [from, to] : mapping) {
    step.existing.push_back(from);
    step.new_names.push_back(to);
  }
  return extend(std::move(step));
}

LazyFrame LazyFrame::drop(std::vector<std::string> names) const { return extend(dsl::DslDrop{std::move(names)}); }

LazyFrame LazyFrame::with_row_index(std::string name, int64_t offset) const {
  return extend(dsl::DslWithRowIndex{std::move(name), offset});
}

LazyFrame LazyFrame::explode(std::vector<std::string> columns, compute::ExplodeOptions options) const {
  return extend(dsl::DslExplode{std::move(columns), options});
}

LazyFrame::Prepared LazyFrame::prepare(const OptFlags& flags, bool optimized) const {
  Prepared out;
  {
    std::lock_guard<std::mutex> lock(cache_->mu);
    bool fresh = cache_->valid && cache_->simplified == flags.simplify_expression &&
                 cache_->coerced == flags.type_coercion &&
                 cache_->lp.version() == cache_->lp_version && cache_->ea.version() == cache_->ea_version;
    if (!fresh) {
      cache_->lp.clear();
      cache_->ea.clear();
      cache_->root = plan::to_alp(plan_, cache_->lp, cache_->ea, flags);
      cache_->lp_version = cache_->lp.version();
      cache_->ea_version = cache_->ea.version();
      cache_->simplified = flags.simplify_expression;
      cache_->coerced = flags.type_coercion;
      cache_->valid = true;
      ++cache_->conversions;
    }
    // Copying the arenas copies node vectors; no subtree is rebuilt.
    out.lp = cache_->lp;
    out.ea = cache_->ea;
    out.root = cache_->root;
  }
  if (optimized) out.root = optimizer::optimize(out.root, out.lp, out.ea, flags);
  return out;
}

int LazyFrame::conversions() const {
  std::lock_guard<std::mutex> lock(cache_->mu);
  return cache_->conversions;
}

// Every entry point that converts, optimizes or runs a plan does it on a large stack
// (core/stack.hpp): deep plans recurse where recursion is bounded by check_stack().

Schema LazyFrame::collect_schema() const {
  return run_on_large_stack([&] {
    std::lock_guard<std::mutex> lock(cache_->mu);
    if (!cache_->valid) {
      cache_->root = plan::to_alp(plan_, cache_->lp, cache_->ea, OptFlags());
      cache_->lp_version = cache_->lp.version();
      cache_->ea_version = cache_->ea.version();
      cache_->simplified = true;
      cache_->coerced = true;
      cache_->valid = true;
      ++cache_->conversions;
    }
    return *cache_->lp.get(cache_->root).schema;
  });
}

namespace {

// The execution options of a query run with `flags` (check_order_observe and row_estimate
// are read by lowering).
exec::ExecOptions exec_options(const OptFlags& flags) {
  exec::ExecOptions options = exec::ExecOptions::from_env();
  options.check_order_observe = flags.check_order_observe;
  options.row_estimate = flags.row_estimate;
  return options;
}

}  // namespace

DataFrame LazyFrame::run(monitor::QueryMonitor& monitor, const OptFlags& flags) const {
  Prepared p = prepare(flags, true);
  monitor.optimized();
  exec::ExecOptions options = exec_options(flags);
  options.observer = monitor.observer();
  DataFrame out = exec::execute_plan(p.root, p.lp, p.ea, options);
  monitor.finished(out.height());
  return out;
}

DataFrame LazyFrame::collect(const OptFlags& flags) const {
  CollectOptions options;
  options.flags = flags;
  return collect(options);
}

DataFrame LazyFrame::collect(const CollectOptions& options) const {
  CancelScope scope(options.cancel.get(), options.timeout);
  monitor::QueryMonitor monitor;
  return run_on_large_stack([&] {
    DataFrame out = run(monitor, options.flags);
    if (options.verify.value_or(verify_mode_from_env()) != VerifyMode::Off) verify(options, out);
    return out;
  });
}

std::pair<DataFrame, DataFrame> LazyFrame::profile(const OptFlags& flags) const {
  monitor::QueryMonitor monitor(/*profile=*/true);
  DataFrame out = run_on_large_stack([&] { return run(monitor, flags); });
  std::vector<monitor::ProfileSpan> spans = monitor.spans();
  std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
    return a.start_us != b.start_us ? a.start_us < b.start_us : a.end_us > b.end_us;
  });
  ViewBuilder node;
  PrimitiveBuilder<uint64_t> start(DataType::uint64()), end(DataType::uint64());
  for (const auto& s : spans) {
    node.push(s.node);
    start.push(static_cast<uint64_t>(s.start_us));
    end.push(static_cast<uint64_t>(s.end_us));
  }
  DataFrame timings({Column("node", node.finish()), Column("start", start.finish()), Column("end", end.finish())});
  return {std::move(out), std::move(timings)};
}

namespace {

// The optimizations a verify run turns off one at a time (EachPass), by Polars' names.
const std::vector<std::pair<const char*, bool OptFlags::*>>& optimization_passes() {
  static const std::vector<std::pair<const char*, bool OptFlags::*>> passes = {
      {"predicate_pushdown", &OptFlags::predicate_pushdown},
      {"projection_pushdown", &OptFlags::projection_pushdown},
      {"simplify_expression", &OptFlags::simplify_expression},
      {"slice_pushdown", &OptFlags::slice_pushdown},
      {"comm_subplan_elim", &OptFlags::comm_subplan_elim},
      {"comm_subexpr_elim", &OptFlags::comm_subexpr_elim},
      {"cluster_with_columns", &OptFlags::cluster_with_columns},
      {"check_order_observe", &OptFlags::check_order_observe},
      {"fast_projection", &OptFlags::fast_projection},
      {"sort_collapse", &OptFlags::sort_collapse},
      {"pre_partition_hive", &OptFlags::pre_partition_hive},
      {"join_order", &OptFlags::join_order},
      {"row_estimate", &OptFlags::row_estimate},
  };
  return passes;
}

}  // namespace

// Runs the other variants and compares. A variant that raises is not compared: without
// the optimizer, frazil evaluates expressions no later step reads, which may fail; running
// out of time or memory, or being cancelled, still stops the query.
void LazyFrame::verify(const CollectOptions& options, const DataFrame& result) const {
  const Prepared optimized = prepare(options.flags, true);  // the plan `result` came from, for the report
  std::vector<std::pair<std::string, OptFlags>> variants{{"unoptimized", OptFlags::none()}};
  if (options.verify.value_or(verify_mode_from_env()) == VerifyMode::EachPass)
    for (const auto& [name, flag] : optimization_passes())
      if (options.flags.*flag) {
        OptFlags f = options.flags;
        f.*flag = false;
        variants.emplace_back(std::string("with ") + name + " off", f);
      }
  for (const auto& [label, flags] : variants) {
    Prepared p = prepare(flags, true);
    DataFrame other;
    try {
      other = exec::execute_plan(p.root, p.lp, p.ea, exec_options(flags));
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Cancelled || e.kind() == ErrorKind::OutOfMemory) throw;
      continue;
    }
    const ResultOrder order = std::max(result_order(p.root, p.lp), result_order(optimized.root, optimized.lp));
    if (auto diff = result_difference(other, result, order))
      throw ComputeError(err_msg("verify: the optimized plan and the plan ", label, " give different results (",
                                 *diff, ")\n\noptimized plan:\n", plan::explain_plan(optimized.root, optimized.lp,
                                                                                      optimized.ea),
                                 "\n\nplan ", label, ":\n", plan::explain_plan(p.root, p.lp, p.ea)));
  }
}

void LazyFrame::collect_into(const std::function<void(const DataFrame&)>& consume, const OptFlags& flags) const {
  run_on_large_stack([&] {
    Prepared p = prepare(flags, true);
    exec::execute_plan_into(p.root, p.lp, p.ea, consume, exec_options(flags));
  });
}

std::string LazyFrame::explain(bool optimized, const OptFlags& flags, bool streaming_engine) const {
  return run_on_large_stack([&] {
    Prepared p = prepare(flags, optimized);
    monitor::print_trace_events();
    return plan::explain_plan(p.root, p.lp, p.ea, streaming_engine);
  });
}

std::string LazyFrame::explain_physical(const OptFlags& flags) const {
  Prepared p = prepare(flags, true);
  monitor::print_trace_events();
  return exec::explain_physical(p.root, p.lp, p.ea, exec_options(flags));
}

std::string LazyFrame::to_dot(bool optimized, const OptFlags& flags) const {
  return run_on_large_stack([&] {
    Prepared p = prepare(flags, optimized);
    return plan::plan_to_dot(p.root, p.lp, p.ea);
  });
}

LazyFrame concat(const std::vector<LazyFrame>& frames, bool rechunk) {
  if (frames.empty()) throw InvalidOperationError("cannot concat an empty list of frames");
  if (frames.size() == 1 && !rechunk) return frames[0];
  std::vector<dsl::DslPlanRef> inputs;
  for (const auto& f : frames) inputs.push_back(f.plan());
  return LazyFrame(make_plan(dsl::DslUnion{rechunk}, std::move(inputs)));
}

DataFrame vstack(const std::vector<DataFrame>& all_frames) {
  if (all_frames.empty()) throw InvalidOperationError("cannot concat an empty list of frames");
  // Frames of no columns only: their heights add up (Polars' DataFrame(height=n) frames).
  bool all_zero_width = true;
  int64_t height = 0;
  for (const DataFrame& f : all_frames) {
    all_zero_width &= f.schema().size() == 0;
    height += f.height();
  }
  if (all_zero_width) return DataFrame::empty_with_height(height);
  // A frame of no columns takes the schema of what is stacked onto it (Polars' vstack).
  size_t leading_empty = 0;
  while (leading_empty + 1 < all_frames.size() && all_frames[leading_empty].schema().size() == 0) ++leading_empty;
  const std::vector<DataFrame> frames(all_frames.begin() + static_cast<std::ptrdiff_t>(leading_empty), all_frames.end());
  const Schema& first = frames[0].schema();
  for (size_t f = 1; f < frames.size(); ++f) {
    const Schema& other = frames[f].schema();
    if (other.size() != first.size())
      throw ShapeError(err_msg("unable to append to a DataFrame of width ", first.size(),
                               " with a DataFrame of width ", other.size()));
    for (size_t i = 0; i < first.size(); ++i) {
      const Field& a = first.field(i);
      const Field& b = other.field(i);
      if (a.name != b.name)
        throw ShapeError(err_msg("unable to vstack, column names don't match: \"", a.name, "\" and \"", b.name, "\""));
      if (!(a.dtype == b.dtype))
        throw SchemaError(err_msg("type ", b.dtype.to_string(), " is incompatible with expected type ", a.dtype.to_string()));
    }
  }
  std::vector<LazyFrame> lazy;
  for (const DataFrame& df : frames) lazy.push_back(LazyFrame::from_frame(df));
  return concat(lazy).collect();
}

}  // namespace frazil
