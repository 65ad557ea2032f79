#include "frazil/physical/physical_expr.hpp"

#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"

namespace frazil::physical {

namespace {
// Polars' wording, so messages read the same in both engines.
constexpr const char* kContextMarker = "\n\nThis error occurred in the following expression:\n\t";

[[noreturn]] void rethrow_with_context(const Error& e, const dsl::Expr& source) {
  std::string msg = e.what();
  if (msg.find(kContextMarker) == std::string::npos) msg += kContextMarker + source.to_string();
  throw_error(e.kind(), msg);
}
}  // namespace

// Evaluation recurses through the expression tree: bounded by the stack guard (query work
// runs on large stacks, core/stack.hpp), checked outside the try so that the error is not
// wrapped once per level on its way up.
Column PhysicalExpr::evaluate(const DataFrame& df, ExecState& state) const {
  check_stack("expression evaluation");
  try {
    return evaluate_impl(df, state);
  } catch (const Error& e) {
    rethrow_with_context(e, source_);
  }
}

Column PhysicalExpr::evaluate_on_groups(const DataFrame& df, const GroupContext& groups, ExecState& state) const {
  check_stack("expression evaluation");
  try {
    if (!is_scalar() && !implodes_directly()) return evaluate_as_lists(df, groups, state);
    return evaluate_on_groups_impl(df, groups, state);
  } catch (const Error& e) {
    rethrow_with_context(e, source_);
  }
}

Column PhysicalExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& groups,
                                             ExecState& state) const {
  Column values = evaluate_impl(df, state);
  if (values.is_scalar() && values.length() == 1) return Column::scalar(values.name(), values.scalar_value(), 1);
  if (values.length() != df.height())
    throw InvalidOperationError("an expression that changes the length is not supported inside agg() yet");
  return Column(values.name(), implode_by_groups(*values.as_array(), *groups.groups));
}

GroupOrder order_by_groups(const compute::Groups& groups) {
  const size_t ng = groups.num_groups();
  const auto& ids = groups.group_ids;
  // Counting sort of the rows by group id keeps each group's rows in row order.
  GroupOrder out;
  out.offsets.assign(ng + 1, 0);
  for (auto g : ids) ++out.offsets[g + 1];
  for (size_t g = 0; g < ng; ++g) out.offsets[g + 1] += out.offsets[g];
  out.order.resize(ids.size());
  std::vector<int64_t> cursor(out.offsets.begin(), out.offsets.end() - 1);
  for (size_t i = 0; i < ids.size(); ++i) out.order[cursor[ids[i]]++] = static_cast<compute::IdxSize>(i);
  return out;
}

namespace {

bool same_column(const Column& a, const Column& b) {
  if (a.name() != b.name() || a.length() != b.length() || a.is_scalar() != b.is_scalar()) return false;
  if (a.is_scalar()) return a.dtype() == b.dtype() && a.scalar_value() == b.scalar_value();
  if (a.num_chunks() != b.num_chunks()) return false;
  return a.chunks() == b.chunks();
}

}  // namespace

bool same_frame(const DataFrame& a, const DataFrame& b) {
  if (a.height() != b.height() || a.width() != b.width()) return false;
  for (size_t i = 0; i < a.width(); ++i)
    if (!same_column(a.columns()[i], b.columns()[i])) return false;
  return true;
}

bool same_groups(const compute::Groups& a, const compute::Groups& b) {
  return a.group_ids == b.group_ids && a.first_rows == b.first_rows;
}

std::shared_ptr<const GroupGather> gather_by_groups(const DataFrame& df, const compute::Groups& groups,
                                                    ExecState& state) {
  const void* key = &groups;
  if (auto it = state.shared_results.find(key); it != state.shared_results.end()) {
    auto g = std::static_pointer_cast<const GroupGather>(it->second);
    if (same_frame(g->frame, df) && same_groups(g->groups, groups)) return g;
  }
  auto g = std::make_shared<GroupGather>();
  g->frame = df;
  g->groups = groups;
  g->order = order_by_groups(groups);
  g->rows = compute::take_frame(df, g->order.order);
  state.shared_results[key] = g;
  return g;
}

namespace {
struct CachedOrder {
  compute::Groups groups;
  std::shared_ptr<const GroupOrder> order;
};
}  // namespace

std::shared_ptr<const GroupOrder> group_order(const compute::Groups& groups, ExecState& state) {
  const void* key = &groups.first_rows;  // (gather_by_groups keys on &groups)
  if (auto it = state.shared_results.find(key); it != state.shared_results.end()) {
    auto c = std::static_pointer_cast<const CachedOrder>(it->second);
    if (same_groups(c->groups, groups)) return c->order;
  }
  auto c = std::make_shared<CachedOrder>();
  c->groups = groups;
  c->order = std::make_shared<GroupOrder>(order_by_groups(groups));
  state.shared_results[key] = c;
  return c->order;
}

Column PhysicalExpr::evaluate_as_lists(const DataFrame& df, const GroupContext& groups, ExecState& state) const {
  const size_t ng = groups.num_groups();
  const std::shared_ptr<const GroupGather> gg = gather_by_groups(df, *groups.groups, state);
  const GroupOrder& go = gg->order;
  const DataFrame& gathered = gg->rows;
  std::vector<ArrayRef> parts;
  Buffer off = Buffer::allocate((ng + 1) * sizeof(int64_t));
  int64_t* o = off.mutable_as<int64_t>();
  o[0] = 0;
  std::string name;
  for (size_t g = 0; g < std::max<size_t>(ng, 1); ++g) {
    // With no groups, one evaluation over no rows gives the values' dtype.
    Column c = ng ? evaluate_impl(gathered.slice(go.offsets[g], go.offsets[g + 1] - go.offsets[g]), state)
                  : evaluate_empty(df, state);
    name = c.name();
    parts.push_back(c.as_array());
    if (ng) o[g + 1] = o[g] + parts.back()->length();
  }
  ArrayRef flat = concat_arrays(parts);
  if (!ng) flat = flat->slice(0, 0);
  return Column(name, Array::make(DataType::list(flat->dtype()), static_cast<int64_t>(ng), Buffer(), {off}, {flat}));
}

ArrayRef implode_by_groups(const Array& values, const compute::Groups& groups) {
  const size_t ng = groups.num_groups();
  GroupOrder go = order_by_groups(groups);
  const std::vector<int64_t>& offsets = go.offsets;
  ArrayRef flat = compute::take(values, go.order);
  Buffer off = Buffer::allocate((ng + 1) * sizeof(int64_t));
  std::copy(offsets.begin(), offsets.end(), off.mutable_as<int64_t>());
  return Array::make(DataType::list(values.dtype()), static_cast<int64_t>(ng), Buffer(), {off}, {flat});
}

DataFrame evaluate_to_frame(const std::vector<PhysicalExprRef>& exprs, const DataFrame& df, ExecState& state,
                            std::optional<int64_t> height) {
  std::vector<Column> cols;
  cols.reserve(exprs.size());
  for (const auto& e : exprs) cols.push_back(e->evaluate(df, state));
  int64_t h = 0;
  bool all_scalar = true;
  for (const auto& c : cols) {
    bool scalar_like = c.is_scalar() && c.length() == 1;
    if (!scalar_like) {
      all_scalar = false;
      h = std::max(h, c.length());
    }
  }
  if (height) h = *height;
  else if (all_scalar) h = cols.empty() ? df.height() : 1;
  for (auto& c : cols) {
    if (c.length() == h) continue;
    if (c.length() == 1) {
      Scalar v = c.get(0);
      c = Column::scalar(c.name(), v, h);
      continue;
    }
    throw ShapeError(err_msg("series length ", c.length(), " doesn't match the DataFrame height of ", h,
                             " for column '", c.name(), "'"));
  }
  if (cols.empty()) return DataFrame::empty_with_height(h);
  return DataFrame(std::move(cols));
}

}  // namespace frazil::physical
