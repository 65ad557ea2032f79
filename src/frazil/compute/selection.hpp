// Gathering rows: take by index, filter by mask, and their DataFrame forms.
#pragma once

#include <cstdint>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/frame.hpp"

namespace frazil::compute {

using IdxSize = uint32_t;
// Index value meaning "no row": take() emits null there (left/outer joins).
constexpr IdxSize kNullIdx = UINT32_MAX;

// out[i] = values[indices[i]], null where indices[i] == kNullIdx; an index past the end
// raises OutOfBoundsError. Any dtype; string data buffers are shared, not copied.
ArrayRef take(const Array& values, const IdxSize* indices, int64_t n);
inline ArrayRef take(const Array& values, const std::vector<IdxSize>& indices) {
  return take(values, indices.data(), static_cast<int64_t>(indices.size()));
}
template <typename Alloc>  // ScratchVector<IdxSize>
ArrayRef take(const Array& values, const std::vector<IdxSize, Alloc>& indices) {
  return take(values, indices.data(), static_cast<int64_t>(indices.size()));
}
// Rows where mask is true (null counts as false). mask is Boolean of the same length, or
// of length 1 (keep all or nothing).
ArrayRef filter(const Array& values, const Array& mask);
// `values` with every row where mask is not true (false or null) turned null: the value
// buffers are shared, only a validity bitmap is built. Aggregations that skip nulls (sum,
// min, max, count, mean) then see exactly the rows a filter would keep, without a copy.
// mask is Boolean of the same length.
ArrayRef mask_to_validity(const Array& values, const Array& mask);
// Rows where the mask is true (null counts as false).
int64_t mask_true_count(const Array& mask);
// Indices of the true rows of a mask.
std::vector<IdxSize> mask_to_indices(const Array& mask);

DataFrame take_frame(const DataFrame& df, const std::vector<IdxSize>& indices);
DataFrame filter_frame(const DataFrame& df, const Array& mask);

// Elementwise reshaping.
ArrayRef reverse(const Array& values);
// Shift by n (positive: down, leading nulls; negative: up, trailing nulls).
ArrayRef shift(const Array& values, int64_t n);

}  // namespace frazil::compute
