// Decimal arithmetic with Polars 2.1's rules: both operands meet at the larger scale and the
// result is Decimal(38, that scale) for + - * / // %; products and quotients round half to
// even; a result past 38 digits or a zero divisor is a ComputeError, as in Polars.
#pragma once

#include "frazil/compute/arithmetic.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

// The result dtype of `op` on two Decimals.
DataType decimal_arith_dtype(const DataType& l, const DataType& r);

// left op right, both Decimal (any precision and scale).
ArrayRef decimal_arith(ArithOp op, const Array& left, const Array& right);

// Rounding that keeps the scale: to `decimals` places (half to even or half away from
// zero), and floor / ceil to whole numbers. When digits are dropped the result is
// decimal_rounded_dtype (one more digit of precision: a carry can add one, as in Polars);
// otherwise the input is returned as it is.
DataType decimal_rounded_dtype(const DataType& t);
ArrayRef decimal_round(const Array& values, int64_t decimals, bool half_to_even);
ArrayRef decimal_floor(const Array& values);
ArrayRef decimal_ceil(const Array& values);

}  // namespace frazil::compute
