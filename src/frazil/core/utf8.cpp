#include "frazil/core/utf8.hpp"

#include <cstdint>

namespace frazil {

namespace {

// The length of the well-formed sequence at s[i] (1..4), or 0 with *bad set to the length
// of the maximal subpart to skip (at least 1).
size_t sequence_length(std::string_view s, size_t i, size_t* bad) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t c = byte(i);
  if (c < 0x80) return 1;
  size_t need;
  uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) need = 1;
  else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    *bad = 1;
    return 0;
  }
  for (size_t k = 1; k <= need; ++k) {
    const bool ok = i + k < s.size() && (k == 1 ? byte(i + k) >= lo && byte(i + k) <= hi
                                                : (byte(i + k) & 0xC0) == 0x80);
    if (!ok) {
      *bad = k;
      return 0;
    }
  }
  return need + 1;
}

template <typename OnBad>
std::string repair(std::string_view s, OnBad on_bad) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t bad = 0;
    const size_t n = sequence_length(s, i, &bad);
    if (n) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      on_bad(s.substr(i, bad), out);
      i += bad;
    }
  }
  return out;
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  size_t bad = 0;
  for (size_t i = 0; i < s.size();) {
    const size_t n = sequence_length(s, i, &bad);
    if (!n) return false;
    i += n;
  }
  return true;
}

std::string utf8_lossy(std::string_view s) {
  if (is_valid_utf8(s)) return std::string(s);
  return repair(s, [](std::string_view, std::string& out) { out += "\xEF\xBF\xBD"; });
}

std::string utf8_escape_invalid(std::string_view s) {
  if (is_valid_utf8(s)) return std::string(s);
  return repair(s, [](std::string_view unit, std::string& out) {
    static const char* hex = "0123456789abcdef";
    for (char ch : unit) {
      const auto b = static_cast<uint8_t>(ch);
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  });
}

}  // namespace frazil
