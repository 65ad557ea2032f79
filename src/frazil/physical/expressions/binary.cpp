// Binary operators: comparison, arithmetic and boolean kernels over two evaluated inputs.
#include "frazil/plan/evaluate_operator.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

using dsl::Operator;

ArrayRef BinaryExpr::apply(Operator op, const Array& l, const Array& r) {
  return plan::evaluate_operator(op, l, r);
}

// Combines two evaluated operands; one-row scalars broadcast inside the kernels.
static Column combine(Operator op, const Column& l, const Column& r) {
  if (!l.is_scalar() && !r.is_scalar() && l.length() != r.length() && l.length() != 1 && r.length() != 1)
    throw ShapeError(err_msg("cannot apply '", dsl::operator_symbol(op), "' to columns of lengths ", l.length(),
                             " and ", r.length()));
  ArrayRef out = BinaryExpr::apply(op, *operand_array(l), *operand_array(r));
  return kernel_result(l.name(), std::move(out), {&l, &r});
}

Column BinaryExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  return combine(op_, left_->evaluate(df, state), right_->evaluate(df, state));
}

Column BinaryExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  return combine(op_, left_->evaluate_on_groups(df, g, state), right_->evaluate_on_groups(df, g, state));
}

}  // namespace frazil::physical
