// Binary operators of the expression language, shared by the DSL and the IR.
#pragma once

#include <cstdint>

namespace frazil::dsl {

enum class Operator : uint8_t {
  Eq,
  NotEq,
  Lt,
  LtEq,
  Gt,
  GtEq,
  EqValidity,     // == with null == null (eq_missing)
  NotEqValidity,  // != with null == null (ne_missing)
  Plus,
  Minus,
  Multiply,
  TrueDivide,
  FloorDivide,
  Modulus,
  And,  // & : Kleene AND on booleans, bitwise on integers
  Or,
  Xor,
};

const char* operator_symbol(Operator op);  // "==", "+", "&", ...
inline bool is_comparison(Operator op) { return op <= Operator::NotEqValidity; }
inline bool is_arithmetic(Operator op) { return op >= Operator::Plus && op <= Operator::Modulus; }
inline bool is_logical(Operator op) { return op >= Operator::And; }

}  // namespace frazil::dsl
