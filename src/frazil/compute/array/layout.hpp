// The layout of an Array (fixed-size list) column. frazil stores an Array as a List (int64
// offsets + one child) whose valid rows each hold width() values, so every list kernel reads
// it as is; a null row may hold any number of values. Arrow's fixed_size_list and NumPy need
// the strict layout (row i at child[i * width], nulls included): regular_array() makes it.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// The same rows with offset 0, offsets i * width and a child of exactly length * width
// values (a null row holds width null values). Zero-copy when the input already is so.
ArrayRef regular_array(const Array& values);
// The same rows as a List (zero copy).
ArrayRef array_as_list(const Array& values);
// A List whose valid rows all hold `width` values, as an Array(inner, width); ComputeError
// otherwise (Polars' message).
ArrayRef list_to_array(const Array& list, int64_t width);

}  // namespace frazil::compute

namespace frazil::compute {

// Values [start, start + width) of every row, as an Array(inner, width) (arr.head/tail/slice
// with as_array): 0 <= start and start + width <= the input's width.
ArrayRef array_window(const Array& values, int64_t start, int64_t width);

}  // namespace frazil::compute
