// Tight reduction loops over a buffer of values and an optional validity bitmap: float
// sums, wrapping integer sums and min/max. They work on independent lanes so the compiler
// can keep several accumulators in vector registers (no dependency chain of one add per
// row), read validity 64 rows at a time, and never branch per row.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "frazil/compute/kernel_util.hpp"

namespace frazil::compute::agg {

// Values plus validity (bits == nullptr: all valid) of one array.
template <typename T>
struct ValuesView {
  const T* v;
  int64_t n;
  const uint8_t* bits;  // validity, bit i of row i is at bit `offset + i`
  int64_t offset;
  // Validity of rows [i, i + nbits), nbits in 1..64; all ones without a bitmap.
  uint64_t valid_word(int64_t i, int nbits) const {
    if (!bits) return nbits == 64 ? ~uint64_t{0} : (uint64_t{1} << nbits) - 1;
    return detail::read_bits(bits, offset + i, nbits);
  }
};

// ---- float sum -------------------------------------------------------------------------
// Pairwise summation over blocks of 128 rows, each block summed in 16 lanes that fold in
// halves (16 -> 8 -> 4, then (0+2)+(1+3)); rows that do not fill a block are summed first,
// one by one. Nulls add 0. The error grows with log(n), and small arrays round exactly as
// Polars' float sum does.
constexpr int kSumStripe = 16;
constexpr int64_t kSumBlock = 128;

template <typename F>
inline F fold_lanes(F* lanes) {
  for (int width = kSumStripe; width > 4; width /= 2)
    for (int j = 0; j < width / 2; ++j) lanes[j] = lanes[j] + lanes[width / 2 + j];
  return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
}

template <typename F>
inline F sum_block(const F* v) {
  F lanes[kSumStripe] = {};
  for (int64_t c = 0; c < kSumBlock; c += kSumStripe)
    for (int j = 0; j < kSumStripe; ++j) lanes[j] += v[c + j];
  return fold_lanes(lanes);
}

// x where bit is 1, else y, through the bit patterns: a data-dependent branch per row
// would mispredict on every other row of a random mask.
template <typename T>
inline T select_bit(T x, T y, uint64_t bit) {
  using U = std::conditional_t<sizeof(T) == 16, unsigned __int128,
                               std::conditional_t<sizeof(T) == 8, uint64_t,
                                                  std::conditional_t<sizeof(T) == 4, uint32_t,
                                                                     std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>>;
  U ux, uy;
  std::memcpy(&ux, &x, sizeof(T));
  std::memcpy(&uy, &y, sizeof(T));
  const U m = U(0) - static_cast<U>(bit);
  const U r = (ux & m) | (uy & ~m);
  T out;
  std::memcpy(&out, &r, sizeof(T));
  return out;
}

// A block with nulls: invalid rows add +0.0.
template <typename F>
inline F sum_block_masked(const F* v, uint64_t lo, uint64_t hi) {
  F lanes[kSumStripe] = {};
  for (int64_t c = 0; c < kSumBlock; c += kSumStripe) {
    const uint64_t w = (c < 64 ? lo : hi) >> (c & 63);
    for (int j = 0; j < kSumStripe; ++j) lanes[j] += select_bit(v[c + j], F(0), (w >> j) & 1);
  }
  return fold_lanes(lanes);
}

// Rows [start, start + blocks * 128).
template <typename F>
F pairwise_sum(const ValuesView<F>& a, int64_t start, int64_t blocks) {
  if (blocks == 1) {
    if (!a.bits) return sum_block(a.v + start);
    return sum_block_masked(a.v + start, a.valid_word(start, 64), a.valid_word(start + 64, 64));
  }
  const int64_t left = blocks / 2;
  return pairwise_sum(a, start, left) + pairwise_sum(a, start + left * kSumBlock, blocks - left);
}

template <typename F>
F float_sum(const ValuesView<F>& a) {
  const int64_t rest = a.n % kSumBlock;
  F rest_sum = -F(0);
  for (int64_t i = 0; i < rest; ++i)
    rest_sum += (!a.bits || get_bit(a.bits, a.offset + i)) ? a.v[i] : F(0);
  const int64_t blocks = a.n / kSumBlock;
  const F main_sum = blocks ? pairwise_sum(a, rest, blocks) : F(0);
  return main_sum + rest_sum;
}

// ---- integer sum -----------------------------------------------------------------------
// Sum modulo 2^64 of the valid values (sign-extended), in 8 lanes.
template <typename T>
uint64_t wrapping_sum(const ValuesView<T>& a) {
  auto widen = [](T x) {
    return std::is_signed_v<T> ? static_cast<uint64_t>(static_cast<int64_t>(x)) : static_cast<uint64_t>(x);
  };
  uint64_t lanes[8] = {};
  int64_t i = 0;
  if (!a.bits) {
    for (; i + 8 <= a.n; i += 8)
      for (int j = 0; j < 8; ++j) lanes[j] += widen(a.v[i + j]);
  } else {
    for (; i + 64 <= a.n; i += 64) {
      const uint64_t w = a.valid_word(i, 64);
      if (!w) continue;
      for (int j = 0; j < 64; ++j) lanes[j & 7] += widen(a.v[i + j]) & (uint64_t{0} - ((w >> j) & 1));
    }
  }
  uint64_t acc = 0;
  for (int j = 0; j < 8; ++j) acc += lanes[j];
  for (; i < a.n; ++i)
    if (!a.bits || get_bit(a.bits, a.offset + i)) acc += widen(a.v[i]);
  return acc;
}

// ---- min / max -------------------------------------------------------------------------
// Lanes start at the identity (the type's extreme, or an infinity for floats) and invalid
// rows read as the identity, so no row needs a branch. For floats `x < m ? x : m` skips
// NaN (it compares false), which is the vector min instruction.
template <typename T, bool IsMax>
constexpr T minmax_identity() {
  if constexpr (std::is_floating_point_v<T>)
    return IsMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  else
    return IsMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

template <typename T, bool IsMax>
inline T better(T x, T m) {
  if constexpr (IsMax) return x > m ? x : m;
  else return x < m ? x : m;
}

template <typename T, bool IsMax>
T lanes_extreme(const ValuesView<T>& a) {
  constexpr int kLanes = sizeof(T) >= 16 ? 4 : 64 / static_cast<int>(sizeof(T));
  constexpr T id = minmax_identity<T, IsMax>();
  T lanes[kLanes];
  for (int j = 0; j < kLanes; ++j) lanes[j] = id;
  int64_t i = 0;
  if (!a.bits) {
    for (; i + kLanes <= a.n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) lanes[j] = better<T, IsMax>(a.v[i + j], lanes[j]);
  } else {
    for (; i + 64 <= a.n; i += 64) {
      const uint64_t w = a.valid_word(i, 64);
      if (!w) continue;
      if (w == ~uint64_t{0}) {
        for (int c = 0; c < 64; c += kLanes)
          for (int j = 0; j < kLanes; ++j) lanes[j] = better<T, IsMax>(a.v[i + c + j], lanes[j]);
        continue;
      }
      for (int c = 0; c < 64; c += kLanes)
        for (int j = 0; j < kLanes; ++j)
          lanes[j] = better<T, IsMax>(select_bit(a.v[i + c + j], id, (w >> (c + j)) & 1), lanes[j]);
    }
  }
  T m = id;
  for (int j = 0; j < kLanes; ++j) m = better<T, IsMax>(lanes[j], m);
  for (; i < a.n; ++i)
    if (!a.bits || get_bit(a.bits, a.offset + i)) m = better<T, IsMax>(a.v[i], m);
  return m;
}

// Min (or max) of the valid values; the caller makes sure at least one row is valid.
// Floats: NaN only when every valid value is NaN; among equal values (0.0 and -0.0) the
// last row wins, as in Polars.
template <typename T, bool IsMax>
T extreme(const ValuesView<T>& a) {
  T m = lanes_extreme<T, IsMax>(a);
  if constexpr (std::is_floating_point_v<T>) {
    auto valid = [&](int64_t i) { return !a.bits || get_bit(a.bits, a.offset + i); };
    if (m == minmax_identity<T, IsMax>()) {
      // The identity came from the data only if some valid value is not NaN.
      bool any_number = false;
      for (int64_t i = 0; i < a.n && !any_number; ++i) any_number = valid(i) && a.v[i] == a.v[i];
      if (!any_number) return std::numeric_limits<T>::quiet_NaN();
    } else if (m == T(0)) {
      for (int64_t i = a.n - 1; i >= 0; --i)
        if (a.v[i] == T(0) && valid(i)) return a.v[i];
    }
  }
  return m;
}

}  // namespace frazil::compute::agg
