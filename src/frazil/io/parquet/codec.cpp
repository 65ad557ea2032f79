#include "frazil/io/parquet/codec.hpp"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

namespace frazil::io::parquet {

namespace {

[[noreturn]] void fail(Codec codec, const std::string& what) {
  throw CodecError(std::string(codec_name(codec)) + " decompression failed: " + what);
}

uint32_t load_be32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

bool lz4_raw_block(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  if (n > INT_MAX || dst_size > INT_MAX) return false;
  int got = LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst),
                                static_cast<int>(n), static_cast<int>(dst_size));
  return got >= 0 && static_cast<size_t>(got) == dst_size;
}

// Hadoop's framing: repeated [be32 uncompressed][be32 compressed][lz4 block].
bool lz4_hadoop(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  size_t in = 0, out = 0;
  while (in < n) {
    if (n - in < 8) return false;
    uint32_t raw = load_be32(src + in), comp = load_be32(src + in + 4);
    in += 8;
    if (comp > n - in || raw > dst_size - out) return false;
    if (!lz4_raw_block(src + in, comp, dst + out, raw)) return false;
    in += comp;
    out += raw;
  }
  return out == dst_size;
}

bool lz4_frame(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return false;
  size_t in = 0, out = 0;
  bool ok = true;
  while (in < n) {
    size_t src_left = n - in, dst_left = dst_size - out;
    size_t r = LZ4F_decompress(ctx, dst + out, &dst_left, src + in, &src_left, nullptr);
    if (LZ4F_isError(r)) { ok = false; break; }
    in += src_left;
    out += dst_left;
    if (r == 0) break;
    if (src_left == 0 && dst_left == 0) { ok = false; break; }
  }
  LZ4F_freeDecompressionContext(ctx);
  return ok && in == n && out == dst_size;
}

}  // namespace

bool codec_supported(Codec codec) {
  switch (codec) {
    case Codec::Uncompressed:
    case Codec::Snappy:
    case Codec::Gzip:
    case Codec::Zstd:
    case Codec::Lz4:
    case Codec::Lz4Raw:
    case Codec::Brotli: return true;
    default: return false;
  }
}

void decompress(Codec codec, const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  switch (codec) {
    case Codec::Uncompressed:
      if (n != dst_size) fail(codec, "size mismatch");
      if (n) std::memcpy(dst, src, n);
      return;
    case Codec::Snappy: {
      size_t len = 0;
      if (snappy_uncompressed_length(reinterpret_cast<const char*>(src), n, &len) != SNAPPY_OK)
        fail(codec, "corrupt header");
      if (len != dst_size) fail(codec, "size mismatch");
      size_t out_len = dst_size;
      if (snappy_uncompress(reinterpret_cast<const char*>(src), n, reinterpret_cast<char*>(dst),
                            &out_len) != SNAPPY_OK || out_len != dst_size)
        fail(codec, "corrupt input");
      return;
    }
    case Codec::Gzip: {
      z_stream zs{};
      if (inflateInit2(&zs, 15 + 32) != Z_OK) fail(codec, "zlib init");
      size_t in = 0, out = 0;
      int rc = Z_OK;
      // zlib counts in uInt; feed large inputs in pieces. Concatenated gzip members are
      // accepted (some writers emit them).
      while (true) {
        uInt in_chunk = static_cast<uInt>(std::min<size_t>(n - in, 1u << 30));
        uInt out_chunk = static_cast<uInt>(std::min<size_t>(dst_size - out, 1u << 30));
        zs.next_in = const_cast<Bytef*>(src + in);
        zs.avail_in = in_chunk;
        zs.next_out = dst + out;
        zs.avail_out = out_chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        in += in_chunk - zs.avail_in;
        out += out_chunk - zs.avail_out;
        if (rc == Z_STREAM_END) {
          if (in < n && out < dst_size) {
            inflateReset(&zs);
            continue;
          }
          break;
        }
        if (rc != Z_OK || (in_chunk == zs.avail_in && out_chunk == zs.avail_out)) break;
      }
      inflateEnd(&zs);
      if (rc != Z_STREAM_END || out != dst_size) fail(codec, "corrupt input");
      return;
    }
    case Codec::Zstd: {
      size_t got = ZSTD_decompress(dst, dst_size, src, n);
      if (ZSTD_isError(got)) fail(codec, ZSTD_getErrorName(got));
      if (got != dst_size) fail(codec, "size mismatch");
      return;
    }
    case Codec::Lz4Raw:
      if (!lz4_raw_block(src, n, dst, dst_size)) fail(codec, "corrupt input");
      return;
    case Codec::Lz4:
      if (lz4_hadoop(src, n, dst, dst_size)) return;
      if (lz4_raw_block(src, n, dst, dst_size)) return;
      if (lz4_frame(src, n, dst, dst_size)) return;
      fail(codec, "corrupt input");
    case Codec::Brotli: {
      size_t out_len = dst_size;
      if (BrotliDecoderDecompress(n, src, &out_len, dst) != BROTLI_DECODER_RESULT_SUCCESS)
        fail(codec, "corrupt input or size mismatch");
      if (out_len != dst_size) fail(codec, "size mismatch");
      return;
    }
    default: break;
  }
  throw CodecError(std::string("unsupported compression codec ") + codec_name(codec));
}

void compress(Codec codec, int level, const uint8_t* src, size_t n, std::vector<uint8_t>& out) {
  switch (codec) {
    case Codec::Uncompressed:
      out.assign(src, src + n);
      return;
    case Codec::Snappy: {
      size_t cap = snappy_max_compressed_length(n);
      out.resize(cap);
      if (snappy_compress(reinterpret_cast<const char*>(src), n, reinterpret_cast<char*>(out.data()),
                          &cap) != SNAPPY_OK)
        throw CodecError("snappy compression failed");
      out.resize(cap);
      return;
    }
    case Codec::Gzip: {
      z_stream zs{};
      if (deflateInit2(&zs, level >= 0 ? level : 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw CodecError("gzip init failed");
      out.resize(deflateBound(&zs, n) + 32);
      zs.next_in = const_cast<Bytef*>(src);
      zs.avail_in = static_cast<uInt>(n);
      zs.next_out = out.data();
      zs.avail_out = static_cast<uInt>(out.size());
      int rc = deflate(&zs, Z_FINISH);
      size_t written = out.size() - zs.avail_out;
      deflateEnd(&zs);
      if (rc != Z_STREAM_END) throw CodecError("gzip compression failed");
      out.resize(written);
      return;
    }
    case Codec::Zstd: {
      out.resize(ZSTD_compressBound(n));
      size_t got = ZSTD_compress(out.data(), out.size(), src, n, level > 0 ? level : 3);
      if (ZSTD_isError(got)) throw CodecError(std::string("zstd compression failed: ") + ZSTD_getErrorName(got));
      out.resize(got);
      return;
    }
    case Codec::Lz4Raw:
    case Codec::Lz4: {
      if (n > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) throw CodecError("lz4: page too large");
      size_t header = codec == Codec::Lz4 ? 8 : 0;
      out.resize(header + LZ4_compressBound(static_cast<int>(n)));
      int got = LZ4_compress_default(reinterpret_cast<const char*>(src),
                                     reinterpret_cast<char*>(out.data() + header), static_cast<int>(n),
                                     static_cast<int>(out.size() - header));
      if (got <= 0) throw CodecError("lz4 compression failed");
      if (header) {
        // One Hadoop frame: big-endian uncompressed and compressed sizes.
        uint32_t a = static_cast<uint32_t>(n), b = static_cast<uint32_t>(got);
        for (int i = 0; i < 4; ++i) {
          out[i] = static_cast<uint8_t>(a >> (24 - 8 * i));
          out[4 + i] = static_cast<uint8_t>(b >> (24 - 8 * i));
        }
      }
      out.resize(header + got);
      return;
    }
    case Codec::Brotli: {
      // Quality 1 unless asked: Polars' and pyarrow's default levels are fast ones too.
      size_t cap = BrotliEncoderMaxCompressedSize(n);
      if (cap == 0) cap = n + 1024;
      out.resize(cap);
      if (!BrotliEncoderCompress(level >= 0 ? level : 1, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, n, src, &cap,
                                 out.data()))
        throw CodecError("brotli compression failed");
      out.resize(cap);
      return;
    }
    default: break;
  }
  throw CodecError(std::string("unsupported compression codec ") + codec_name(codec));
}

}  // namespace frazil::io::parquet
