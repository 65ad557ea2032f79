// Helpers to build small arrays in the hash/aggregate/sort/join tests.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::testing {

template <typename T>
ArrayRef make_array(DataType dtype, const std::vector<std::optional<T>>& vals) {
  PrimitiveBuilder<T> b(std::move(dtype));
  for (const auto& v : vals) {
    if (v) b.push(*v);
    else b.push_null();
  }
  return b.finish();
}
inline ArrayRef i64(const std::vector<std::optional<int64_t>>& v) {
  return make_array<int64_t>(DataType::int64(), v);
}
inline ArrayRef i32(const std::vector<std::optional<int32_t>>& v) {
  return make_array<int32_t>(DataType::int32(), v);
}
inline ArrayRef u32(const std::vector<std::optional<uint32_t>>& v) {
  return make_array<uint32_t>(DataType::uint32(), v);
}
inline ArrayRef f64(const std::vector<std::optional<double>>& v) {
  return make_array<double>(DataType::float64(), v);
}
inline ArrayRef f32(const std::vector<std::optional<float>>& v) {
  return make_array<float>(DataType::float32(), v);
}
inline ArrayRef boolean(const std::vector<std::optional<bool>>& v) {
  BooleanBuilder b;
  for (const auto& x : v) {
    if (x) b.push(*x);
    else b.push_null();
  }
  return b.finish();
}
inline ArrayRef str(const std::vector<std::optional<std::string>>& v) {
  ViewBuilder b;
  for (const auto& x : v) {
    if (x) b.push(*x);
    else b.push_null();
  }
  return b.finish();
}
// The same values at a non-zero, non-byte-aligned offset: null rows are glued before and
// after and sliced away again.
inline ArrayRef sliced(const ArrayRef& a, int64_t pad = 3) {
  ArrayRef junk = make_null_array(a->dtype(), pad);
  return concat_arrays({junk, a, junk})->slice(pad, a->length());
}
inline const double kNaN = std::nan("");

}  // namespace frazil::testing
