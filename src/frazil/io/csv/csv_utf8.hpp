// UTF-8 validation (with an ASCII fast path) and lossy repair for String columns.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace frazil::io::csv_detail {

// Length of the valid UTF-8 sequence at p (1..4), or 0 when it is invalid (overlongs,
// surrogates and code points above U+10FFFF are invalid).
inline int utf8_sequence_length(const unsigned char* p, const unsigned char* e) {
  unsigned char c = p[0];
  if (c < 0x80) return 1;
  auto cont = [&](int i) { return p + i < e && (p[i] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && p[1] < 0xA0) return 0;  // overlong
    if (c == 0xED && p[1] > 0x9F) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && p[1] < 0x90) return 0;
    if (c == 0xF4 && p[1] > 0x8F) return 0;
    return 4;
  }
  return 0;
}

inline bool is_valid_utf8(const char* b, const char* e) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(b);
  const unsigned char* end = reinterpret_cast<const unsigned char*>(e);
  while (p < end) {
    // Eight ASCII bytes at a time.
    while (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if (w & 0x8080808080808080ull) break;
      p += 8;
    }
    if (p >= end) break;
    if (*p < 0x80) {
      ++p;
      continue;
    }
    int n = utf8_sequence_length(p, end);
    if (n == 0) return false;
    p += n;
  }
  return true;
}

// Copies [b, e) into out with each invalid byte replaced by U+FFFD.
inline void utf8_lossy(const char* b, const char* e, std::string& out) {
  out.clear();
  const unsigned char* p = reinterpret_cast<const unsigned char*>(b);
  const unsigned char* end = reinterpret_cast<const unsigned char*>(e);
  while (p < end) {
    int n = utf8_sequence_length(p, end);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++p;
    } else {
      out.append(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
      p += n;
    }
  }
}

}  // namespace frazil::io::csv_detail
