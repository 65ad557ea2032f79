#include "frazil/core/bitmap.hpp"

#include <bit>

namespace frazil {

int64_t count_set_bits(const uint8_t* bits, int64_t offset, int64_t length) {
  if (length <= 0) return 0;
  int64_t count = 0;
  int64_t i = offset;
  const int64_t end = offset + length;
  // Leading bits up to a byte boundary.
  while (i < end && (i & 7)) count += get_bit(bits, i++);
  // Whole 64-bit words.
  while (i + 64 <= end) {
    uint64_t w;
    std::memcpy(&w, bits + (i >> 3), 8);
    count += std::popcount(w);
    i += 64;
  }
  while (i + 8 <= end) {
    count += std::popcount(static_cast<unsigned>(bits[i >> 3]));
    i += 8;
  }
  while (i < end) count += get_bit(bits, i++);
  return count;
}

void copy_bits(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
               int64_t dst_offset) {
  if (length <= 0) return;
  if ((src_offset & 7) == 0 && (dst_offset & 7) == 0) {
    int64_t whole = length / 8;
    std::memcpy(dst + dst_offset / 8, src + src_offset / 8, whole);
    for (int64_t i = whole * 8; i < length; ++i)
      set_bit_to(dst, dst_offset + i, get_bit(src, src_offset + i));
    return;
  }
  for (int64_t i = 0; i < length; ++i) set_bit_to(dst, dst_offset + i, get_bit(src, src_offset + i));
}

Buffer Bitmap::to_aligned_buffer() const {
  Buffer out = Buffer::zeroed(bitmap_bytes(length_));
  copy_bits(buffer_.data(), offset_, length_, out.mutable_data(), 0);
  return out;
}

void BitmapBuilder::reserve(int64_t bits) {
  if (bits <= capacity_) return;
  Buffer next = Buffer::zeroed(bitmap_bytes(bits));
  if (!buffer_.empty()) std::memcpy(next.mutable_data(), buffer_.data(), bitmap_bytes(length_));
  buffer_ = std::move(next);
  capacity_ = bitmap_bytes(bits) * 8;
}

void BitmapBuilder::push_n(bool v, int64_t n) {
  reserve(length_ + n);
  for (int64_t i = 0; i < n; ++i) set_bit_to(buffer_.mutable_data(), length_ + i, v);
  length_ += n;
}

void BitmapBuilder::resize(int64_t bits, bool value) {
  reserve(bits);
  for (int64_t i = length_; i < bits; ++i) set_bit_to(buffer_.mutable_data(), i, value);
  length_ = bits;
}

Buffer BitmapBuilder::finish() {
  if (buffer_.empty()) reserve(8);
  Buffer out = std::move(buffer_);
  out.set_size(bitmap_bytes(length_));
  buffer_ = Buffer();
  length_ = capacity_ = 0;
  return out;
}

}  // namespace frazil
