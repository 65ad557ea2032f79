// Page compression codecs: UNCOMPRESSED, SNAPPY, GZIP (zlib), ZSTD, LZ4_RAW and the
// old Hadoop-framed LZ4 (with the raw-block fallback other readers use).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frazil/io/parquet/metadata.hpp"

namespace frazil::io::parquet {

// Decompresses exactly `dst_size` bytes into dst; throws CodecError when the input is
// malformed or does not decompress to exactly that many bytes.
void decompress(Codec codec, const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size);

// Compresses into `out` (replacing its contents). `level` is used by ZSTD, GZIP and
// BROTLI; a negative level means the codec's default.
void compress(Codec codec, int level, const uint8_t* src, size_t src_size, std::vector<uint8_t>& out);

bool codec_supported(Codec codec);

class CodecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace frazil::io::parquet
