// Parquet's RLE / bit-packed hybrid encoding (levels, dictionary indices, RLE booleans).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace frazil::io::parquet {

class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  // bit_width 0..32; throws std::runtime_error-derived DecodeError for larger widths.
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width);

  // Decodes up to n values; returns how many were produced (fewer only when the input
  // ends). Bit-packed runs are unpacked straight into `out`, 8 values at a time.
  size_t get_batch(uint32_t* out, size_t n);
  size_t get_batch(int16_t* out, size_t n);
  // Skips up to n values; returns how many were skipped.
  size_t skip(size_t n);

 private:
  bool next_run();

  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  bool rle_ = false;
  uint32_t rle_value_ = 0;
  size_t run_left_ = 0;          // values left in the current run
  const uint8_t* packed_ = nullptr;  // next group of a bit-packed run
  size_t packed_bytes_ = 0;      // bytes of the bit-packed run left from packed_
  uint32_t buffered_[8];
  int buffered_pos_ = 8;         // 8 = no buffered values
};

// Decodes n definition levels of bit width 1 (a column whose max level is 1) straight
// into validity bits: ones are ORed into `bits` (zeroed there beforehand) from bit
// `offset` on. Returns the number of ones. Throws DecodeError when the data ends early
// or holds a level above 1. `bits` must have a spare byte past offset + n.
int64_t decode_levels_to_bits(const uint8_t* data, size_t size, int64_t n, uint8_t* bits, int64_t offset);

// Appends the hybrid encoding of `values` (each < 2^bit_width) to out.
void encode_rle_bitpacked(const uint32_t* values, size_t n, int bit_width, std::vector<uint8_t>& out);

// Bits needed to store values up to max_value.
inline int bit_width_for(uint64_t max_value) {
  int w = 0;
  while (max_value) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

}  // namespace frazil::io::parquet
