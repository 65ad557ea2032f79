// Inputs of dtypes a function's kernel is not written for, computed through a wider dtype
// that holds their values exactly, with Polars' output dtype: Float16 through Float32 (a
// Float32 result is given back as Float16: cum_sum, clip, ewm_mean of Float16 are Float16),
// Int128/UInt128 through Float64 for the functions whose result is a float anyway (skew,
// ewm_mean, interpolate, hist). Applied to a row when it is registered.
#pragma once

#include "frazil/functions/function_spec.hpp"

namespace frazil::functions {

// The row also takes Float16 inputs, computed as Float32.
FunctionSpec float16_through_float32(FunctionSpec s);
// The row also takes Int128 and UInt128 inputs, read as Float64 (only for rows whose output
// is not an integer of the input's width).
FunctionSpec wide_ints_as_float64(FunctionSpec s);
// Both: for functions whose result is a float (ewm_mean, skew, hist).
FunctionSpec float16_and_wide_ints(FunctionSpec s);

}  // namespace frazil::functions
