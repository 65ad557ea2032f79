#include "frazil/plan/evaluate_operator.hpp"

#include "frazil/compute/arithmetic.hpp"
#include "frazil/compute/boolean.hpp"
#include "frazil/compute/compare.hpp"
#include "frazil/core/error.hpp"

namespace frazil::plan {

using dsl::Operator;

ArrayRef evaluate_operator(Operator op, const Array& l, const Array& r) {
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

}  // namespace frazil::plan
