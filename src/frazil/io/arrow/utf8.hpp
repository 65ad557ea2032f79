// UTF-8 validation of imported string data (Arrow producers are not trusted to have
// checked it, and every string kernel assumes it).
#pragma once

#include <cstddef>
#include <cstdint>

namespace frazil::io {

// True when [data, data + n) is well-formed UTF-8 (no overlongs, surrogates or
// code points above U+10FFFF).
bool is_valid_utf8(const uint8_t* data, size_t n);

// True for a byte that continues a multi-byte sequence (10xxxxxx).
inline bool is_utf8_continuation(uint8_t b) { return (b & 0xC0) == 0x80; }

}  // namespace frazil::io
