#include "frazil/io/parquet/delta.hpp"

#include <algorithm>
#include <cstring>

#include "frazil/io/parquet/bit_unpack.hpp"
#include "frazil/io/parquet/decode_error.hpp"

namespace frazil::io::parquet {

bool DeltaBinaryPackedDecoder::read_varint(uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= size_) return false;
    uint8_t b = data_[pos_++];
    v |= uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

DeltaBinaryPackedDecoder::DeltaBinaryPackedDecoder(const uint8_t* data, size_t size)
    : data_(data), size_(size) {
  uint64_t first;
  if (!read_varint(block_size_) || !read_varint(miniblocks_) || !read_varint(total_) || !read_varint(first))
    throw DecodeError("DELTA_BINARY_PACKED header past the end of the page");
  if (block_size_ == 0 || block_size_ % 128 != 0 || block_size_ > (1u << 20) || miniblocks_ == 0 ||
      block_size_ % miniblocks_ != 0 || (block_size_ / miniblocks_) % 32 != 0)
    throw DecodeError("DELTA_BINARY_PACKED header has an invalid block layout");
  per_miniblock_ = block_size_ / miniblocks_;
  first_ = static_cast<int64_t>(first >> 1) ^ -static_cast<int64_t>(first & 1);
}

void DeltaBinaryPackedDecoder::decode(int64_t* out, size_t n) {
  if (n > total_) throw DecodeError("DELTA_BINARY_PACKED page holds fewer values than needed");
  // The stream is re-read from just after the header each time decode() is called.
  const size_t header_end = pos_;
  if (n == 0) return;
  uint64_t last = static_cast<uint64_t>(first_);
  out[0] = first_;
  size_t done = 1;
  uint64_t unpacked[32];
  // Values after the first; blocks are read until `total_` is covered so that
  // consumed() can report where the encoding ends.
  size_t want_total = total_ - 1;
  size_t produced = 0;
  while (produced < want_total) {
    uint64_t zz;
    if (!read_varint(zz)) throw DecodeError("DELTA_BINARY_PACKED block header past the end of the page");
    int64_t min_delta = static_cast<int64_t>(zz >> 1) ^ -static_cast<int64_t>(zz & 1);
    if (pos_ > size_ || size_ - pos_ < miniblocks_) throw DecodeError("DELTA_BINARY_PACKED bit widths past the end of the page");
    const uint8_t* widths = data_ + pos_;
    pos_ += miniblocks_;
    for (uint64_t m = 0; m < miniblocks_ && produced < want_total; ++m) {
      int w = widths[m];
      if (w > 64) throw DecodeError("DELTA_BINARY_PACKED bit width above 64");
      size_t mb_bytes = per_miniblock_ * w / 8;
      size_t avail = pos_ < size_ ? size_ - pos_ : 0;
      if (avail < mb_bytes) truncated_ = true;
      size_t take = std::min<uint64_t>(per_miniblock_, want_total - produced);
      // Unpack only the values that are still needed (in steps of 32).
      for (size_t s = 0; s < take; s += 32) {
        size_t k = std::min<size_t>(32, take - s);
        size_t off = s * w / 8;
        if (done < n) {
          unpack64(data_ + std::min(pos_ + off, size_), off < avail ? avail - off : 0, w, unpacked, 32);
          for (size_t i = 0; i < k && done < n; ++i) {
            last += static_cast<uint64_t>(min_delta) + unpacked[i];
            out[done++] = static_cast<int64_t>(last);
          }
        }
      }
      produced += take;
      pos_ += mb_bytes;
    }
  }
  (void)header_end;
}

size_t DeltaBinaryPackedDecoder::consumed() const {
  if (truncated_ || pos_ > size_) throw DecodeError("DELTA_BINARY_PACKED miniblock past the end of the page");
  return pos_;
}

void decode_byte_stream_split(const uint8_t* in, size_t n, size_t stride, int width, uint8_t* out) {
  switch (width) {
    case 4:
      for (size_t i = 0; i < n; ++i) {
        uint8_t* o = out + i * 4;
        o[0] = in[i];
        o[1] = in[stride + i];
        o[2] = in[2 * stride + i];
        o[3] = in[3 * stride + i];
      }
      return;
    case 8:
      for (size_t i = 0; i < n; ++i) {
        uint8_t* o = out + i * 8;
        for (int b = 0; b < 8; ++b) o[b] = in[b * stride + i];
      }
      return;
    default:
      for (size_t i = 0; i < n; ++i)
        for (int b = 0; b < width; ++b) out[i * width + b] = in[b * stride + i];
  }
}

}  // namespace frazil::io::parquet
