// One bit per value of an integer range [lo, lo + size): a set of integers whose membership
// test is a subtraction, a bounds check and a bit test (is_in over a small range, a join
// table's presence bits). Values are taken as unsigned 64-bit: callers map signed values
// so that the range does not wrap.
#pragma once

#include <cstdint>

#include "frazil/core/scratch.hpp"

namespace frazil::compute {

class RangeBitset {
 public:
  RangeBitset() = default;
  // Every bit clear; `size` values from `lo` on (at least 1).
  RangeBitset(uint64_t lo, uint64_t size) : lo_(lo), size_(size), words_((size + 63) / 64, 0) {}

  bool empty() const { return words_.empty(); }
  void insert(uint64_t v) {
    const uint64_t d = v - lo_;
    words_[d >> 6] |= uint64_t{1} << (d & 63);
  }
  bool contains(uint64_t v) const {
    const uint64_t d = v - lo_;
    return d < size_ && ((words_[d >> 6] >> (d & 63)) & 1);
  }

 private:
  uint64_t lo_ = 0, size_ = 0;
  ScratchVector<uint64_t> words_;
};

}  // namespace frazil::compute
