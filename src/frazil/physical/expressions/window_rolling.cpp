// Expr.rolling(index_column, period, offset, closed): the expression over each row's window
// of index values (t + offset, t + offset + period]. An aggregation of a row-wise input (sum,
// mean, min, max, std, var, median, quantile, count, len) runs as a rolling kernel over the
// windows; any other expression is evaluated on each window's rows as one group among many.
#include <algorithm>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/rolling/calendar_windows.hpp"
#include "frazil/compute/rolling/rolling.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/expressions/shared.hpp"

namespace frazil::physical {

using compute::AggKind;

namespace {

constexpr int64_t kGatherChunk = int64_t{1} << 22;  // rows gathered at a time on the generic path

// The window kernel for an aggregation, when one fits it.
std::optional<compute::RollingParams> kernel_for(AggKind kind, const compute::AggOptions& o) {
  compute::RollingParams p;
  p.min_samples = 1;
  switch (kind) {
    case AggKind::Sum: p.agg = compute::RollingAgg::Sum; p.min_samples = 0; return p;
    case AggKind::Mean: p.agg = compute::RollingAgg::Mean; return p;
    case AggKind::Min: p.agg = compute::RollingAgg::Min; return p;
    case AggKind::Max: p.agg = compute::RollingAgg::Max; return p;
    case AggKind::Std: p.agg = compute::RollingAgg::Std; p.ddof = o.ddof; return p;
    case AggKind::Var: p.agg = compute::RollingAgg::Var; p.ddof = o.ddof; return p;
    case AggKind::Median: p.agg = compute::RollingAgg::Median; return p;
    case AggKind::Quantile:
      p.agg = compute::RollingAgg::Quantile;
      p.quantile = o.quantile;
      p.interpolation = o.interpolation;
      return p;
    default: return std::nullopt;
  }
}

}  // namespace

Column WindowExpr::evaluate_rolling(const DataFrame& df, ExecState& state) const {
  const int64_t n = df.height();
  Column index = broadcast_to(partition_by_[0]->evaluate(df, state), n);
  ArrayRef idx = index.as_array();
  ArrayRef ticks = compute::index_ticks(*idx, "rolling");
  const int64_t* t = ticks->values<int64_t>();
  for (int64_t i = 1; i < n; ++i)
    if (t[i] < t[i - 1])
      throw InvalidOperationError("argument in operation 'rolling' is not sorted, please sort the 'expr/series/column' first");
  const int64_t seg[2] = {0, n};
  // Months, or days in a time zone, are calendar arithmetic; anything else fixed ticks.
  const std::optional<compute::WindowBounds> calendar =
      compute::calendar_bounds(t, n, idx->dtype(), options_.period, options_.offset);
  compute::RollingWindows w;
  if (calendar) {
    w = compute::windows_by_bounds(t, seg, *calendar, options_.closed);
  } else {
    const int64_t period = compute::duration_ticks(options_.period, idx->dtype(), "rolling");
    const int64_t offset =
        options_.offset.empty() ? -period : compute::duration_ticks(options_.offset, idx->dtype(), "rolling");
    w = compute::windows_by(t, seg, period, offset, options_.closed);
  }

  // An aggregation of a row-wise input: one kernel over all windows.
  const PhysicalExpr* inner = input_.get();
  if (auto* agg = dynamic_cast<const AggExpr*>(inner); agg && agg->row_wise()) {
    if (agg->kind() == AggKind::Len || agg->kind() == AggKind::Count) {
      Column in = broadcast_to(agg->input()->evaluate(df, state), n);
      ArrayRef x = in.as_array();
      Buffer out = Buffer::allocate(static_cast<size_t>(n) * sizeof(uint32_t));
      uint32_t* o = out.mutable_as<uint32_t>();
      std::vector<int64_t> valid_before(static_cast<size_t>(n) + 1, 0);
      for (int64_t i = 0; i < n; ++i) valid_before[i + 1] = valid_before[i] + x->is_valid(i);
      for (int64_t i = 0; i < n; ++i)
        o[i] = static_cast<uint32_t>(agg->kind() == AggKind::Len ? w.end[i] - w.start[i]
                                                                 : valid_before[w.end[i]] - valid_before[w.start[i]]);
      return Column(in.name(), Array::make(DataType::uint32(), n, Buffer(), {out}));
    }
    if (auto p = kernel_for(agg->kind(), agg->options())) {
      Column in = broadcast_to(agg->input()->evaluate(df, state), n);
      return Column(in.name(), compute::rolling(*in.as_array(), w, *p));
    }
  }
  // Anything else: each window's rows gathered as one group, many windows at a time. An
  // empty window takes the expression's value over no rows (a sum's 0, a mean's null).
  if (n == 0) {
    Column c = input_->evaluate(df.slice(0, 0), state);
    ArrayRef v = c.as_array()->slice(0, 0);
    if (input_->is_scalar()) return Column(c.name(), v);
    Buffer off = Buffer::allocate(sizeof(int64_t));
    off.mutable_as<int64_t>()[0] = 0;
    return Column(c.name(), Array::make(DataType::list(v->dtype()), 0, Buffer(), {off}, {v}));
  }
  std::vector<ArrayRef> parts;
  std::vector<compute::IdxSize> pick(static_cast<size_t>(n));  // row -> position in the parts
  std::vector<int64_t> empty_rows;
  std::string name;
  int64_t row = 0, produced = 0;
  while (row < n) {
    std::vector<compute::IdxSize> rows;
    compute::Groups groups;
    while (row < n && (rows.empty() || static_cast<int64_t>(rows.size()) + (w.end[row] - w.start[row]) <= kGatherChunk)) {
      if (w.end[row] == w.start[row]) {
        empty_rows.push_back(row++);
        continue;
      }
      const auto gid = static_cast<compute::IdxSize>(groups.first_rows.size());
      groups.first_rows.push_back(static_cast<compute::IdxSize>(rows.size()));
      for (int64_t j = w.start[row]; j < w.end[row]; ++j) {
        rows.push_back(static_cast<compute::IdxSize>(j));
        groups.group_ids.push_back(gid);
      }
      pick[row++] = static_cast<compute::IdxSize>(produced + gid);
    }
    if (groups.first_rows.empty()) continue;
    DataFrame frame = compute::take_frame(df, rows);
    GroupContext g{&groups};
    Column c = input_->evaluate_on_groups(frame, g, state);
    name = c.name();
    const auto ng = static_cast<int64_t>(groups.first_rows.size());
    parts.push_back(c.is_scalar() ? broadcast_to(c, ng).as_array() : c.as_array());
    produced += ng;
  }
  if (!empty_rows.empty()) {
    Column none = input_->evaluate(df.slice(0, 0), state);
    ArrayRef v = none.as_array();
    if (name.empty()) name = none.name();
    if (v->length() != 1) {
      // A non-aggregating expression over no rows: an empty list.
      Buffer off = Buffer::allocate(2 * sizeof(int64_t));
      off.mutable_as<int64_t>()[0] = off.mutable_as<int64_t>()[1] = 0;
      v = Array::make(DataType::list(v->dtype()), 1, Buffer(), {off}, {v->slice(0, 0)});
    }
    if (!parts.empty() && v->dtype() != parts[0]->dtype()) v = compute::cast(*v, parts[0]->dtype());
    parts.push_back(v);
    for (int64_t r : empty_rows) pick[r] = static_cast<compute::IdxSize>(produced);
  }
  ArrayRef all = concat_arrays(parts);
  return Column(name, compute::take(*all, pick));
}

}  // namespace frazil::physical
