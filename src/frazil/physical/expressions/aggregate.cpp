// Aggregations: over the whole chunk (a scalar) or per group (one row per group).
#include "frazil/compute/boolean.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

using compute::AggKind;

Column AggExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  Column in = input_->evaluate(df, state);
  ArrayRef values = in.is_scalar() ? in.as_array() : in.as_array();
  return Column::scalar(in.name(), compute::aggregate(kind_, *values, options_), 1);
}

Column AggExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  const compute::Groups& groups = *g.groups;
  // `x.filter(p).agg()`: aggregations that skip nulls see the rejected rows as nulls.
  if (auto* filter = dynamic_cast<const FilterExpr*>(input_.get())) {
    switch (kind_) {
      case AggKind::Sum:
      case AggKind::Mean:
      case AggKind::Min:
      case AggKind::Max:
      case AggKind::Count:
      case AggKind::Median:
      case AggKind::Std:
      case AggKind::Var:
      case AggKind::Quantile: {
        Column masked = filter->masked(df, state);
        return Column(masked.name(), compute::aggregate_grouped(kind_, *masked.as_array(), groups, options_));
      }
      default:
        throw InvalidOperationError(err_msg("`", compute::agg_name(kind_),
                                            "` of a filtered expression inside agg() is not supported yet"));
    }
  }
  Column in = input_->evaluate(df, state);
  if (in.length() != df.height()) in = broadcast_to(in, df.height());
  return Column(in.name(), compute::aggregate_grouped(kind_, *in.as_array(), groups, options_));
}

}  // namespace frazil::physical
