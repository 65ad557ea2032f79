// Segments: the rows of a length-preserving kernel cut into contiguous runs that are each
// computed on their own (the groups of a group_by or the partitions of an over(), gathered
// group after group). Segment k is rows [offsets[k], offsets[k + 1]); a whole array is the
// one segment {0, n}. Kernels taking Segments use the helpers below.
#pragma once

#include <cstdint>
#include <span>

#include "frazil/compute/kernel_util.hpp"

namespace frazil::compute {

using Segments = std::span<const int64_t>;

namespace detail {

// Checks that the segments cover exactly `n` rows.
inline void check_segments(Segments seg, int64_t n, const char* what) {
  if (seg.empty() || seg.front() != 0 || seg.back() != n)
    throw InternalError(err_msg(what, ": segments do not cover the ", n, " rows"));
}

// An offset-0 validity bitmap being written bit by bit; finish() drops it when nothing is null.
class OutValidity {
 public:
  explicit OutValidity(int64_t n) : bits_(alloc_bits(n)) {}
  void set(int64_t i, bool valid) {
    set_bit_to(bits_.mutable_data(), i, valid);
    nulls_ += !valid;
  }
  Buffer finish() { return nulls_ ? std::move(bits_) : Buffer(); }
  int64_t null_count() const { return nulls_; }

 private:
  Buffer bits_;
  int64_t nulls_ = 0;
};

}  // namespace detail

}  // namespace frazil::compute
