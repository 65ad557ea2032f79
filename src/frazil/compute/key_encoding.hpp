// Internal: turns one or more key columns into one flat key per row, so the hash tables of
// group-by, join and unique run one typed loop whatever the key dtypes are:
//   U64   - one fixed-width column, or several packed bit-wise into 64 bits
//   U128  - a Decimal column, or fixed-width columns packed into 128 bits
//   Bytes - a String/Binary column (keys built on its views, no copy), or any other mix of
//           columns row-encoded into bytes (compared with memcmp)
// Floats are canonicalised (-0.0 -> 0.0, one NaN), so equal keys have equal bits.
#pragma once

#include <cstdint>
#include <vector>

#include "frazil/compute/hash.hpp"
#include "frazil/core/array.hpp"
#include "frazil/core/scratch.hpp"

namespace frazil::compute {

struct U128Key {
  uint64_t lo = 0, hi = 0;
  bool operator==(const U128Key& o) const { return lo == o.lo && hi == o.hi; }
  uint64_t hash() const { return hash_u128(lo, hi); }
};

enum class KeyKind { U64, U128, Bytes };

// How rows with a null key are treated.
enum class NullKeys {
  Group,    // null is a value: equal to null (group-by, unique)
  Exclude,  // a row with any null key matches nothing (join)
};

struct EncodedKeys {
  KeyKind kind = KeyKind::U64;
  int64_t length = 0;
  ScratchVector<uint64_t> u64;
  ScratchVector<U128Key> u128;
  ScratchVector<BytesKey> bytes;
  ScratchVector<uint8_t> storage;  // row-encoded bytes that `bytes` point into
  // Rows whose bit is unset are null keys, to be handled apart from the table (the null
  // group, or no match). nullptr when there are none.
  Buffer validity_owned;
  const uint8_t* validity = nullptr;
  int64_t validity_offset = 0;
  bool is_null(int64_t i) const { return validity && !get_bit(validity, validity_offset + i); }
};

// Encodes the key columns (all of one length; at least one). Two key sets with pairwise
// equal dtypes are encoded compatibly (join sides).
EncodedKeys encode_keys(const std::vector<ArrayRef>& keys, NullKeys nulls);

// Keys for grouping alone (group-by, unique), where no other key set must encode alike:
// as encode_keys(keys, NullKeys::Group), except that one String/Binary column whose
// non-null strings are all at most 7 bytes becomes U64 keys (the length in the low 3
// bits, the bytes above), so short codes and flags take the integer tables (a direct
// table for a few distinct 1-byte values).
EncodedKeys encode_group_keys(const std::vector<ArrayRef>& keys);

// Min and max of the non-null U64 keys; false when there are none.
bool u64_key_range(const EncodedKeys& keys, uint64_t* min, uint64_t* max);

}  // namespace frazil::compute
