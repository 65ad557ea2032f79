// Internal: open-addressing hash tables mapping keys to dense ids (0, 1, 2, ... in order of
// insertion), used by group-by, join and unique. Linear probing over a power-of-two number
// of slots kept at most half full. 64-bit keys live in the slot next to their id (a
// compare is as cheap as a tag check); wider keys (128-bit, byte strings) keep a 32-bit
// hash tag in the slot and the key itself in a dense per-id array.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "frazil/compute/hash.hpp"
#include "frazil/compute/key_encoding.hpp"
#include "frazil/core/scratch.hpp"

namespace frazil::compute {

inline constexpr uint32_t kNoId = UINT32_MAX;

inline uint64_t key_hash(uint64_t k) { return hash_u64(k); }
inline uint64_t key_hash(const U128Key& k) { return k.hash(); }
inline uint64_t key_hash(const BytesKey& k) { return k.hash(); }

inline int table_bits_for(size_t expected) {
  int bits = 4;
  while ((size_t{1} << bits) < expected * 2 && bits < 40) ++bits;
  return bits;
}

// Slots allocated without initialisation cost beyond a memset (an id1 of 0 is empty);
// large tables take recycled blocks (no fresh pages to fault in).
template <typename Slot>
struct SlotArray {
  ScratchVector<Slot> data;
  void reset(size_t n) {
    data = ScratchVector<Slot>();  // the old slots go first
    data.resize(n);
    std::memset(static_cast<void*>(data.data()), 0, n * sizeof(Slot));
  }
};

template <typename K>
class InlineKeyTable {
 public:
  explicit InlineKeyTable(size_t expected) { init(table_bits_for(expected)); }

  uint32_t size() const { return size_; }

  // The key's id; inserts it with id size() when absent.
  uint32_t find_or_insert(const K& key, uint64_t h) {
    size_t pos = h >> shift_;
    for (;;) {
      Slot& s = slots_.data[pos];
      if (s.id1 == 0) {
        s.key = key;
        s.id1 = ++size_;
        if (size_ * 2 > mask_) grow();
        return size_ - 1;
      }
      if (s.key == key) return s.id1 - 1;
      pos = (pos + 1) & mask_;
    }
  }
  uint32_t find(const K& key, uint64_t h) const {
    size_t pos = h >> shift_;
    for (;;) {
      const Slot& s = slots_.data[pos];
      if (s.id1 == 0) return kNoId;
      if (s.key == key) return s.id1 - 1;
      pos = (pos + 1) & mask_;
    }
  }
  void prefetch(uint64_t h) const { __builtin_prefetch(&slots_.data[h >> shift_]); }

 private:
  struct Slot {
    K key;
    uint32_t id1;  // id + 1; 0 marks an empty slot
  };
  void init(int bits) {
    bits_ = bits;
    shift_ = 64 - bits;
    mask_ = (size_t{1} << bits) - 1;
    slots_.reset(mask_ + 1);
  }
  void grow() {
    SlotArray<Slot> old = std::move(slots_);
    size_t old_n = mask_ + 1;
    init(bits_ + 1);
    for (size_t i = 0; i < old_n; ++i) {
      const Slot& s = old.data[i];
      if (s.id1 == 0) continue;
      size_t pos = key_hash(s.key) >> shift_;
      while (slots_.data[pos].id1 != 0) pos = (pos + 1) & mask_;
      slots_.data[pos] = s;
    }
  }

  SlotArray<Slot> slots_;
  size_t mask_ = 0;
  int bits_ = 0;
  int shift_ = 0;
  uint32_t size_ = 0;
};

// Keys kept densely by id; the slot holds a 32-bit hash tag and the id, so a probe touches
// one 8-byte slot and reads the key only when the tag matches. For wide keys (U128Key,
// BytesKey) this takes far less memory than keys in the slots.
template <typename K>
class DenseKeyTable {
 public:
  explicit DenseKeyTable(size_t expected) {
    init(table_bits_for(expected));
    keys_.reserve(expected);
    hashes_.reserve(expected);
  }

  uint32_t size() const { return static_cast<uint32_t>(keys_.size()); }

  uint32_t find_or_insert(const K& key, uint64_t h) {
    size_t pos = h >> shift_;
    const uint32_t tag = static_cast<uint32_t>(h);
    for (;;) {
      uint64_t s = slots_.data[pos];
      if (s == 0) {
        uint32_t id = size();
        keys_.push_back(key);
        hashes_.push_back(h);
        slots_.data[pos] = (uint64_t(tag) << 32) | (id + 1);
        if (keys_.size() * 2 > mask_) grow();
        return id;
      }
      if (uint32_t(s >> 32) == tag && keys_[uint32_t(s) - 1] == key) return uint32_t(s) - 1;
      pos = (pos + 1) & mask_;
    }
  }
  uint32_t find(const K& key, uint64_t h) const {
    size_t pos = h >> shift_;
    const uint32_t tag = static_cast<uint32_t>(h);
    for (;;) {
      uint64_t s = slots_.data[pos];
      if (s == 0) return kNoId;
      if (uint32_t(s >> 32) == tag && keys_[uint32_t(s) - 1] == key) return uint32_t(s) - 1;
      pos = (pos + 1) & mask_;
    }
  }
  void prefetch(uint64_t h) const { __builtin_prefetch(&slots_.data[h >> shift_]); }

 private:
  void init(int bits) {
    bits_ = bits;
    shift_ = 64 - bits;
    mask_ = (size_t{1} << bits) - 1;
    slots_.reset(mask_ + 1);
  }
  void grow() {
    init(bits_ + 1);
    for (uint32_t id = 0; id < keys_.size(); ++id) {
      uint64_t h = hashes_[id];
      size_t pos = h >> shift_;
      while (slots_.data[pos] != 0) pos = (pos + 1) & mask_;
      slots_.data[pos] = (uint64_t(uint32_t(h)) << 32) | (id + 1);
    }
  }

  SlotArray<uint64_t> slots_;
  ScratchVector<K> keys_;
  ScratchVector<uint64_t> hashes_;
  size_t mask_ = 0;
  int bits_ = 0;
  int shift_ = 0;
};

// Small integer ranges: the key minus the minimum indexes the id directly.
class DirectTable {
 public:
  DirectTable(uint64_t min, uint64_t max) : min_(min), ids_(max - min + 1, 0) {}
  uint32_t size() const { return size_; }
  uint32_t find_or_insert(uint64_t key, uint64_t /*h*/) {
    uint32_t& s = ids_[key - min_];
    if (s == 0) s = ++size_;
    return s - 1;
  }
  uint32_t find(uint64_t key, uint64_t /*h*/) const {
    uint64_t d = key - min_;
    if (d >= ids_.size()) return kNoId;
    return ids_[d] - 1;  // 0 - 1 wraps to kNoId
  }
  void prefetch(uint64_t) const {}

  // Whether a range is small enough for direct indexing given n keys.
  static bool fits(uint64_t min, uint64_t max, int64_t n) {
    uint64_t range = max - min;
    return range < (uint64_t(1) << 22) && range <= uint64_t(n) * 2 + 1024;
  }

 private:
  uint64_t min_;
  ScratchVector<uint32_t> ids_;
  uint32_t size_ = 0;
};

// Runs f(table, keys_ptr) with the right table type for the encoded keys. `n` sizes the
// table. Key access is keys_ptr[i] for every kind.
template <typename F>
auto with_key_table(const EncodedKeys& keys, size_t expected, F&& f) {
  switch (keys.kind) {
    case KeyKind::U64: {
      uint64_t lo, hi;
      if (u64_key_range(keys, &lo, &hi) && DirectTable::fits(lo, hi, keys.length)) {
        DirectTable t(lo, hi);
        return f(t, keys.u64.data());
      }
      InlineKeyTable<uint64_t> t(expected);
      return f(t, keys.u64.data());
    }
    case KeyKind::U128: {
      DenseKeyTable<U128Key> t(expected);
      return f(t, keys.u128.data());
    }
    case KeyKind::Bytes:
    default: {
      DenseKeyTable<BytesKey> t(expected);
      return f(t, keys.bytes.data());
    }
  }
}

}  // namespace frazil::compute
