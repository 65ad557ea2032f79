// Elementwise mathematical kernels: trigonometric, hyperbolic, exponential and logarithmic
// functions, sign, clip, rounding to significant figures, truncation, bit counts, is_close.
// Nulls stay null; the dtype rules are Polars 2.1's.
#pragma once

#include <cstdint>

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class FloatFn : uint8_t {
  Sin, Cos, Tan, Cot, Arcsin, Arccos, Arctan, Sinh, Cosh, Tanh, Arcsinh, Arccosh, Arctanh,
  Degrees, Radians, Exp, Log, Log1p, Log10, Cbrt, Erf, Erfc,
};

// The function over the values read as floats: Float32 stays Float32 (computed in float),
// every other number (Boolean, Decimal, integers) is read as Float64.
ArrayRef float_fn(FloatFn fn, const Array& values);
// log(x) / log(base), elementwise (a one-row side broadcasts); Float32 when x is Float32.
ArrayRef log_base(const Array& values, const Array& base);
// atan2(y, x): Float32 when both are Float32, else Float64.
ArrayRef arctan2(const Array& y, const Array& x);

// -1, 0 or 1 in the input's dtype (floats: NaN stays NaN and ±0.0 keeps its sign; unsigned:
// 0 or 1; Decimal: ±1 at its scale).
ArrayRef sign(const Array& values);

// Values clamped to [lower, upper]; either bound may be absent (nullptr). The bounds are
// cast to the values' dtype (1.5 bounds an integer column at 1); a null bound clamps
// nothing on its row. Numeric and temporal dtypes.
ArrayRef clip(const Array& values, const Array* lower, const Array* upper);

// Rounded to `digits` (>= 1) significant digits, half to even at the decimal split (Polars'
// algorithm: integers are rounded too and keep their dtype).
ArrayRef round_sig_figs(const Array& values, int digits);
// Truncated toward zero to `decimals` places (floats, decimals); integers unchanged.
ArrayRef truncate(const Array& values, int decimals);

enum class BitCount : uint8_t { CountOnes, CountZeros, LeadingOnes, LeadingZeros, TrailingOnes, TrailingZeros };
// Counts over the bits of each integer (of its width) or Boolean (one bit) -> UInt32.
ArrayRef bit_count(BitCount what, const Array& values);

// |a - b| <= max(rel_tol * max(|a|, |b|), abs_tol), elementwise over numbers read as Float64
// (infinities are close only to themselves; NaN to NaN when nans_equal). Boolean.
ArrayRef is_close(const Array& a, const Array& b, double abs_tol, double rel_tol, bool nans_equal);

}  // namespace frazil::compute
