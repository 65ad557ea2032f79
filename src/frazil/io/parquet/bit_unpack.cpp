#include "frazil/io/parquet/bit_unpack.hpp"

#include <array>
#include <cstring>
#include <utility>

namespace frazil::io::parquet {

namespace {

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// One group of 8 values of W bits; `in` must have W + 8 readable bytes.
template <int W>
inline void unpack8(const uint8_t* in, uint32_t* out) {
  if constexpr (W == 0) {
    for (int k = 0; k < 8; ++k) out[k] = 0;
  } else {
    constexpr uint64_t mask = W == 32 ? 0xFFFFFFFFull : ((uint64_t(1) << W) - 1);
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      const int bit = k * W;
      out[k] = static_cast<uint32_t>((load64(in + (bit >> 3)) >> (bit & 7)) & mask);
    }
  }
}

template <int W>
void unpack_w(const uint8_t* in, size_t in_size, uint32_t* out, size_t count) {
  size_t groups = count / 8;
  size_t g = 0;
  // Fast path while a whole 8-byte load past the group stays in bounds.
  while (g < groups && g * W + W + 8 <= in_size) {
    unpack8<W>(in + g * W, out + g * 8);
    ++g;
  }
  for (; g < groups; ++g) {
    uint8_t tmp[48] = {0};
    size_t start = g * W;
    if (start < in_size) std::memcpy(tmp, in + start, in_size - start < size_t(W) ? in_size - start : size_t(W));
    unpack8<W>(tmp, out + g * 8);
  }
}

using Unpack32Fn = void (*)(const uint8_t*, size_t, uint32_t*, size_t);

template <int... Ws>
constexpr auto make_table(std::integer_sequence<int, Ws...>) {
  return std::array<Unpack32Fn, sizeof...(Ws)>{&unpack_w<Ws>...};
}

}  // namespace

void unpack32(const uint8_t* in, size_t in_size, int bit_width, uint32_t* out, size_t count) {
  static constexpr auto table = make_table(std::make_integer_sequence<int, 33>{});
  table[bit_width](in, in_size, out, count);
}

void unpack64(const uint8_t* in, size_t in_size, int bit_width, uint64_t* out, size_t count) {
  if (bit_width <= 32) {
    // Widths up to 32 reuse the unrolled path, widened afterwards.
    uint32_t tmp[64];
    size_t done = 0;
    while (done < count) {
      size_t n = count - done < 64 ? count - done : 64;
      size_t byte = done * bit_width / 8;
      unpack32(in + (byte < in_size ? byte : in_size), byte < in_size ? in_size - byte : 0, bit_width,
               tmp, n);
      for (size_t i = 0; i < n; ++i) out[done + i] = tmp[i];
      done += n;
    }
    return;
  }
  const uint64_t mask = bit_width == 64 ? ~uint64_t(0) : ((uint64_t(1) << bit_width) - 1);
  for (size_t i = 0; i < count; ++i) {
    size_t bit = i * bit_width;
    size_t byte = bit >> 3;
    int shift = static_cast<int>(bit & 7);
    uint8_t tmp[16] = {0};
    if (byte < in_size) std::memcpy(tmp, in + byte, in_size - byte < 16 ? in_size - byte : 16);
    uint64_t lo = load64(tmp), hi = load64(tmp + 8);
    uint64_t v = lo >> shift;
    if (shift) v |= hi << (64 - shift);
    out[i] = v & mask;
  }
}

}  // namespace frazil::io::parquet
