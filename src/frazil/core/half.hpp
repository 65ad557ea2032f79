// IEEE 754 half precision (Float16) values, stored as their 2-byte bit patterns.
#pragma once

#include <cstdint>
#include <cstring>

namespace frazil {

inline float half_to_float(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

// Round to nearest even, as a hardware conversion does (overflow gives ±inf).
inline uint16_t float_to_half(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

inline uint16_t double_to_half(double d) {
  _Float16 h = static_cast<_Float16>(d);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

// The bits equal halves share: -0.0 as 0.0, every NaN as one quiet NaN (for hashing and
// grouping, as canonical_f64_bits does for doubles).
inline uint16_t canonical_half_bits(uint16_t bits) {
  if ((bits & 0x7fff) == 0) return 0;
  if ((bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0) return 0x7e00;
  return bits;
}

// Ascending order bits of a half (NaN above +inf; -0.0 ties with 0.0).
inline uint16_t half_order_bits(uint16_t bits) {
  const uint16_t b = canonical_half_bits(bits);
  return (b >> 15) ? static_cast<uint16_t>(~b) : static_cast<uint16_t>(b | 0x8000);
}

}  // namespace frazil
