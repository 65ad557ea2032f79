// Elementwise arithmetic kernels. Both operands have the same dtype (the planner inserts
// casts first); an operand of length 1 broadcasts against the other.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class ArithOp { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow };

const char* arith_op_symbol(ArithOp op);  // "+", "-", "*", "/", "//", "%", "**"

// Numeric operands of one dtype. Results keep the dtype, except TrueDiv: Float32 stays
// Float32, everything else gives Float64. Integer FloorDiv/Mod floor towards -inf (Python
// semantics) and give null on division by zero; integer Add/Sub/Mul wrap on overflow as
// Polars does. Float division by zero gives ±inf or NaN. Integer Pow with a negative
// exponent raises InvalidOperationError.
// Temporal operands: Date - Date -> Duration(ms), Datetime - Datetime -> Duration(unit),
// Datetime ± Duration (same unit) -> Datetime, Date ± Duration -> Datetime? no: the planner
// casts Date to Datetime first; Duration ± Duration -> Duration.
ArrayRef arith(ArithOp op, const Array& left, const Array& right);

// The dtype arith() returns for operands of `dtype` (both sides the same).
DataType arith_result_dtype(ArithOp op, const DataType& left, const DataType& right);

ArrayRef negate(const Array& values);  // numeric and Duration
ArrayRef abs(const Array& values);     // numeric and Duration
// Round half away from zero to `decimals` places (floats); integers unchanged.
ArrayRef round(const Array& values, int decimals);
ArrayRef floor(const Array& values);
ArrayRef ceil(const Array& values);
ArrayRef sqrt(const Array& values);  // -> Float64 (Float32 stays Float32)

}  // namespace frazil::compute
