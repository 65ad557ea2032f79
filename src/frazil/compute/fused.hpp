// Fused arithmetic (the kernels of the optimizer's FusedArithmetic rule): a * b + c, a * b - c
// and a - b * c over one float dtype in one pass. Each product and sum is rounded as in the
// unfused expression (no hardware fused multiply-add, as in Polars' kernel), so the results
// equal the unfused ones bit for bit. A length-1 input broadcasts; a null input gives null.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class FusedOp {
  MultiplyAdd,  // fma(a, b, c) = a * b + c
  MultiplySub,  // fms(a, b, c) = a * b - c
  SubMultiply,  // fsm(a, b, c) = a - b * c
};

// Float32 or Float64 operands of one dtype (InvalidOperationError otherwise).
ArrayRef fused_arith(FusedOp op, const Array& a, const Array& b, const Array& c);

}  // namespace frazil::compute
