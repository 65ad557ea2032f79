// Elementwise arithmetic kernels. Numeric operands have the same dtype (the planner inserts
// casts first); an operand of length 1 broadcasts against the other.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class ArithOp { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow };

const char* arith_op_symbol(ArithOp op);  // "+", "-", "*", "/", "//", "%", "**"

// Numeric operands of one dtype. Results keep the dtype, except TrueDiv: Float32 stays
// Float32, everything else gives Float64. Integer FloorDiv/Mod floor towards -inf (Python
// semantics; MIN // -1 wraps to MIN) and give null on division by zero; integer
// Add/Sub/Mul/Pow wrap on overflow as Polars does. Float FloorDiv is floor(a / b) and float
// Mod is a - b * floor(a / b) (so x % 0.0 and x % inf are NaN, as in Polars). Float
// division by zero gives ±inf or NaN. Integer Pow with a negative exponent raises
// InvalidOperationError.
// String + String concatenates (null if either is null).
// Temporal operands (what Polars 2.1 gives):
//   Date - Date               -> Duration('us')
//   Date ± Duration(any unit) -> Date (floored to whole days)
//   Datetime - Datetime       -> Duration(unit)          (same dtype on both sides)
//   Datetime ± Duration       -> Datetime                (same unit); Duration + Datetime too
//   Duration ± Duration       -> Duration; Duration / Duration -> Float64 (same unit)
//   Time - Time               -> Duration('ns')
//   Duration * Int64, Int64 * Duration -> Duration; Duration / Int64 and Duration // Int64
//   -> Duration, floored, null on a zero divisor.
// Anything else raises InvalidOperationError. A Null-typed operand gives all nulls.
ArrayRef arith(ArithOp op, const Array& left, const Array& right);

// An integer base raised to a UInt32 exponent (Polars' integer pow: the exponent is cast to
// u32 first), wrapping on overflow; the result has the base's dtype.
ArrayRef integer_pow(const Array& base, const Array& exponent);

// The dtype arith() returns for these operand dtypes (throws InvalidOperationError when
// the combination is unsupported).
DataType arith_result_dtype(ArithOp op, const DataType& left, const DataType& right);

ArrayRef negate(const Array& values);  // signed numeric and Duration (wraps: -MIN == MIN)
ArrayRef abs(const Array& values);     // numeric and Duration (wraps: abs(MIN) == MIN)

enum class RoundMode { HalfToEven, HalfAwayFromZero };
// Round floats to `decimals` (>= 0) places: x * 10^d rounded, then / 10^d, as Polars
// (default mode half-to-even, Polars' default); integers are returned unchanged.
ArrayRef round(const Array& values, int64_t decimals, RoundMode mode = RoundMode::HalfToEven);
ArrayRef floor(const Array& values);  // floats; integers unchanged
ArrayRef ceil(const Array& values);   // floats; integers unchanged
ArrayRef sqrt(const Array& values);   // -> Float64 (Float32 stays Float32)

}  // namespace frazil::compute
