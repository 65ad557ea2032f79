// Kernels for the dtypes without a native C++ arithmetic type in the shared dispatch:
// Int128 / UInt128 (16-byte two's complement words) and Float16 (IEEE half, 2 bytes).
// Float16 computes in Float32 and stores back, as Polars does; the 128-bit integers wrap
// like the other integers.
#pragma once

#include <string>

#include "frazil/compute/arithmetic.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

using u128 = unsigned __int128;
using i128 = __int128;

// Int128, UInt128 or Float16: the dtypes these kernels own.
inline bool is_wide_numeric(const DataType& t) {
  return t.id() == TypeId::Int128 || t.id() == TypeId::UInt128 || t.id() == TypeId::Float16;
}

// Lenient cast (values that do not fit become null) where `from` or `to` is a wide dtype
// and the other is a primitive number, Boolean, String or Decimal.
ArrayRef wide_cast(const Array& a, const DataType& to);

// Float16 <-> Float32 (exact one way; round to nearest even the other).
ArrayRef float16_to_float32(const Array& a);
ArrayRef float32_to_float16(const Array& a);
// Float16 columns as Float32, other arrays shared (for kernels that compute in Float32).
ArrayRef widen_float16(const Array& a);

// Arithmetic on two arrays of the same 128-bit integer dtype: + - * wrap, // and % give
// null on a zero divisor (floor semantics), / gives Float64, ** wraps.
ArrayRef int128_arith(ArithOp op, const Array& left, const Array& right);
// Negation and absolute value of Int128 (wrapping at the minimum).
ArrayRef int128_negate(const Array& a);
ArrayRef int128_abs(const Array& a);

// Decimal digits of a 128-bit integer value.
std::string format_i128(i128 v);
std::string format_u128(u128 v);
// Parses an optionally signed run of decimal digits; false on anything else or overflow.
bool parse_i128(std::string_view s, i128& out);
bool parse_u128(std::string_view s, u128& out);

}  // namespace frazil::compute
