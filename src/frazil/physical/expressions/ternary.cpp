// when/then/otherwise.
#include "frazil/compute/boolean.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

static Column select_rows(const Column& p, const Column& t, const Column& f) {
  ArrayRef out = compute::if_then_else(*operand_array(p), *operand_array(t), *operand_array(f));
  return kernel_result(t.name(), std::move(out), {&p, &t, &f});
}

Column TernaryExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  return select_rows(predicate_->evaluate(df, state), truthy_->evaluate(df, state), falsy_->evaluate(df, state));
}

Column TernaryExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  return select_rows(predicate_->evaluate_on_groups(df, g, state), truthy_->evaluate_on_groups(df, g, state),
                     falsy_->evaluate_on_groups(df, g, state));
}

}  // namespace frazil::physical
