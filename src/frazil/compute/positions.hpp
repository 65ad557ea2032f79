// Kernels of positions: slicing, gathering by index, arg_sort, arg_unique, arg_true,
// gather_every, search_sorted, sample, shuffle, extend_constant, repeat_by.
#pragma once

#include <optional>

#include "frazil/compute/segments.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

// Rows [offset, offset + length) clamped to the array (offset < 0 counts from the end; no
// length: to the end). Zero-copy.
ArrayRef slice_clamped(const Array& values, int64_t offset, std::optional<int64_t> length);

// values[indices[i]] (integer indices; negative count from the end; a null index gives null).
// An index out of bounds raises OutOfBoundsError, or gives null with null_on_oob.
ArrayRef gather(const Array& values, const Array& indices, bool null_on_oob);
// Every n-th row from `offset` (n >= 1).
ArrayRef gather_every(const Array& values, int64_t n, int64_t offset);

// The permutation sorting each segment (UInt32 positions within the segment; stable, nulls
// first or last).
ArrayRef arg_sort_segments(const Array& values, Segments segments, bool descending, bool nulls_last);
// The first row of every distinct value (UInt32, ascending).
ArrayRef arg_unique(const Array& values);
// The rows where a Boolean is true (UInt32).
ArrayRef arg_true(const Array& mask);

// Where each `element` would be inserted into the sorted `values` (ascending, or descending
// with `descending`; nulls first) to keep it sorted: side "left", "right" or "any". UInt32.
ArrayRef search_sorted(const Array& values, const Array& elements, const std::string& side, bool descending);

// `n` rows drawn at random (with or without replacement), in drawn order when `shuffle`,
// else in row order. ShapeError when n exceeds the rows without replacement; an empty
// population with replacement gives no rows (Polars).
ArrayRef sample(const Array& values, int64_t n, bool with_replacement, bool shuffle, std::optional<uint64_t> seed);
// A random permutation of each segment.
ArrayRef shuffle_segments(const Array& values, Segments segments, std::optional<uint64_t> seed);

// The values followed by `n` copies of `value` (one row, cast to the values' dtype).
ArrayRef extend_constant(const Array& values, const Array& value, int64_t n);
// A list per row: the value repeated by[i] times (null by: null list).
ArrayRef repeat_by(const Array& values, const Array& by);

}  // namespace frazil::compute
