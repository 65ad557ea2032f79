// Internal helpers shared by the whole-array and grouped reductions.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "frazil/compute/aggregate.hpp"
#include "frazil/core/array.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute::agg {

using int128 = __int128;

template <typename T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with the physical C++ type of a fixed-width dtype (temporals as their
// integers, Decimal as __int128).
template <typename F>
decltype(auto) dispatch_physical(TypeId id, F&& f) {
  switch (id) {
    case TypeId::Int8: return f(Tag<int8_t>{});
    case TypeId::Int16: return f(Tag<int16_t>{});
    case TypeId::Int32:
    case TypeId::Date: return f(Tag<int32_t>{});
    case TypeId::Int64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return f(Tag<int64_t>{});
    case TypeId::UInt8: return f(Tag<uint8_t>{});
    case TypeId::UInt16: return f(Tag<uint16_t>{});
    case TypeId::UInt32: return f(Tag<uint32_t>{});
    case TypeId::UInt64: return f(Tag<uint64_t>{});
    case TypeId::Float32: return f(Tag<float>{});
    case TypeId::Float64: return f(Tag<double>{});
    case TypeId::Decimal:
    case TypeId::Int128: return f(Tag<int128>{});
    case TypeId::UInt128: return f(Tag<unsigned __int128>{});
    default: break;
  }
  FRAZIL_CHECK(false);
  __builtin_unreachable();
}

// Calls f(i) for every valid row, reading the validity 64 bits at a time.
template <typename F>
inline void for_each_valid(const Array& a, F&& f) {
  const int64_t n = a.length();
  if (a.dtype().is_null()) return;
  if (a.null_count() == 0) {
    for (int64_t i = 0; i < n; ++i) f(i);
    return;
  }
  const uint8_t* bits = a.validity_bits();
  const int64_t off = a.offset();
  int64_t i = 0;
  while (i < n) {
    const int64_t m = std::min<int64_t>(64, n - i);
    // Gather up to 64 validity bits starting at bit off + i.
    uint64_t word = 0;
    const int64_t bit = off + i;
    const uint8_t* p = bits + (bit >> 3);
    const int sh = static_cast<int>(bit & 7);
    const int64_t bytes = (m + sh + 7) >> 3;
    unsigned __int128 acc = 0;
    std::memcpy(&acc, p, static_cast<size_t>(bytes));
    word = static_cast<uint64_t>(acc >> sh);
    if (m < 64) word &= (1ULL << m) - 1;
    if (word == (m == 64 ? ~0ULL : (1ULL << m) - 1)) {
      for (int64_t j = 0; j < m; ++j) f(i + j);
    } else {
      while (word) {
        f(i + __builtin_ctzll(word));
        word &= word - 1;
      }
    }
    i += m;
  }
}

template <typename T>
inline double to_double(T v) {
  return static_cast<double>(v);
}

// 10^scale as a double, for Decimal -> Float64.
inline double decimal_divisor(int scale) { return std::pow(10.0, scale); }

enum class Interp { Nearest, Lower, Higher, Midpoint, Linear };

inline Interp parse_interpolation(const std::string& s) {
  if (s == "nearest") return Interp::Nearest;
  if (s == "lower") return Interp::Lower;
  if (s == "higher") return Interp::Higher;
  if (s == "midpoint") return Interp::Midpoint;
  if (s == "linear") return Interp::Linear;
  throw InvalidOperationError(err_msg("unknown quantile interpolation '", s,
                                      "' (expected nearest, lower, higher, midpoint or linear)"));
}

// NaN sorts after every number.
inline bool nan_last_less(double a, double b) { return a < b || (b != b && a == a); }

// The q-quantile of v[0..n) (n > 0), reordering v.
inline double select_quantile(double* v, size_t n, double q, Interp m) {
  const double fidx = static_cast<double>(n - 1) * q;
  size_t lo = static_cast<size_t>(std::floor(fidx));
  size_t hi = static_cast<size_t>(std::ceil(fidx));
  if (hi >= n) hi = n - 1;
  if (lo >= n) lo = n - 1;
  auto nth = [&](size_t k) {
    std::nth_element(v, v + k, v + n, nan_last_less);
    return v[k];
  };
  switch (m) {
    case Interp::Nearest: {
      size_t k = static_cast<size_t>(std::round(fidx));  // halves away from zero
      return nth(std::min(k, n - 1));
    }
    case Interp::Lower: return nth(lo);
    case Interp::Higher: return nth(hi);
    case Interp::Midpoint:
    case Interp::Linear: {
      double a = nth(lo);
      if (hi == lo) return a;
      double b = *std::min_element(v + lo + 1, v + n, nan_last_less);
      if (m == Interp::Midpoint) return (a + b) / 2;
      if (a == b) return a;  // equal infinities: inf, not inf + f * NaN (as Polars)
      return a + (fidx - static_cast<double>(lo)) * (b - a);
    }
  }
  return 0;
}

// A fixed-width array from values and optional validity (1 = valid).
template <typename T>
ArrayRef make_fixed(const DataType& dtype, const std::vector<T>& values,
                    const std::vector<uint8_t>* valid = nullptr) {
  const int64_t n = static_cast<int64_t>(values.size());
  Buffer data = Buffer::allocate(values.size() * sizeof(T));
  if (n) std::memcpy(data.mutable_data(), values.data(), values.size() * sizeof(T));
  Buffer validity;
  int64_t nulls = 0;
  if (valid) {
    for (uint8_t v : *valid) nulls += !v;
    if (nulls) {
      validity = Buffer::zeroed(bitmap_bytes(n));
      for (int64_t i = 0; i < n; ++i)
        if ((*valid)[i]) set_bit(validity.mutable_data(), i);
    }
  }
  return Array::make(dtype, n, validity, {data}, {}, 0, nulls);
}

ArrayRef make_bool(const std::vector<uint8_t>& values, const std::vector<uint8_t>* valid);

}  // namespace frazil::compute::agg
