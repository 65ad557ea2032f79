// expr.over(partition_by): the expression is evaluated per partition and mapped back to
// the rows of each partition.
#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

Column WindowExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  // A row-wise expression over partitions is the expression itself.
  if (row_wise_) {
    Column out = input_->evaluate(df, state);
    return broadcast_to(out, df.height());
  }
  std::vector<ArrayRef> keys;
  for (const auto& p : partition_by_) keys.push_back(broadcast_to(p->evaluate(df, state), df.height()).as_array());
  compute::Groups groups = compute::group_rows(keys);
  if (!input_->is_scalar()) return evaluate_per_partition(df, groups, state);
  GroupContext g{&groups};
  Column per_group = input_->evaluate_on_groups(df, g, state);
  if (per_group.is_scalar()) return Column::scalar(per_group.name(), per_group.scalar_value(), df.height());
  return Column(per_group.name(), compute::take(*per_group.as_array(), groups.group_ids));
}

// The general case (shift, sort, reverse, x - x.mean(), ...): one evaluation per partition
// over its rows gathered contiguously; each result must have the partition's length, or
// every result one row (then it is broadcast over its partition, as an aggregate is).
Column WindowExpr::evaluate_per_partition(const DataFrame& df, const compute::Groups& groups,
                                          ExecState& state) const {
  const size_t ng = groups.num_groups();
  const GroupOrder go = order_by_groups(groups);
  const std::vector<compute::IdxSize>& order = go.order;
  const std::vector<int64_t>& offsets = go.offsets;
  const DataFrame gathered = compute::take_frame(df, order);
  std::vector<Column> results;
  results.reserve(ng);
  bool all_one_row = true;
  for (size_t g = 0; g < ng; ++g) {
    results.push_back(input_->evaluate(gathered.slice(offsets[g], offsets[g + 1] - offsets[g]), state));
    all_one_row &= results.back().length() == 1;
  }
  std::vector<ArrayRef> parts;
  parts.reserve(ng);
  std::string name;
  for (size_t g = 0; g < ng; ++g) {
    const int64_t len = offsets[g + 1] - offsets[g];
    const Column& c = results[g];
    if (c.length() != len && !all_one_row)
      throw ShapeError("the length of the window expression did not match that of the group");
    name = c.name();
    parts.push_back(broadcast_to(c, len).as_array());
  }
  if (parts.empty()) {  // an empty frame: no partitions, an empty column of the input's dtype
    Column c = input_->evaluate(df, state);
    return Column(c.name(), c.as_array()->slice(0, 0));
  }
  ArrayRef values = concat_arrays(parts);
  // Row order[i] of the frame holds value i.
  std::vector<compute::IdxSize> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<compute::IdxSize>(i);
  return Column(name, compute::take(*values, inverse));
}

}  // namespace frazil::physical
