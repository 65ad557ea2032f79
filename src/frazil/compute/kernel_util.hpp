// Internal helpers shared by the elementwise kernels: dtype -> C++ type dispatch, word-wise
// bitmap reads at any bit offset, broadcast rules and validity combination.
// Not part of the public compute API.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "frazil/core/array.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute::detail {

template <typename T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with T the C++ value type of a primitive numeric dtype.
template <typename F>
decltype(auto) dispatch_numeric(TypeId id, F&& f) {
  switch (id) {
    case TypeId::Int8: return f(Tag<int8_t>{});
    case TypeId::Int16: return f(Tag<int16_t>{});
    case TypeId::Int32: return f(Tag<int32_t>{});
    case TypeId::Int64: return f(Tag<int64_t>{});
    case TypeId::UInt8: return f(Tag<uint8_t>{});
    case TypeId::UInt16: return f(Tag<uint16_t>{});
    case TypeId::UInt32: return f(Tag<uint32_t>{});
    case TypeId::UInt64: return f(Tag<uint64_t>{});
    case TypeId::Float32: return f(Tag<float>{});
    case TypeId::Float64: return f(Tag<double>{});
    default: break;
  }
  throw InternalError("dispatch_numeric on a non-numeric dtype");
}

// Same, for integer dtypes only.
template <typename F>
decltype(auto) dispatch_integer(TypeId id, F&& f) {
  switch (id) {
    case TypeId::Int8: return f(Tag<int8_t>{});
    case TypeId::Int16: return f(Tag<int16_t>{});
    case TypeId::Int32: return f(Tag<int32_t>{});
    case TypeId::Int64: return f(Tag<int64_t>{});
    case TypeId::UInt8: return f(Tag<uint8_t>{});
    case TypeId::UInt16: return f(Tag<uint16_t>{});
    case TypeId::UInt32: return f(Tag<uint32_t>{});
    case TypeId::UInt64: return f(Tag<uint64_t>{});
    default: break;
  }
  throw InternalError("dispatch_integer on a non-integer dtype");
}

// Same, with Int128 and UInt128 too (for kernels whose arithmetic is written for any width).
template <typename F>
decltype(auto) dispatch_integer_wide(TypeId id, F&& f) {
  if (id == TypeId::Int128) return f(Tag<__int128>{});
  if (id == TypeId::UInt128) return f(Tag<unsigned __int128>{});
  return dispatch_integer(id, std::forward<F>(f));
}
template <typename F>
decltype(auto) dispatch_numeric_wide(TypeId id, F&& f) {
  if (id == TypeId::Int128) return f(Tag<__int128>{});
  if (id == TypeId::UInt128) return f(Tag<unsigned __int128>{});
  return dispatch_numeric(id, std::forward<F>(f));
}

// Fixed-width storage by byte width (for kernels that only move values around).
template <typename F>
decltype(auto) dispatch_width(int width, F&& f) {
  switch (width) {
    case 1: return f(Tag<uint8_t>{});
    case 2: return f(Tag<uint16_t>{});
    case 4: return f(Tag<uint32_t>{});
    case 8: return f(Tag<uint64_t>{});
    case 16: return f(Tag<__int128>{});
    default: break;
  }
  throw InternalError("dispatch_width on an unsupported width");
}

// ---- bitmaps --------------------------------------------------------------------------

// Reads `nbits` (1..64) bits starting at bit `off`, LSB first, touching only the bytes that
// hold those bits (safe for unpadded foreign buffers).
inline uint64_t read_bits(const uint8_t* p, int64_t off, int nbits) {
  const uint8_t* b = p + (off >> 3);
  const int s = static_cast<int>(off & 7);
  const int nbytes = (s + nbits + 7) >> 3;
  uint64_t w = 0;
  if (nbytes >= 8) {
    std::memcpy(&w, b, 8);
    w >>= s;
    if (nbytes == 9) w |= static_cast<uint64_t>(b[8]) << (64 - s);
  } else {
    std::memcpy(&w, b, nbytes);
    w >>= s;
  }
  return nbits == 64 ? w : (w & ((uint64_t{1} << nbits) - 1));
}

// Writes the low `nbits` of w at word-aligned position `word` of an offset-0 bitmap.
inline void write_word(uint8_t* out, int64_t word, uint64_t w, int nbits) {
  std::memcpy(out + word * 8, &w, static_cast<size_t>((nbits + 7) >> 3));
}

// A source of bits: a bitmap at an offset, or a constant (broadcast scalar, all-valid).
struct BitSource {
  const uint8_t* bits = nullptr;  // nullptr: constant
  int64_t offset = 0;
  uint64_t constant = ~uint64_t{0};
  uint64_t word(int64_t i, int nbits) const {
    return bits ? read_bits(bits, offset + i * 64, nbits) : constant;
  }
  static BitSource of(const uint8_t* bits, int64_t offset) { return {bits, offset, 0}; }
  static BitSource all(bool v) { return {nullptr, 0, v ? ~uint64_t{0} : 0}; }
};

// out (offset 0, n bits) = f(a_word, b_word) word by word.
template <typename F>
void bitmap_binary(BitSource a, BitSource b, int64_t n, uint8_t* out, F f) {
  const int64_t words = n / 64;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t r = f(a.word(w, 64), b.word(w, 64));
    std::memcpy(out + w * 8, &r, 8);
  }
  const int tail = static_cast<int>(n % 64);
  if (tail) write_word(out, words, f(a.word(words, tail), b.word(words, tail)), tail);
}

template <typename F>
void bitmap_unary(BitSource a, int64_t n, uint8_t* out, F f) {
  bitmap_binary(a, BitSource::all(true), n, out, [&](uint64_t x, uint64_t) { return f(x); });
}

// A fresh offset-0 bitmap buffer for n bits (padding zeroed by Buffer::allocate).
inline Buffer alloc_bits(int64_t n) { return Buffer::allocate(static_cast<size_t>(bitmap_bytes(n))); }

// An offset-0 copy of `n` bits of `bits` from `offset` (word-wise).
inline Buffer copy_bitmap(const uint8_t* bits, int64_t offset, int64_t n) {
  Buffer out = alloc_bits(n);
  bitmap_unary(BitSource::of(bits, offset), n, out.mutable_data(), [](uint64_t x) { return x; });
  return out;
}

// The array's validity as an offset-0 bitmap (shared when already at offset 0); empty when
// the array has no nulls.
inline Buffer aligned_validity(const Array& a) {
  if (!a.validity_bits() || a.null_count() == 0) return Buffer();
  if (a.offset() == 0) return a.validity_buffer();
  return copy_bitmap(a.validity_bits(), a.offset(), a.length());
}

inline BitSource validity_source(const Array& a) {
  if (!a.validity_bits() || a.null_count() == 0) return BitSource::all(true);
  return BitSource::of(a.validity_bits(), a.offset());
}

// ---- broadcasting ---------------------------------------------------------------------

// Output length of a binary elementwise kernel; a length-1 side broadcasts.
inline int64_t broadcast_length(const Array& a, const Array& b, const char* what) {
  const int64_t la = a.length(), lb = b.length();
  if (la == lb) return la;
  if (la == 1) return lb;
  if (lb == 1) return la;
  throw ShapeError(err_msg("cannot evaluate ", what, " on arrays of lengths ", la, " and ", lb));
}

// Whether operand `a` is a broadcast scalar given the output length.
inline bool is_broadcast(const Array& a, int64_t n) { return a.length() == 1 && n != 1; }

// Validity of a binary result of length n: empty (all valid) or an offset-0 bitmap.
// `all_null` is set when a broadcast side is null (the caller returns a null array).
inline Buffer combine_validity(const Array& a, const Array& b, int64_t n, bool* all_null) {
  *all_null = false;
  const bool sa = is_broadcast(a, n), sb = is_broadcast(b, n);
  if ((sa && a.is_null(0)) || (sb && b.is_null(0)) || a.dtype().is_null() || b.dtype().is_null()) {
    *all_null = true;
    return Buffer();
  }
  const bool na = !sa && a.null_count() > 0, nb = !sb && b.null_count() > 0;
  if (!na && !nb) return Buffer();
  if (na && !nb) return aligned_validity(a);
  if (!na && nb) return aligned_validity(b);
  Buffer out = alloc_bits(n);
  bitmap_binary(validity_source(a), validity_source(b), n, out.mutable_data(),
                [](uint64_t x, uint64_t y) { return x & y; });
  return out;
}

// A new reference to the same array (buffers shared).
inline ArrayRef share(const Array& a) {
  return Array::make(a.dtype(), a.length(), a.validity_buffer(), a.buffers(), a.children(),
                     a.offset(), a.has_validity() ? -1 : 0);
}

// An array of one dtype holding fixed-width values just computed.
inline ArrayRef make_fixed(DataType dtype, int64_t n, Buffer validity, Buffer values) {
  return Array::make(std::move(dtype), n, std::move(validity), {std::move(values)});
}

template <typename T>
inline Buffer alloc_values(int64_t n) {
  return Buffer::allocate(static_cast<size_t>(n > 0 ? n : 0) * sizeof(T));
}

// Runs body(std::bool_constant<SA>, std::bool_constant<SB>) for the broadcast shape, so
// the inner loop is compiled once per shape with the index arithmetic folded away.
template <typename F>
void with_broadcast(bool sa, bool sb, F&& body) {
  if (!sa && !sb) body(std::false_type{}, std::false_type{});
  else if (sa && !sb) body(std::true_type{}, std::false_type{});
  else if (!sa && sb) body(std::false_type{}, std::true_type{});
  else body(std::true_type{}, std::true_type{});
}

// Packs pred(i) for i in [0, n) into an offset-0 bitmap. Each 64-row block is first
// evaluated into 64 bytes of 0/1 (a loop the compiler vectorizes), then eight bytes at a
// time are folded into a byte: multiplying by 0x0102040810204080 moves byte j's low bit to
// bit 56 + j.
template <typename P>
void pack_bits(int64_t n, uint8_t* out, P pred) {
  constexpr uint64_t kGather = 0x0102040810204080ULL;
  alignas(64) uint8_t tmp[64];
  const int64_t words = n / 64;
  for (int64_t w = 0; w < words; ++w) {
    const int64_t base = w * 64;
    for (int k = 0; k < 64; ++k) tmp[k] = static_cast<uint8_t>(pred(base + k));
    uint64_t r = 0;
    for (int j = 0; j < 8; ++j) {
      uint64_t x;
      std::memcpy(&x, tmp + 8 * j, 8);
      r |= ((x * kGather) >> 56) << (8 * j);
    }
    std::memcpy(out + w * 8, &r, 8);
  }
  const int tail = static_cast<int>(n % 64);
  if (tail) {
    uint64_t r = 0;
    const int64_t base = words * 64;
    for (int k = 0; k < tail; ++k) r |= static_cast<uint64_t>(pred(base + k)) << k;
    write_word(out, words, r, tail);
  }
}

// Float total order used by comparisons: NaN == NaN and NaN above +inf; -0.0 == 0.0.
template <typename T>
inline bool total_eq(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return a == b || (a != a && b != b);
  else return a == b;
}
template <typename T>
inline bool total_lt(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return b != b ? a == a : a < b;
  else return a < b;
}

// Generic broadcasting binary kernel: out[i] = op(a[i], b[i]); null if either is null.
template <typename TA, typename TB, typename R, typename Op>
ArrayRef binary_kernel(const Array& a, const Array& b, const DataType& out, const char* what,
                       Op op) {
  const int64_t n = broadcast_length(a, b, what);
  bool all_null = false;
  Buffer validity = combine_validity(a, b, n, &all_null);
  if (all_null) return make_null_array(out, n);
  Buffer values = alloc_values<R>(n);
  R* o = values.mutable_as<R>();
  const TA* pa = a.values<TA>();
  const TB* pb = b.values<TB>();
  with_broadcast(is_broadcast(a, n), is_broadcast(b, n), [&](auto SA, auto SB) {
    constexpr bool sa = decltype(SA)::value, sb = decltype(SB)::value;
    if constexpr (sa && !sb) {
      const TA x = pa[0];
      for (int64_t i = 0; i < n; ++i) o[i] = op(x, pb[i]);
    } else if constexpr (!sa && sb) {
      const TB y = pb[0];
      for (int64_t i = 0; i < n; ++i) o[i] = op(pa[i], y);
    } else {
      for (int64_t i = 0; i < n; ++i) o[i] = op(pa[sa ? 0 : i], pb[sb ? 0 : i]);
    }
  });
  return make_fixed(out, n, std::move(validity), std::move(values));
}

// Unary kernel over fixed-width values; the validity is kept.
template <typename T, typename R, typename Op>
ArrayRef unary_kernel(const Array& a, const DataType& out, Op op) {
  const int64_t n = a.length();
  if (a.dtype().is_null()) return make_null_array(out, n);
  Buffer values = alloc_values<R>(n);
  R* o = values.mutable_as<R>();
  const T* p = a.values<T>();
  for (int64_t i = 0; i < n; ++i) o[i] = op(p[i]);
  return make_fixed(out, n, aligned_validity(a), std::move(values));
}

}  // namespace frazil::compute::detail
