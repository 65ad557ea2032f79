// Expression-level sort, sort_by and filter.
#include "frazil/compute/boolean.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

Column SortExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  Column in = input_->evaluate(df, state);
  ArrayRef values = in.as_array();
  compute::SortOptions opts;
  std::vector<ArrayRef> keys;
  if (by_.empty()) {
    keys.push_back(values);
    opts.descending = {flags_.descending};
    opts.nulls_last = {flags_.nulls_last};
  } else {
    for (const auto& b : by_) {
      Column k = broadcast_to(b->evaluate(df, state), values->length());
      keys.push_back(k.as_array());
    }
    opts.descending = flags_.descending_by.empty() ? std::vector<bool>{false} : flags_.descending_by;
    opts.nulls_last = flags_.nulls_last_by.empty() ? std::vector<bool>{flags_.nulls_last} : flags_.nulls_last_by;
  }
  opts.stable = flags_.maintain_order || !by_.empty();
  return Column(in.name(), compute::take(*values, compute::arg_sort(keys, opts)));
}

Column FilterExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  Column in = input_->evaluate(df, state);
  Column p = predicate_->evaluate(df, state);
  // A one-row predicate broadcasts to the input's length (which may be 0), and a one-row
  // input to the predicate's.
  int64_t n = p.length() == 1 ? in.length() : (in.length() == 1 ? p.length() : in.length());
  ArrayRef values = broadcast_to(in, n).as_array();
  ArrayRef mask = broadcast_to(p, n).as_array();
  return Column(in.name(), compute::filter(*values, *mask));
}

Column FilterExpr::masked(const DataFrame& df, ExecState& state) const {
  Column in = broadcast_to(input_->evaluate(df, state), df.height());
  Column p = broadcast_to(predicate_->evaluate(df, state), df.height());
  ArrayRef values = in.as_array();
  ArrayRef nulls = make_null_array(values->dtype(), 1);
  return Column(in.name(), compute::if_then_else(*p.as_array(), *values, *nulls));
}

}  // namespace frazil::physical
