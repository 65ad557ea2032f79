// Binary operators: comparison, arithmetic and boolean kernels over two evaluated inputs.
#include "frazil/compute/boolean.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

using dsl::Operator;

ArrayRef BinaryExpr::apply(Operator op, const Array& l, const Array& r) {
  using compute::ArithOp;
  using compute::CmpOp;
  switch (op) {
    case Operator::Eq: return compute::compare(CmpOp::Eq, l, r);
    case Operator::NotEq: return compute::compare(CmpOp::NotEq, l, r);
    case Operator::Lt: return compute::compare(CmpOp::Lt, l, r);
    case Operator::LtEq: return compute::compare(CmpOp::LtEq, l, r);
    case Operator::Gt: return compute::compare(CmpOp::Gt, l, r);
    case Operator::GtEq: return compute::compare(CmpOp::GtEq, l, r);
    case Operator::EqValidity: return compute::compare(CmpOp::EqMissing, l, r);
    case Operator::NotEqValidity: return compute::compare(CmpOp::NotEqMissing, l, r);
    case Operator::Plus: return compute::arith(ArithOp::Add, l, r);
    case Operator::Minus: return compute::arith(ArithOp::Sub, l, r);
    case Operator::Multiply: return compute::arith(ArithOp::Mul, l, r);
    case Operator::TrueDivide: return compute::arith(ArithOp::TrueDiv, l, r);
    case Operator::FloorDivide: return compute::arith(ArithOp::FloorDiv, l, r);
    case Operator::Modulus: return compute::arith(ArithOp::Mod, l, r);
    case Operator::And:
      return l.dtype().is_integer() ? compute::bit_and(l, r) : compute::and_kleene(l, r);
    case Operator::Or:
      return l.dtype().is_integer() ? compute::bit_or(l, r) : compute::or_kleene(l, r);
    case Operator::Xor:
      return l.dtype().is_integer() ? compute::bit_xor(l, r) : compute::xor_(l, r);
  }
  throw InternalError("unknown operator");
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
