// Bulk unpacking of LSB-first bit-packed integers (Parquet's RLE/bit-packed hybrid and
// DELTA_BINARY_PACKED miniblocks), 8 values per step with the width as a compile-time
// constant so the shifts and masks unroll.
#pragma once

#include <cstddef>
#include <cstdint>

namespace frazil::io::parquet {

// Unpacks `count` values (a multiple of 8) of `bit_width` (0..32) bits from `in`, which
// holds `in_size` readable bytes; bytes past in_size read as zero.
void unpack32(const uint8_t* in, size_t in_size, int bit_width, uint32_t* out, size_t count);
// Same for widths 0..64 into 64-bit values.
void unpack64(const uint8_t* in, size_t in_size, int bit_width, uint64_t* out, size_t count);

}  // namespace frazil::io::parquet
