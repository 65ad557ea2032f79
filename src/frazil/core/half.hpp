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

}  // namespace frazil
