// InternTable: an open-addressing hash set of dense ids (linear probing, power-of-two
// capacity, at most half full). Each slot keeps the full 64-bit hash it was interned
// under, so growing never re-hashes a node and most mismatches cost one integer compare.
// Equality is the caller's: two entries with one hash cost a comparison, never a merge.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace frazil::plan {

class InternTable {
 public:
  // Returns the interned id that `equal(id)` accepts among those stored under `hash`, or
  // stores `new_id` and returns it; `.second` tells whether it was inserted.
  template <typename Equal>
  std::pair<uint32_t, bool> find_or_insert(uint64_t hash, uint32_t new_id, Equal&& equal) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = spread(hash) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.id_plus_one == 0) {
        s = Slot{hash, new_id + 1};
        ++size_;
        return {new_id, true};
      }
      if (s.hash == hash) {
        ++comparisons_;
        if (equal(s.id_plus_one - 1)) return {s.id_plus_one - 1, false};
      }
    }
  }

  size_t size() const { return size_; }
  size_t capacity() const { return slots_.size(); }
  // How many full equality tests were run: the price of equal hashes.
  uint64_t comparisons() const { return comparisons_; }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t id_plus_one = 0;  // 0: empty
  };

  // Low bits pick the slot, so fold the high bits in (the hash may be weak there).
  static uint64_t spread(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.id_plus_one == 0) continue;
      size_t i = spread(s.hash) & mask;
      while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  uint64_t comparisons_ = 0;
};

// Mixes `v` into the running hash `h` (order-sensitive).
inline uint64_t hash_combine(uint64_t h, uint64_t v) {
  return h ^ (v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2));
}

}  // namespace frazil::plan
