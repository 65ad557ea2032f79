// Aggregations: over the whole chunk (a scalar) or per group (one row per group).
#include <algorithm>

#include "frazil/compute/boolean.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/selection.hpp"
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
    // lit(x).filter(p) is (at most) one value per group, not one per row; x.shift().filter(p)
    // depends on each group's rows.
    if (filter->input_is_scalar() || !filter->row_wise()) return aggregate_per_group(df, groups, state);
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
      default: return aggregate_per_group(df, groups, state);  // first, last, n_unique, len, ...
    }
  }
  // A literal (or an aggregate) is one value per group, not one per row: lit(1.5).count()
  // is 1 in every group, as in Polars.
  if (input_->is_scalar()) {
    Column per_group = input_->evaluate_on_groups(df, g, state);
    if (per_group.is_scalar() && per_group.length() == 1)
      return Column::scalar(per_group.name(), compute::aggregate(kind_, *operand_array(per_group), options_), 1);
    const compute::Groups single = compute::one_group_per_row(per_group.length());
    return Column(per_group.name(), compute::aggregate_grouped(kind_, *per_group.as_array(), single, options_));
  }
  if (!row_wise_) {
    // An input that gives its groups' lists at once (x.cum_sum(), x.rank()): aggregated over
    // the lists' values, one segment per group, instead of group by group.
    if (input_->implodes_directly()) {
      Column lists = input_->evaluate_on_groups(df, g, state);
      ArrayRef arr = lists.as_array();
      if (arr->dtype().id() == TypeId::List && arr->length() == static_cast<int64_t>(groups.num_groups())) {
        const int64_t* off = arr->list_offsets();
        const int64_t ng = arr->length();
        compute::Groups segments;
        segments.group_ids.resize(static_cast<size_t>(off[ng] - off[0]));
        segments.first_rows.resize(static_cast<size_t>(ng));
        for (int64_t k = 0; k < ng; ++k) {
          segments.first_rows[k] = static_cast<compute::IdxSize>(off[k] - off[0]);
          std::fill(segments.group_ids.begin() + (off[k] - off[0]), segments.group_ids.begin() + (off[k + 1] - off[0]),
                    static_cast<compute::IdxSize>(k));
        }
        ArrayRef values = arr->child(0)->slice(off[0], off[ng] - off[0]);
        return Column(lists.name(), compute::aggregate_grouped(kind_, *values, segments, options_));
      }
    }
    return aggregate_per_group(df, groups, state);
  }
  Column in = input_->evaluate(df, state);
  if (in.length() != df.height()) in = broadcast_to(in, df.height());
  return Column(in.name(), compute::aggregate_grouped(kind_, *in.as_array(), groups, options_));
}

// x.reverse().max(), x.sort().first(), x.shift().sum() per group: the input is evaluated
// over each group's rows (gathered contiguously), then aggregated.
Column AggExpr::aggregate_per_group(const DataFrame& df, const compute::Groups& groups, ExecState& state) const {
  const auto gg = gather_by_groups(df, groups, state);
  const GroupOrder& go = gg->order;
  const DataFrame& gathered = gg->rows;
  const size_t ng = groups.num_groups();
  std::vector<ArrayRef> parts;
  parts.reserve(std::max<size_t>(ng, 1));
  std::string name;
  for (size_t g = 0; g < std::max<size_t>(ng, 1); ++g) {
    // With no groups, one evaluation over no rows gives the result's dtype (evaluate_empty: a
    // function that cannot run on no rows, sample(n=1), still gives its dtype, as Polars).
    Column c = ng ? input_->evaluate(gathered.slice(go.offsets[g], go.offsets[g + 1] - go.offsets[g]), state)
                  : input_->evaluate_empty(df, state);
    name = c.name();
    parts.push_back(scalar_to_array(compute::aggregate(kind_, *c.as_array(), options_), 1));
  }
  ArrayRef out = concat_arrays(parts);
  return Column(name, ng ? out : out->slice(0, 0));
}

}  // namespace frazil::physical
