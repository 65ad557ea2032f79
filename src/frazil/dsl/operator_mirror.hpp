// A comparison with its operands swapped: a < b is b > a. Used where a rule puts the column
// (or the left input's side) first.
#pragma once

#include "frazil/dsl/operator.hpp"

namespace frazil::dsl {

inline Operator mirrored(Operator op) {
  switch (op) {
    case Operator::Lt: return Operator::Gt;
    case Operator::LtEq: return Operator::GtEq;
    case Operator::Gt: return Operator::Lt;
    case Operator::GtEq: return Operator::LtEq;
    default: return op;
  }
}

}  // namespace frazil::dsl
