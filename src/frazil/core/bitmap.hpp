// Bit-packed bitmaps in Arrow's layout (LSB first): validity and boolean values.
#pragma once

#include <cstdint>
#include <cstring>

#include "frazil/core/buffer.hpp"

namespace frazil {

inline bool get_bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void set_bit(uint8_t* bits, int64_t i) { bits[i >> 3] |= uint8_t(1u << (i & 7)); }
inline void clear_bit(uint8_t* bits, int64_t i) { bits[i >> 3] &= uint8_t(~(1u << (i & 7))); }
inline void set_bit_to(uint8_t* bits, int64_t i, bool v) {
  bits[i >> 3] = uint8_t((bits[i >> 3] & ~(1u << (i & 7))) | (uint32_t(v) << (i & 7)));
}
inline int64_t bitmap_bytes(int64_t bits) { return (bits + 7) / 8; }

// Number of set bits in [offset, offset + length).
int64_t count_set_bits(const uint8_t* bits, int64_t offset, int64_t length);
// Copies `length` bits from src starting at src_offset into dst starting at dst_offset.
void copy_bits(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
               int64_t dst_offset);

// A read-only view of `length` bits starting at bit `offset` of a buffer.
class Bitmap {
 public:
  Bitmap() = default;
  Bitmap(Buffer buffer, int64_t offset, int64_t length)
      : buffer_(std::move(buffer)), offset_(offset), length_(length) {}

  bool get(int64_t i) const { return get_bit(buffer_.data(), offset_ + i); }
  int64_t length() const { return length_; }
  int64_t offset() const { return offset_; }
  const Buffer& buffer() const { return buffer_; }
  const uint8_t* data() const { return buffer_.data(); }
  int64_t count_ones() const { return count_set_bits(buffer_.data(), offset_, length_); }
  Bitmap slice(int64_t offset, int64_t length) const {
    return Bitmap(buffer_, offset_ + offset, length);
  }
  // A fresh bitmap with offset 0 holding the same bits.
  Buffer to_aligned_buffer() const;

 private:
  Buffer buffer_;
  int64_t offset_ = 0;
  int64_t length_ = 0;
};

// Appends bits one at a time or in runs; finish() yields a Buffer with offset 0.
class BitmapBuilder {
 public:
  explicit BitmapBuilder(int64_t capacity = 0) { reserve(capacity); }
  void reserve(int64_t bits);
  void push(bool v) {
    if (length_ == capacity_) reserve(capacity_ * 2 + 64);
    set_bit_to(buffer_.mutable_data(), length_++, v);
  }
  void push_n(bool v, int64_t n);
  // Direct access for kernels that write bits by index after resize().
  void resize(int64_t bits, bool value);
  uint8_t* mutable_data() { return buffer_.mutable_data(); }
  int64_t length() const { return length_; }
  Buffer finish();

 private:
  Buffer buffer_;
  int64_t length_ = 0;
  int64_t capacity_ = 0;
};

}  // namespace frazil
