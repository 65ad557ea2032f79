// expr.over(partition_by): the expression is evaluated per partition and mapped back to
// the rows of each partition.
#include "frazil/compute/selection.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

Column WindowExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  // A row-wise expression over partitions is the expression itself.
  if (!input_->is_scalar()) {
    Column out = input_->evaluate(df, state);
    return broadcast_to(out, df.height());
  }
  std::vector<ArrayRef> keys;
  for (const auto& p : partition_by_) keys.push_back(broadcast_to(p->evaluate(df, state), df.height()).as_array());
  compute::Groups groups = compute::group_rows(keys);
  GroupContext g{&groups};
  Column per_group = input_->evaluate_on_groups(df, g, state);
  if (per_group.is_scalar()) return Column::scalar(per_group.name(), per_group.scalar_value(), df.height());
  return Column(per_group.name(), compute::take(*per_group.as_array(), groups.group_ids));
}

}  // namespace frazil::physical
