// PhysicalExpr: the shape of an expression that touches data. Built once per plan by one
// match over AExpr (planner.cpp); evaluate() is a virtual call per operator per chunk,
// never per row. Each node keeps the DSL expression it came from for error messages.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "frazil/compute/aggregate.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/dsl/expr.hpp"

namespace frazil::physical {

struct ExecState {
  bool verbose = false;
  // Results of subexpressions with several parents, by node (expressions/shared.hpp).
  std::unordered_map<const void*, std::shared_ptr<void>> shared_results;
};

// The groups of a group_by (or a window's partitions) over the frame being evaluated.
struct GroupContext {
  const compute::Groups* groups = nullptr;
  size_t num_groups() const { return groups->num_groups(); }
};

class PhysicalExpr {
 public:
  explicit PhysicalExpr(dsl::Expr source) : source_(std::move(source)) {}
  virtual ~PhysicalExpr() = default;

  // Row-aligned evaluation over a chunk. A result with one row (a scalar) broadcasts.
  Column evaluate(const DataFrame& df, ExecState& state) const;
  // Evaluation inside group_by().agg() or a window: one row per group (or a scalar).
  Column evaluate_on_groups(const DataFrame& df, const GroupContext& groups, ExecState& state) const;

  const dsl::Expr& source() const { return source_; }
  // Output is one row whatever the input (literal, aggregation).
  virtual bool is_scalar() const { return false; }
  // A non-reducing expression inside agg() gives each group a list. A column is gathered into
  // lists directly; any other expression (x + 1, x.shift(), x.filter(p), x - x.mean()) is
  // evaluated on each group's rows, as Polars does.
  virtual bool implodes_directly() const { return false; }
  // The expression over no rows (the values' dtype when there is no group): evaluated on an
  // empty frame by default.
  virtual Column evaluate_empty(const DataFrame& df, ExecState& state) const { return evaluate_impl(df.slice(0, 0), state); }

 protected:
  virtual Column evaluate_impl(const DataFrame& df, ExecState& state) const = 0;
  // Default: the row-aligned values of each group gathered into a list per group.
  virtual Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& groups, ExecState& state) const;
  // One evaluation per group over its rows, the results as one list per group.
  Column evaluate_as_lists(const DataFrame& df, const GroupContext& groups, ExecState& state) const;

 private:
  dsl::Expr source_;
};

using PhysicalExprRef = std::shared_ptr<const PhysicalExpr>;

// Gathers the row-aligned `values` into one list per group (Polars' implode in agg()).
ArrayRef implode_by_groups(const Array& values, const compute::Groups& groups);

// The rows ordered group by group, each group's rows in row order: group g's rows are
// order[offsets[g] .. offsets[g + 1]).
struct GroupOrder {
  std::vector<compute::IdxSize> order;
  std::vector<int64_t> offsets;
};
GroupOrder order_by_groups(const compute::Groups& groups);

// order_by_groups(groups), kept in the ExecState: a window's function and the window itself
// both need it (matched by a copy of the groups, as gather_by_groups).
std::shared_ptr<const GroupOrder> group_order(const compute::Groups& groups, ExecState& state);

// Whether two frames hold the very same arrays (so, held alive, the same data), and whether
// two groupings are equal: how results remembered in an ExecState are matched to a frame.
bool same_frame(const DataFrame& a, const DataFrame& b);
bool same_groups(const compute::Groups& a, const compute::Groups& b);

// The frame's rows gathered group by group. Kept in the ExecState: every expression of one
// agg() evaluated group by group (corr's centred sums are four) needs the same gather. The
// frame and a copy of the groups are kept to match a later request by (a Groups object's
// address may be reused by another grouping, as two windows over one frame do).
struct GroupGather {
  DataFrame frame;
  compute::Groups groups;
  GroupOrder order;
  DataFrame rows;
};
std::shared_ptr<const GroupGather> gather_by_groups(const DataFrame& df, const compute::Groups& groups,
                                                    ExecState& state);

// Evaluates `exprs` over `df` and assembles the columns into a frame: scalars broadcast to
// the longest result (or to `height` when given), any other length mismatch is a ShapeError.
DataFrame evaluate_to_frame(const std::vector<PhysicalExprRef>& exprs, const DataFrame& df,
                            ExecState& state, std::optional<int64_t> height = std::nullopt);

}  // namespace frazil::physical
