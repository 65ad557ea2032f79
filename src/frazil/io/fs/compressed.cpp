#include "frazil/io/fs/compressed.hpp"

#include <zlib.h>
#include <zstd.h>

#include <cstring>

#include "frazil/core/error.hpp"

namespace frazil::io {

TextCompression detect_compression(const uint8_t* p, size_t n) {
  if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) return TextCompression::Gzip;
  if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) return TextCompression::Zstd;
  return TextCompression::None;
}

namespace {

std::string gunzip(const uint8_t* data, size_t size, const std::string& name) {
  std::string out;
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) throw ComputeError("zlib initialisation failed");
  size_t in = 0;
  char buf[1 << 16];
  int rc = Z_OK;
  while (true) {
    const uInt chunk = static_cast<uInt>(std::min<size_t>(size - in, 1u << 30));
    zs.next_in = const_cast<Bytef*>(data + in);
    zs.avail_in = chunk;
    do {
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof(buf);
      rc = inflate(&zs, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END) {
        inflateEnd(&zs);
        throw ComputeError(err_msg("'", name, "' is not valid gzip data: ", zs.msg ? zs.msg : "corrupt input"));
      }
      out.append(buf, sizeof(buf) - zs.avail_out);
    } while (zs.avail_out == 0 && rc != Z_STREAM_END);
    in += chunk - zs.avail_in;
    if (rc == Z_STREAM_END) {
      // Another member may follow.
      if (in >= size) break;
      inflateReset(&zs);
      continue;
    }
    if (in >= size) {
      inflateEnd(&zs);
      throw ComputeError(err_msg("'", name, "' is truncated gzip data"));
    }
  }
  inflateEnd(&zs);
  return out;
}

std::string unzstd(const uint8_t* data, size_t size, const std::string& name) {
  ZSTD_DStream* ds = ZSTD_createDStream();
  std::string out;
  ZSTD_inBuffer in{data, size, 0};
  std::string buf(ZSTD_DStreamOutSize(), '\0');
  size_t last = 0;
  while (in.pos < in.size) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    last = ZSTD_decompressStream(ds, &o, &in);
    if (ZSTD_isError(last)) {
      std::string e = ZSTD_getErrorName(last);
      ZSTD_freeDStream(ds);
      throw ComputeError(err_msg("'", name, "' is not valid zstd data: ", e));
    }
    out.append(buf.data(), o.pos);
  }
  // Flush what the decoder still holds.
  while (last != 0) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    last = ZSTD_decompressStream(ds, &o, &in);
    if (ZSTD_isError(last) || o.pos == 0) break;
    out.append(buf.data(), o.pos);
  }
  ZSTD_freeDStream(ds);
  if (last != 0) throw ComputeError(err_msg("'", name, "' is truncated zstd data"));
  return out;
}

}  // namespace

std::string decompress(TextCompression kind, const uint8_t* data, size_t size, const std::string& name) {
  switch (kind) {
    case TextCompression::Gzip: return gunzip(data, size, name);
    case TextCompression::Zstd: return unzstd(data, size, name);
    case TextCompression::None: break;
  }
  return std::string(reinterpret_cast<const char*>(data), size);
}

void check_text_compression_level(TextCompression kind, std::optional<int> level) {
  if (!level) return;
  const int lo = 0, hi = kind == TextCompression::Zstd ? 22 : 9;  // zstd 0: its default
  if (kind == TextCompression::None) return;
  if (*level < lo || *level > hi)
    throw InvalidOperationError(err_msg("compression level ", *level, " is out of range: valid compression range ", lo,
                                        "..=", hi, " exceeded."));
}

std::string compress(TextCompression kind, const std::string& data, std::optional<int> level) {
  check_text_compression_level(kind, level);
  if (kind == TextCompression::None) return data;
  std::string out;
  if (kind == TextCompression::Zstd) {
    out.resize(ZSTD_compressBound(data.size()));
    const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level.value_or(3));
    if (ZSTD_isError(n)) throw ComputeError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    out.resize(n);
    return out;
  }
  z_stream zs{};
  if (deflateInit2(&zs, level.value_or(6), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw ComputeError("gzip initialisation failed");
  out.resize(deflateBound(&zs, data.size()) + 64);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  const size_t n = out.size() - zs.avail_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw ComputeError("gzip compression failed");
  out.resize(n);
  return out;
}

}  // namespace frazil::io
