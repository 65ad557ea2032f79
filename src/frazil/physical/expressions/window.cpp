// expr.over(partition_by, order_by=..., mapping_strategy=...): the expression is evaluated
// per partition (its rows ordered by the order keys when given) and mapped back to the rows.
#include <algorithm>

#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

using dsl::WindowMapping;

namespace {

// The values of a list array's lists, one after the other.
ArrayRef list_values(const Array& lists) {
  const int64_t* off = lists.list_offsets();
  return lists.child(0)->slice(off[0], off[lists.length()] - off[0]);
}

std::vector<compute::IdxSize> inverse_permutation(const std::vector<compute::IdxSize>& perm) {
  std::vector<compute::IdxSize> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = static_cast<compute::IdxSize>(i);
  return inv;
}

// One partition holding every row (over(order_by=...) without partition keys).
compute::Groups one_group(int64_t n) {
  compute::Groups g;
  g.group_ids.resize(static_cast<size_t>(n));
  std::fill(g.group_ids.begin(), g.group_ids.end(), compute::IdxSize{0});
  if (n > 0) g.first_rows = {0};
  return g;
}

}  // namespace

Column WindowExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  if (options_.kind == dsl::WindowKind::Rolling) return evaluate_rolling(df, state);
  // A row-wise expression over partitions is the expression itself.
  if (row_wise_ && options_.mapping == WindowMapping::GroupToRows) {
    Column out = input_->evaluate(df, state);
    return broadcast_to(out, df.height());
  }
  const size_t num_order = options_.num_order_by;
  const size_t num_keys = partition_by_.size() - num_order;
  // With order keys, the frame is sorted by them first (stably: ties keep their row order);
  // each partition then sees its rows in that order, and the results go back to their rows.
  DataFrame frame = df;
  std::vector<compute::IdxSize> perm;
  if (num_order) {
    std::vector<ArrayRef> order_keys;
    for (size_t i = num_keys; i < partition_by_.size(); ++i)
      order_keys.push_back(broadcast_to(partition_by_[i]->evaluate(df, state), df.height()).as_array());
    compute::SortOptions so;
    so.descending = {options_.descending};
    so.nulls_last = {options_.nulls_last};
    so.stable = true;
    perm = compute::arg_sort(order_keys, so);
    frame = compute::take_frame(df, perm);
  }
  compute::Groups groups;
  if (num_keys == 0) {
    groups = one_group(frame.height());
  } else {
    std::vector<ArrayRef> keys;
    for (size_t i = 0; i < num_keys; ++i)
      keys.push_back(broadcast_to(partition_by_[i]->evaluate(frame, state), frame.height()).as_array());
    groups = compute::group_rows(keys);
  }
  Column out = map_to_rows(frame, groups, state);
  if (perm.empty() || options_.mapping == WindowMapping::Explode) return out;
  if (out.is_scalar()) return out;
  return Column(out.name(), compute::take(*out.as_array(), inverse_permutation(perm)));
}

// The input per partition of `frame`, mapped back to the frame's rows as the mapping says.
Column WindowExpr::map_to_rows(const DataFrame& frame, const compute::Groups& groups, ExecState& state) const {
  GroupContext g{&groups};
  const int64_t n = frame.height();
  if (input_->is_scalar()) {
    // One value per partition (an aggregate): broadcast over the partition's rows.
    Column per_group = input_->evaluate_on_groups(frame, g, state);
    if (options_.mapping == WindowMapping::Explode) {
      if (per_group.is_scalar()) return Column::scalar(per_group.name(), per_group.scalar_value(), groups.num_groups());
      return per_group;
    }
    if (per_group.is_scalar()) return Column::scalar(per_group.name(), per_group.scalar_value(), n);
    return Column(per_group.name(), compute::take(*per_group.as_array(), groups.group_ids));
  }
  // A list per partition: computed for all partitions at once when the input can (cum_sum,
  // rank, rolling_mean, a column), else evaluated partition by partition.
  Column lists = input_->evaluate_on_groups(frame, g, state);
  ArrayRef arr = lists.as_array();
  if (arr->dtype().id() != TypeId::List)
    throw InvalidOperationError("a window expression gave no value per partition");
  switch (options_.mapping) {
    case WindowMapping::Join: return Column(lists.name(), compute::take(*arr, groups.group_ids));
    case WindowMapping::Explode: return Column(lists.name(), list_values(*arr));
    case WindowMapping::GroupToRows: break;
  }
  const std::shared_ptr<const GroupOrder> cached = group_order(groups, state);
  const GroupOrder& go = *cached;
  const size_t ng = groups.num_groups();
  const int64_t* off = arr->list_offsets();
  bool same_lengths = true, all_one_row = true;
  for (size_t k = 0; k < ng; ++k) {
    const int64_t len = off[k + 1] - off[k];
    same_lengths &= len == go.offsets[k + 1] - go.offsets[k];
    all_one_row &= len == 1;
  }
  ArrayRef values = list_values(*arr);
  if (same_lengths) return Column(lists.name(), compute::take(*values, inverse_permutation(go.order)));
  // One row per partition of an input that reads no column (lit(1).sort()) is broadcast, as a
  // literal is; of any other non-aggregate (search_sorted(2), head(1)) it is Polars' ShapeError:
  // only aggregates are broadcast (above).
  if (all_one_row && literal_only_) return Column(lists.name(), compute::take(*values, groups.group_ids));
  throw ShapeError("the length of the window expression did not match that of the group");
}

}  // namespace frazil::physical
