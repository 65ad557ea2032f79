// Reductions beyond compute::aggregate's: product, skew, kurtosis, nan_min/nan_max,
// arg_min/arg_max, min_by/max_by, bitwise and/or/xor, entropy. Each reduces a whole array
// (one row) or every group of a Groups at once (one row per group, without gathering).
// Nulls are skipped; dtype rules are Polars 2.1's.
#pragma once

#include <string>

#include "frazil/compute/aggregate.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class StatKind : uint8_t {
  Product,     // Int64 for integers below 64 bits and Boolean; UInt64, floats keep; empty: 1
  Skew,        // Float64 (options.bias)
  Kurtosis,    // Float64 (options.fisher, options.bias)
  NanMin,      // min/max where any NaN gives NaN; the input's dtype
  NanMax,
  ArgMin,      // UInt32: the first row of the extreme non-null value (NaN only if all are)
  ArgMax,
  BitAnd,      // integers, Boolean: the input's dtype; no value: null
  BitOr,
  BitXor,
  Entropy,     // -sum(p * ln p) / ln(base), p = x / sum(x) when normalize; Float64 (Float32 keeps)
};

struct StatOptions {
  bool bias = true;
  bool fisher = true;
  double base = 2.718281828459045;
  bool normalize = true;
};

const char* stat_name(StatKind kind);  // "product", ...
DataType stat_dtype(StatKind kind, const DataType& input);

// One value (an array of one row) / one value per group.
ArrayRef reduce(StatKind kind, const Array& values, const StatOptions& options = {});
ArrayRef reduce_grouped(StatKind kind, const Array& values, const Groups& groups, const StatOptions& options = {});

// The value of `values` at the row where `by` is smallest (largest); null when `by` has no
// value. The whole array, or every group.
ArrayRef value_by(const Array& values, const Array& by, bool largest);
ArrayRef value_by_grouped(const Array& values, const Array& by, const Groups& groups, bool largest);

// The values of each group as one list (in row order), one row per group.
ArrayRef implode_grouped(const Array& values, const Groups& groups);

}  // namespace frazil::compute
