// Kernels over distinct values: is_duplicated, is_unique, is_first_distinct,
// is_last_distinct (per segment), mode, value_counts, unique_counts. Values are equal as in
// a group_by (null equals null, NaN equals NaN, -0.0 equals 0.0).
#pragma once

#include <string>

#include "frazil/compute/segments.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class DistinctTest : uint8_t { Duplicated, Unique, FirstDistinct, LastDistinct };

// Boolean, never null: whether the row's value occurs more than once / once in its segment,
// or the row is its value's first / last occurrence there.
ArrayRef distinct_test(DistinctTest test, const Array& values, Segments segments);

// The most frequent values (each once, in order of first appearance).
ArrayRef mode(const Array& values);
// A Struct {<value name>: values, <count name>: UInt32 count (Float64 share when
// normalize)} with one row per distinct value, in first-appearance order or by count
// (descending; ties in first-appearance order) when `sort`.
ArrayRef value_counts(const Array& values, const std::string& value_name, const std::string& count_name,
                      bool sort, bool normalize);
// The count of each distinct value, in first-appearance order (UInt32).
ArrayRef unique_counts(const Array& values);

}  // namespace frazil::compute
