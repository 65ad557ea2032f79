// Exponentially weighted moments over segments (Polars' ewm_mean, ewm_std, ewm_var, ewm_sum
// and their time-based _by forms). Float32 stays Float32; other numbers are read as Float64.
#pragma once

#include "frazil/compute/segments.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class EwmKind : uint8_t { Mean, Std, Var, Sum };

struct EwmOptions {
  double alpha = 0.5;         // in (0, 1]
  bool adjust = true;         // weights normalised over the observed history
  bool bias = false;          // Std/Var: no bias correction
  int64_t min_samples = 1;    // values seen before a result is given
  bool ignore_nulls = false;  // nulls do not count as elapsed time
};

// Null rows stay null. ComputeError when alpha is outside (0, 1].
ArrayRef ewm(EwmKind kind, const Array& values, Segments segments, const EwmOptions& options);

// ewm_mean_by / ewm_sum_by: the weight of a value decays by 0.5 per `half_life` of `by`
// (integers, Date, Datetime; `half_life` in nanoseconds for temporals, in units for
// integers). Rows are taken in `by` order within each segment; a null value or time stays null.
ArrayRef ewm_by(bool mean, const Array& values, const Array& by, Segments segments, int64_t half_life);

}  // namespace frazil::compute
