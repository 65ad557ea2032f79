// Hashing of rows for group-by, join and unique. Equal values hash equally across
// chunks; floats are canonicalised (-0.0 -> 0.0, every NaN -> one NaN); null has its own
// hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// out[i] = hash(values[i]) if !combine, else out[i] = combine(out[i], hash(values[i])).
void hash_array(const Array& values, uint64_t* out, bool combine);

// Hashes of the rows formed by several key columns of equal length.
std::vector<uint64_t> hash_rows(const std::vector<ArrayRef>& keys);

// Whether row i of `a` equals row j of `b` with null == null and NaN == NaN (group/join
// equality). a and b have the same dtype.
bool values_equal(const Array& a, int64_t i, const Array& b, int64_t j);

// --- Building blocks shared by the hash tables of group-by, join and unique. ---

inline constexpr uint64_t kHashK0 = 0xa0761d6478bd642fULL;
inline constexpr uint64_t kHashK1 = 0xe7037ed1a0b428dbULL;
inline constexpr uint64_t kHashK2 = 0x8ebc6af09c88c6e3ULL;
inline constexpr uint64_t kNullHash = 0x589965cc75374cc3ULL;

// 64x64 -> 128 multiply folded to 64 bits: a fast, well-mixing primitive.
inline uint64_t hash_mum(uint64_t a, uint64_t b) {
  unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}
inline uint64_t hash_u64(uint64_t x) { return hash_mum(x ^ kHashK0, kHashK1); }
inline uint64_t hash_u128(uint64_t lo, uint64_t hi) { return hash_mum(lo ^ kHashK0, hi ^ kHashK1); }
// Order-dependent: combine(a, b) != combine(b, a).
inline uint64_t hash_combine(uint64_t seed, uint64_t h) { return hash_mum(seed ^ kHashK2, h ^ kHashK0); }
uint64_t hash_bytes(const void* data, size_t len);

// Canonical float bits: -0.0 -> 0.0 and every NaN -> one quiet NaN.
inline uint64_t canonical_f64_bits(double d) {
  if (d != d) return 0x7ff8000000000000ULL;
  if (d == 0.0) return 0;
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
inline uint32_t canonical_f32_bits(float f) {
  if (f != f) return 0x7fc00000U;
  if (f == 0.0f) return 0;
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// A byte string as a 16-byte key: word 0 holds the length and the first 4 bytes; strings of
// at most 12 bytes keep bytes 4..11 in `rest`, longer ones point at their bytes. The
// layout mirrors the Arrow view so keys of string columns are built without copying.
struct BytesKey {
  uint64_t head;
  union {
    uint64_t rest;
    const uint8_t* ptr;
  };
  uint32_t length() const { return static_cast<uint32_t>(head); }
  bool operator==(const BytesKey& o) const {
    if (head != o.head) return false;
    uint32_t n = length();
    if (n <= 12) return rest == o.rest;
    return std::memcmp(ptr + 4, o.ptr + 4, n - 4) == 0;
  }
  const uint8_t* data() const { return length() <= 12 ? reinterpret_cast<const uint8_t*>(&head) + 4 : ptr; }
  uint64_t hash() const {
    return length() <= 12 ? hash_mum(head ^ kHashK0, rest ^ kHashK1) : hash_bytes(ptr, length());
  }

  // From a view; `buffers` are the array's data buffer pointers (buffer 1, 2, ...).
  static BytesKey from_view(const View& v, const uint8_t* const* buffers) {
    BytesKey k;
    std::memcpy(&k.head, &v, 8);
    uint32_t n = v.length;
    if (n <= 12) {
      std::memcpy(&k.rest, reinterpret_cast<const uint8_t*>(&v) + 8, 8);
      // Bytes past the end of an inline string are zero in Arrow, but be robust to junk.
      if (n < 4) k.head &= (1ULL << (32 + 8 * n)) - 1;
      k.rest &= n <= 4 ? 0 : (n >= 12 ? ~0ULL : (1ULL << (8 * (n - 4))) - 1);
    } else {
      k.ptr = buffers[v.buffer_index()] + v.offset();
    }
    return k;
  }
  // From bytes that outlive the key.
  static BytesKey from_bytes(const uint8_t* p, uint32_t n) {
    BytesKey k;
    uint32_t prefix = 0;
    std::memcpy(&prefix, p, n < 4 ? n : 4);
    k.head = n | (static_cast<uint64_t>(prefix) << 32);
    if (n <= 12) {
      k.rest = 0;
      if (n > 4) std::memcpy(&k.rest, p + 4, n - 4);
    } else {
      k.ptr = p;
    }
    return k;
  }
};
static_assert(sizeof(BytesKey) == 16);

// Data buffer pointers of a String/Binary array, indexed by a view's buffer_index().
std::vector<const uint8_t*> view_buffer_pointers(const Array& values);

}  // namespace frazil::compute
