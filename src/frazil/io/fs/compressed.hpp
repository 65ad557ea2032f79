// Whole-input gzip and zstd, for text formats (CSV, NDJSON): a compressed source is told
// apart by its magic bytes and decompressed into memory before it is parsed; writers can
// compress what they write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace frazil::io {

enum class TextCompression : uint8_t { None, Gzip, Zstd };

// From the first bytes: gzip (1f 8b), zstd (28 b5 2f fd), or None.
TextCompression detect_compression(const uint8_t* data, size_t size);

// Decompresses a whole gzip (possibly several members) or zstd (possibly several frames)
// input; throws ComputeError naming `name` when it is corrupt.
std::string decompress(TextCompression kind, const uint8_t* data, size_t size, const std::string& name);

// Compresses a whole output; level unset: the codec's default (gzip 6, zstd 3). Throws
// InvalidOperationError for a level out of range (gzip 0..=9, zstd 1..=22).
std::string compress(TextCompression kind, const std::string& data, std::optional<int> level);
void check_text_compression_level(TextCompression kind, std::optional<int> level);

}  // namespace frazil::io
