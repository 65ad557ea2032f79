#include "frazil/dsl/operator.hpp"

namespace frazil::dsl {

const char* operator_symbol(Operator op) {
  switch (op) {
    case Operator::Eq: return "==";
    case Operator::NotEq: return "!=";
    case Operator::Lt: return "<";
    case Operator::LtEq: return "<=";
    case Operator::Gt: return ">";
    case Operator::GtEq: return ">=";
    case Operator::EqValidity: return "==v";
    case Operator::NotEqValidity: return "!=v";
    case Operator::Plus: return "+";
    case Operator::Minus: return "-";
    case Operator::Multiply: return "*";
    case Operator::TrueDivide: return "/";
    case Operator::FloorDivide: return "//";
    case Operator::Modulus: return "%";
    case Operator::And: return "&";
    case Operator::Or: return "|";
    case Operator::Xor: return "^";
  }
  return "?";
}

}  // namespace frazil::dsl
