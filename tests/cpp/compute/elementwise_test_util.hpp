// Helpers for the elementwise kernel tests: build arrays from optional values and read
// them back, so expectations read like Polars' to_list() output.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::test {

template <typename T>
using Opt = std::vector<std::optional<T>>;
inline constexpr std::nullopt_t N = std::nullopt;

template <typename T>
ArrayRef make(const DataType& dtype, const Opt<T>& values) {
  PrimitiveBuilder<T> b(dtype);
  for (const auto& v : values) v ? b.push(*v) : b.push_null();
  return b.finish();
}
inline ArrayRef i64(const Opt<int64_t>& v) { return make<int64_t>(DataType::int64(), v); }
inline ArrayRef i32(const Opt<int32_t>& v) { return make<int32_t>(DataType::int32(), v); }
inline ArrayRef i8(const Opt<int8_t>& v) { return make<int8_t>(DataType::int8(), v); }
inline ArrayRef u8(const Opt<uint8_t>& v) { return make<uint8_t>(DataType::uint8(), v); }
inline ArrayRef u64(const Opt<uint64_t>& v) { return make<uint64_t>(DataType::uint64(), v); }
inline ArrayRef f64(const Opt<double>& v) { return make<double>(DataType::float64(), v); }
inline ArrayRef f32(const Opt<float>& v) { return make<float>(DataType::float32(), v); }

inline ArrayRef bools(const Opt<bool>& values) {
  BooleanBuilder b;
  for (const auto& v : values) v ? b.push(*v) : b.push_null();
  return b.finish();
}

inline ArrayRef strs(const Opt<std::string>& values, DataType dtype = DataType::string()) {
  ViewBuilder b(dtype);
  for (const auto& v : values) v ? b.push(*v) : b.push_null();
  return b.finish();
}

// A copy of `a` placed at offset `pad` of a longer array (garbage rows around it), to test
// kernels on sliced inputs.
inline ArrayRef sliced(const ArrayRef& a, int64_t pad = 3) {
  // Build [a[0..pad) wrapped, a, a] and slice the middle: values around differ from a's.
  std::vector<ArrayRef> parts;
  for (int64_t k = 0; k < pad; ++k) parts.push_back(a->length() ? a->slice(k % a->length(), 1) : a);
  parts.push_back(a);
  parts.push_back(a);
  ArrayRef big = concat_arrays(parts);
  int64_t before = 0;
  for (int64_t k = 0; k < pad; ++k) before += parts[k]->length();
  return big->slice(before, a->length());
}

template <typename T>
Opt<T> values_of(const Array& a) {
  Opt<T> out;
  for (int64_t i = 0; i < a.length(); ++i) {
    if (a.is_null(i)) out.push_back(std::nullopt);
    else out.push_back(a.values<T>()[i]);
  }
  return out;
}
inline Opt<bool> bools_of(const Array& a) {
  Opt<bool> out;
  for (int64_t i = 0; i < a.length(); ++i) out.push_back(a.is_null(i) ? std::nullopt : std::optional<bool>(a.bool_value(i)));
  return out;
}
inline Opt<std::string> strs_of(const Array& a) {
  Opt<std::string> out;
  for (int64_t i = 0; i < a.length(); ++i)
    out.push_back(a.is_null(i) ? std::nullopt : std::optional<std::string>(std::string(a.str_value(i))));
  return out;
}

// Float equality for tests: NaN equals NaN, and the sign of zero matters.
template <typename T>
bool same_float(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

template <typename T>
void expect_floats(const Array& a, const Opt<T>& expected) {
  ASSERT_EQ(a.length(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!expected[i]) {
      EXPECT_TRUE(a.is_null(i)) << "row " << i;
      continue;
    }
    ASSERT_TRUE(a.is_valid(i)) << "row " << i;
    EXPECT_TRUE(same_float(a.values<T>()[i], *expected[i]))
        << "row " << i << ": " << a.values<T>()[i] << " vs " << *expected[i];
  }
}

}  // namespace frazil::test
