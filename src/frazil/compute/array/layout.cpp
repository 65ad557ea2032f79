#include "frazil/compute/array/layout.hpp"

#include <vector>

#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

ArrayRef regular_array(const Array& a) {
  FRAZIL_CHECK(a.dtype().id() == TypeId::Array);
  const int64_t w = a.dtype().width(), n = a.length();
  const int64_t* o = a.list_offsets();
  bool regular = true;
  for (int64_t i = 0; regular && i <= n; ++i) regular = o[i] == o[0] + i * w;
  if (regular && a.offset() == 0 && o[0] == 0 && a.child(0)->length() == n * w) return a.slice(0, n);
  // Offset-0 validity and offsets i * width.
  Buffer validity;
  if (a.null_count() > 0) {
    validity = Buffer::zeroed(bitmap_bytes(n));
    for (int64_t i = 0; i < n; ++i)
      if (a.is_valid(i)) set_bit(validity.mutable_data(), i);
  }
  Buffer offsets = Buffer::allocate((n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i <= n; ++i) offsets.mutable_as<int64_t>()[i] = i * w;
  ArrayRef child;
  if (regular) {
    child = a.child(0)->slice(o[0], n * w);
  } else {
    // Gather the valid rows' values; a null row gets width null values.
    std::vector<IdxSize> idx;
    idx.reserve(static_cast<size_t>(n * w));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < w; ++k) idx.push_back(a.is_valid(i) ? static_cast<IdxSize>(o[i] + k) : kNullIdx);
    child = take(*a.child(0), idx);
  }
  return Array::make(a.dtype(), n, std::move(validity), {std::move(offsets)}, {std::move(child)}, 0, a.null_count());
}

ArrayRef array_as_list(const Array& a) {
  FRAZIL_CHECK(a.dtype().id() == TypeId::Array);
  return a.with_dtype(DataType::list(a.dtype().inner()));
}

ArrayRef list_to_array(const Array& list, int64_t width) {
  FRAZIL_CHECK(list.dtype().is_list_like());
  const int64_t* o = list.list_offsets();
  for (int64_t i = 0; i < list.length(); ++i)
    if (list.is_valid(i) && o[i + 1] - o[i] != width)
      throw ComputeError(err_msg("not all elements have the specified width ", width));
  return list.with_dtype(DataType::array(list.dtype().inner(), width));
}

}  // namespace frazil::compute

namespace frazil::compute {

ArrayRef array_window(const Array& a, int64_t start, int64_t width) {
  FRAZIL_CHECK(a.dtype().id() == TypeId::Array);
  const int64_t w = a.dtype().width(), n = a.length();
  FRAZIL_CHECK(start >= 0 && width >= 0 && start + width <= w);
  ArrayRef r = regular_array(a);
  std::vector<IdxSize> idx;
  idx.reserve(static_cast<size_t>(n * width));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < width; ++k) idx.push_back(static_cast<IdxSize>(i * w + start + k));
  ArrayRef child = take(*r->child(0), idx);
  Buffer offsets = Buffer::allocate((n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i <= n; ++i) offsets.mutable_as<int64_t>()[i] = i * width;
  return Array::make(DataType::array(a.dtype().inner(), width), n, r->validity_buffer(), {std::move(offsets)},
                     {std::move(child)}, 0, r->null_count());
}

}  // namespace frazil::compute
