// DELTA_BINARY_PACKED (and the length/prefix streams of DELTA_LENGTH_BYTE_ARRAY and
// DELTA_BYTE_ARRAY) decoding; BYTE_STREAM_SPLIT decoding.
#pragma once

#include <cstddef>
#include <cstdint>

namespace frazil::io::parquet {

class DeltaBinaryPackedDecoder {
 public:
  // Parses the header; throws DecodeError when it is malformed.
  DeltaBinaryPackedDecoder(const uint8_t* data, size_t size);

  uint64_t total_values() const { return total_; }
  // Decodes the first n values (n <= total_values()) into out; integers wrap as in the
  // column's physical width (the caller truncates int64 results for INT32 columns).
  void decode(int64_t* out, size_t n);
  // After decoding all total_values(): bytes the encoding took (where the next stream
  // begins). Throws when the last miniblock is cut short.
  size_t consumed() const;

 private:
  bool read_varint(uint64_t& v);

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  uint64_t block_size_ = 0;
  uint64_t miniblocks_ = 0;
  uint64_t per_miniblock_ = 0;
  uint64_t total_ = 0;
  int64_t first_ = 0;
  bool truncated_ = false;
};

// BYTE_STREAM_SPLIT: value i's byte b is stream b's byte i (width bytes per value).
void decode_byte_stream_split(const uint8_t* in, size_t num_values, size_t stride, int width,
                              uint8_t* out);

}  // namespace frazil::io::parquet
