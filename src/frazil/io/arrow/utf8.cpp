#include "frazil/io/arrow/utf8.hpp"
#include "frazil/core/cpu_dispatch.hpp"

#include <cstring>

#include <simdjson.h>

namespace frazil::io {

namespace {

// The validator for short values (most strings of a column): no dispatch overhead.
FRAZIL_MULTIVERSION bool is_valid_utf8_short(const uint8_t* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    // ASCII fast path: 32 bytes per step as four words OR-ed together (the compiler keeps
    // them in vector registers), then eight at a time.
    while (i + 32 <= n) {
      uint64_t w[4];
      std::memcpy(w, s + i, 32);
      if (((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ULL) != 0) break;
      i += 32;
    }
    if (i == n) break;  // all ASCII: s[n] is not the value's (in a Parquet page, a length prefix)
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    uint8_t c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;       // no overlongs
      else if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;       // no overlongs
      else if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return false;
    }
    if (i + len > n) return false;
    if (s[i + 1] < lo || s[i + 1] > hi) return false;
    for (size_t k = 2; k < len; ++k)
      if (!is_utf8_continuation(s[i + k])) return false;
    i += len;
  }
  return true;
}

}  // namespace

bool is_valid_utf8(const uint8_t* s, size_t n) {
  // simdjson's validator (SIMD, picked for the CPU at run time) pays off from a few
  // cache lines on: whole data buffers are checked in one call.
  if (n >= 256) return simdjson::validate_utf8(reinterpret_cast<const char*>(s), n);
  return is_valid_utf8_short(s, n);
}

}  // namespace frazil::io
