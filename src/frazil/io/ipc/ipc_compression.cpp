#include "frazil/io/ipc/ipc_compression.hpp"

#include <lz4frame.h>
#include <zstd.h>

#include <cstring>
#include <string>

#include "frazil/core/error.hpp"

namespace frazil::io::ipc {

namespace {

[[noreturn]] void corrupt(const std::string& context, const std::string& what) {
  throw ComputeError(err_msg("IPC ", context, ": malformed compressed buffer: ", what));
}

void lz4_frame_decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size, const std::string& context) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) corrupt(context, "lz4 context");
  size_t in = 0, out = 0;
  std::string error;
  // Frames may follow one another (a writer may split a buffer).
  while (in < n && error.empty()) {
    size_t src_left = n - in, dst_left = dst_size - out;
    const size_t r = LZ4F_decompress(ctx, dst + out, &dst_left, src + in, &src_left, nullptr);
    if (LZ4F_isError(r)) error = LZ4F_getErrorName(r);
    in += src_left;
    out += dst_left;
    if (r == 0) LZ4F_resetDecompressionContext(ctx);
    else if (src_left == 0 && dst_left == 0 && error.empty()) error = "truncated frame";
  }
  LZ4F_freeDecompressionContext(ctx);
  if (!error.empty()) corrupt(context, "lz4: " + error);
  if (out != dst_size) corrupt(context, err_msg("lz4 frame holds ", out, " bytes, the prefix says ", dst_size));
}

}  // namespace

const char* ipc_compression_name(IpcCompression c) {
  switch (c) {
    case IpcCompression::Uncompressed: return "uncompressed";
    case IpcCompression::Lz4: return "lz4";
    case IpcCompression::Zstd: return "zstd";
  }
  return "?";
}

Buffer decompress_ipc_buffer(IpcCompression codec, const Buffer& buf, const std::string& context) {
  if (buf.size() == 0) return buf;
  if (buf.size() < 8) corrupt(context, "shorter than its 8-byte length prefix");
  int64_t length;
  std::memcpy(&length, buf.data(), 8);
  if (length == -1) return buf.slice(8, buf.size() - 8);
  if (length < 0) corrupt(context, err_msg("negative uncompressed length ", length));
  // A decompression bomb guard: no real codec gets near 1:65536 on buffers worth reading.
  if (static_cast<uint64_t>(length) > (buf.size() - 8) * 65536ull + (1u << 20))
    corrupt(context, err_msg("claims ", length, " bytes from ", buf.size() - 8));
  Buffer out = Buffer::allocate(static_cast<size_t>(length));
  const uint8_t* src = buf.data() + 8;
  const size_t n = buf.size() - 8;
  switch (codec) {
    case IpcCompression::Lz4:
      lz4_frame_decompress(src, n, out.mutable_data(), static_cast<size_t>(length), context);
      break;
    case IpcCompression::Zstd: {
      const size_t got = ZSTD_decompress(out.mutable_data(), static_cast<size_t>(length), src, n);
      if (ZSTD_isError(got)) corrupt(context, std::string("zstd: ") + ZSTD_getErrorName(got));
      if (got != static_cast<size_t>(length))
        corrupt(context, err_msg("zstd frame holds ", got, " bytes, the prefix says ", length));
      break;
    }
    case IpcCompression::Uncompressed: corrupt(context, "a length prefix in an uncompressed body");
  }
  return out;
}

void compress_ipc_buffer(IpcCompression codec, std::optional<int> level, const uint8_t* data, size_t size,
                         std::vector<uint8_t>& out) {
  if (size == 0) return;  // empty buffers carry no prefix
  const size_t start = out.size();
  out.resize(start + 8);
  size_t written = 0;
  if (codec == IpcCompression::Lz4) {
    LZ4F_preferences_t prefs{};
    prefs.compressionLevel = level.value_or(0);
    prefs.frameInfo.contentSize = size;
    const size_t bound = LZ4F_compressFrameBound(size, &prefs);
    out.resize(start + 8 + bound);
    written = LZ4F_compressFrame(out.data() + start + 8, bound, data, size, &prefs);
    if (LZ4F_isError(written)) throw ComputeError(std::string("lz4 compression failed: ") + LZ4F_getErrorName(written));
  } else {
    const size_t bound = ZSTD_compressBound(size);
    out.resize(start + 8 + bound);
    written = ZSTD_compress(out.data() + start + 8, bound, data, size, level.value_or(3));
    if (ZSTD_isError(written)) throw ComputeError(std::string("zstd compression failed: ") + ZSTD_getErrorName(written));
  }
  int64_t prefix = static_cast<int64_t>(size);
  if (written >= size) {
    // Not worth it: the raw bytes, marked by -1.
    prefix = -1;
    out.resize(start + 8 + size);
    std::memcpy(out.data() + start + 8, data, size);
  } else {
    out.resize(start + 8 + written);
  }
  std::memcpy(out.data() + start, &prefix, 8);
}

}  // namespace frazil::io::ipc
