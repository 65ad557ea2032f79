// Body compression of the Arrow IPC format: each buffer on its own, as an int64
// uncompressed length (-1: stored uncompressed) followed by an LZ4 frame or a ZSTD frame.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "frazil/core/buffer.hpp"

namespace frazil::io::ipc {

enum class IpcCompression : uint8_t { Uncompressed, Lz4, Zstd };

const char* ipc_compression_name(IpcCompression c);  // "uncompressed", "lz4", "zstd"

// Decompresses one body buffer; throws ComputeError naming `context` when it is malformed.
// An empty buffer stays empty (writers leave empty buffers without a length prefix).
Buffer decompress_ipc_buffer(IpcCompression codec, const Buffer& compressed, const std::string& context);

// Appends the compressed form of [data, data + size) (with its length prefix) to `out`;
// keeps the bytes uncompressed (prefix -1) when compression does not make them smaller.
void compress_ipc_buffer(IpcCompression codec, std::optional<int> level, const uint8_t* data, size_t size,
                         std::vector<uint8_t>& out);

}  // namespace frazil::io::ipc
