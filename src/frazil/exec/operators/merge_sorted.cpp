#include "frazil/exec/operators/merge_sorted.hpp"

#include <cmath>
#include <type_traits>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/error.hpp"

namespace frazil::exec {

namespace {

using compute::IdxSize;

// Total order of floats: NaN last, -0.0 == 0.0.
template <typename T>
inline bool lt(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// Two-way merge with `get(side, i)` reading a key; a right key goes first only when it is
// strictly smaller (the merge is stable).
template <typename Get>
std::vector<IdxSize> merge_with(const Array& l, const Array& r, bool nulls_first, Get get) {
  const int64_t nl = l.length(), nr = r.length();
  std::vector<IdxSize> out;
  out.reserve(static_cast<size_t>(nl + nr));
  int64_t i = 0, j = 0;
  while (i < nl && j < nr) {
    const bool ln = l.is_null(i), rn = r.is_null(j);
    bool right_first;
    if (ln || rn) right_first = ln && rn ? false : (rn ? nulls_first : !nulls_first);
    else right_first = lt(get(r, j), get(l, i));
    if (right_first) out.push_back(static_cast<IdxSize>(nl + j++));
    else out.push_back(static_cast<IdxSize>(i++));
  }
  while (i < nl) out.push_back(static_cast<IdxSize>(i++));
  while (j < nr) out.push_back(static_cast<IdxSize>(nl + j++));
  return out;
}

ArrayRef physical(const ArrayRef& a) {
  DataType t = a->dtype();
  if (t.is_temporal()) return a->with_dtype(t.physical());
  return a;
}

}  // namespace

std::vector<IdxSize> merge_order(const ArrayRef& left, const ArrayRef& right) {
  ArrayRef l = physical(left), r = physical(right);
  const bool nulls_first = (l->length() > 0 && l->is_null(0)) || (r->length() > 0 && r->is_null(0));
  const DataType t = l->dtype();
  if (t.is_integer() || t.is_boolean()) {
    if (t != DataType::int64()) {
      l = compute::cast(*l, DataType::int64());
      r = compute::cast(*r, DataType::int64());
    }
    return merge_with(*l, *r, nulls_first, [](const Array& a, int64_t i) { return a.values<int64_t>()[i]; });
  }
  if (t.is_float()) {
    if (t != DataType::float64()) {
      l = compute::cast(*l, DataType::float64());
      r = compute::cast(*r, DataType::float64());
    }
    return merge_with(*l, *r, nulls_first, [](const Array& a, int64_t i) { return a.values<double>()[i]; });
  }
  if (t.is_string())
    return merge_with(*l, *r, nulls_first, [](const Array& a, int64_t i) { return a.str_value(i); });
  // Other key types: a stable sort of both, which is the merge on sorted inputs.
  compute::SortOptions o;
  o.descending = {false};
  o.nulls_last = {!nulls_first};
  o.stable = true;
  return compute::arg_sort({concat_arrays({l, r})}, o);
}

DataFrame execute_merge_sorted(const std::vector<DataFrame>& inputs, const std::string& key) {
  FRAZIL_CHECK_EQ(inputs.size(), 2u);
  const DataFrame& left = inputs[0];
  const DataFrame& right = inputs[1];
  const std::vector<IdxSize> order =
      merge_order(left.column(key).as_array(), right.column(key).as_array());
  return compute::take_frame(concat_frames({left, right}).rechunk(), order);
}

}  // namespace frazil::exec
