#include "frazil/api/lazy_frame.hpp"

#include "frazil/core/error.hpp"
#include "frazil/exec/executor.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/format.hpp"

namespace frazil {

using dsl::DslKind;
using dsl::DslPlan;

// The converted (unoptimized) arenas of this frame's plan, kept for later calls. A copy
// is taken before optimizing, so the cached plan stays as converted.
struct LazyFrame::ArenaCache {
  std::mutex mu;
  bool valid = false;
  bool simplified = false;  // converted with simplify_expression
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

LazyFrame LazyFrame::from_frame(DataFrame df) {
  DslPlan p;
  p.kind = DslKind::DataFrameScan;
  p.df = std::make_shared<const DataFrame>(std::move(df));
  return LazyFrame(std::make_shared<const DslPlan>(std::move(p)));
}

LazyFrame LazyFrame::from_scan(dsl::ScanSource source) {
  DslPlan p;
  p.kind = DslKind::Scan;
  p.scan = std::move(source);
  return LazyFrame(std::make_shared<const DslPlan>(std::move(p)));
}

LazyFrame LazyFrame::extend(DslPlan node) const {
  node.inputs.insert(node.inputs.begin(), plan_);
  return LazyFrame(std::make_shared<const DslPlan>(std::move(node)));
}

LazyFrame LazyFrame::select(std::vector<Expr> exprs) const {
  DslPlan p;
  p.kind = DslKind::Select;
  p.exprs = std::move(exprs);
  return extend(std::move(p));
}

LazyFrame LazyFrame::with_columns(std::vector<Expr> exprs) const {
  DslPlan p;
  p.kind = DslKind::WithColumns;
  p.exprs = std::move(exprs);
  return extend(std::move(p));
}

LazyFrame LazyFrame::filter(const Expr& predicate) const {
  DslPlan p;
  p.kind = DslKind::Filter;
  p.exprs = {predicate};
  return extend(std::move(p));
}

LazyFrame LazyFrame::sort(std::vector<Expr> by, SortArgs args) const {
  if (by.empty()) throw InvalidOperationError("sort() needs at least one column or expression");
  DslPlan p;
  p.kind = DslKind::Sort;
  p.keys = std::move(by);
  p.sort.descending = args.descending;
  p.sort.nulls_last = args.nulls_last;
  p.sort.maintain_order = args.maintain_order;
  return extend(std::move(p));
}

LazyFrame LazyFrame::slice(int64_t offset, std::optional<int64_t> length) const {
  if (length && *length < 0) throw InvalidOperationError(err_msg("negative slice length ", *length, " is not allowed"));
  DslPlan p;
  p.kind = DslKind::Slice;
  p.offset = offset;
  p.length = length;
  return extend(std::move(p));
}

LazyFrame LazyFrame::tail(int64_t n) const { return slice(-n, n); }

LazyGroupBy LazyFrame::group_by(std::vector<Expr> keys, bool maintain_order) const {
  if (keys.empty()) throw InvalidOperationError("group_by() needs at least one key");
  return LazyGroupBy(*this, std::move(keys), maintain_order);
}

LazyFrame LazyGroupBy::agg(std::vector<Expr> aggs) const {
  DslPlan p;
  p.kind = DslKind::GroupBy;
  p.inputs = {input_.plan()};
  p.keys = keys_;
  p.exprs = std::move(aggs);
  p.maintain_order = maintain_order_;
  return LazyFrame(std::make_shared<const DslPlan>(std::move(p)));
}

LazyFrame LazyGroupBy::len(const std::string& name) const { return agg({dsl::len().alias(name)}); }

LazyFrame LazyFrame::join(const LazyFrame& other, std::vector<Expr> left_on, std::vector<Expr> right_on,
                          JoinArgs args) const {
  DslPlan p;
  p.kind = DslKind::Join;
  p.inputs = {plan_, other.plan_};
  p.keys = std::move(left_on);
  p.keys2 = std::move(right_on);
  p.join.how = args.how;
  p.join.suffix = args.suffix;
  p.join.coalesce = args.coalesce.value_or(args.how != compute::JoinType::Full);
  if (args.how == compute::JoinType::Cross) {
    p.keys.clear();
    p.keys2.clear();
  }
  return LazyFrame(std::make_shared<const DslPlan>(std::move(p)));
}

LazyFrame LazyFrame::cross_join(const LazyFrame& other, std::string suffix) const {
  JoinArgs a;
  a.how = compute::JoinType::Cross;
  a.suffix = std::move(suffix);
  return join(other, {}, {}, a);
}

LazyFrame LazyFrame::unique(std::vector<std::string> subset, std::string keep, bool maintain_order) const {
  if (keep != "first" && keep != "last" && keep != "any" && keep != "none")
    throw InvalidOperationError(err_msg("`keep` must be one of {'first', 'last', 'any', 'none'}, got '", keep, "'"));
  DslPlan p;
  p.kind = DslKind::Distinct;
  p.names = std::move(subset);
  p.keep = std::move(keep);
  p.maintain_order = maintain_order;
  return extend(std::move(p));
}

LazyFrame LazyFrame::rename(const std::vector<std::pair<std::string, std::string>>& mapping) const {
  DslPlan p;
  p.kind = DslKind::Rename;
  for (const auto& [from, to] : mapping) {
    p.names.push_back(from);
    p.names2.push_back(to);
  }
  return extend(std::move(p));
}

LazyFrame LazyFrame::drop(std::vector<std::string> names) const {
  DslPlan p;
  p.kind = DslKind::Drop;
  p.names = std::move(names);
  return extend(std::move(p));
}

LazyFrame LazyFrame::with_row_index(std::string name, int64_t offset) const {
  DslPlan p;
  p.kind = DslKind::WithRowIndex;
  p.names = {std::move(name)};
  p.offset = offset;
  return extend(std::move(p));
}

LazyFrame LazyFrame::explode(std::vector<std::string> columns, compute::ExplodeOptions options) const {
  DslPlan p;
  p.kind = DslKind::Explode;
  p.names = std::move(columns);
  p.explode = options;
  return extend(std::move(p));
}

LazyFrame::Prepared LazyFrame::prepare(const OptFlags& flags, bool optimized) const {
  Prepared out;
  {
    std::lock_guard<std::mutex> lock(cache_->mu);
    bool fresh = cache_->valid && cache_->simplified == flags.simplify_expression &&
                 cache_->lp.version() == cache_->lp_version && cache_->ea.version() == cache_->ea_version;
    if (!fresh) {
      cache_->lp.clear();
      cache_->ea.clear();
      cache_->root = plan::to_alp(plan_, cache_->lp, cache_->ea, flags);
      cache_->lp_version = cache_->lp.version();
      cache_->ea_version = cache_->ea.version();
      cache_->simplified = flags.simplify_expression;
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

Schema LazyFrame::collect_schema() const {
  std::lock_guard<std::mutex> lock(cache_->mu);
  if (!cache_->valid) {
    cache_->root = plan::to_alp(plan_, cache_->lp, cache_->ea, OptFlags());
    cache_->lp_version = cache_->lp.version();
    cache_->ea_version = cache_->ea.version();
    cache_->simplified = true;
    cache_->valid = true;
    ++cache_->conversions;
  }
  return *cache_->lp.get(cache_->root).schema;
}

DataFrame LazyFrame::collect(const OptFlags& flags) const {
  Prepared p = prepare(flags, true);
  return exec::execute_plan(p.root, p.lp, p.ea);
}

void LazyFrame::collect_into(const std::function<void(const DataFrame&)>& consume, const OptFlags& flags) const {
  Prepared p = prepare(flags, true);
  exec::execute_plan_into(p.root, p.lp, p.ea, consume);
}

std::string LazyFrame::explain(bool optimized, const OptFlags& flags) const {
  Prepared p = prepare(flags, optimized);
  return plan::explain_plan(p.root, p.lp, p.ea);
}

std::string LazyFrame::to_dot(bool optimized, const OptFlags& flags) const {
  Prepared p = prepare(flags, optimized);
  return plan::plan_to_dot(p.root, p.lp, p.ea);
}

LazyFrame concat(const std::vector<LazyFrame>& frames) {
  if (frames.empty()) throw InvalidOperationError("cannot concat an empty list of frames");
  if (frames.size() == 1) return frames[0];
  DslPlan p;
  p.kind = DslKind::Union;
  for (const auto& f : frames) p.inputs.push_back(f.plan());
  return LazyFrame(std::make_shared<const DslPlan>(std::move(p)));
}

}  // namespace frazil
