// The 16-byte string/binary view of Arrow's Utf8View/BinaryView layout: a length, then
// either up to 12 bytes inline, or a 4-byte prefix + data buffer index + offset.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace frazil {

struct View {
  static constexpr uint32_t kInlineSize = 12;

  uint32_t length;
  uint8_t data[12];

  bool is_inline() const { return length <= kInlineSize; }
  uint32_t buffer_index() const { uint32_t v; std::memcpy(&v, data + 4, 4); return v; }
  uint32_t offset() const { uint32_t v; std::memcpy(&v, data + 8, 4); return v; }
  uint32_t prefix() const { uint32_t v; std::memcpy(&v, data, 4); return v; }

  static View make_inline(const char* s, uint32_t n) {
    View v{};
    v.length = n;
    if (n) std::memcpy(v.data, s, n);
    return v;
  }
  static View make_ref(const char* s, uint32_t n, uint32_t buffer_index, uint32_t offset) {
    View v{};
    v.length = n;
    std::memcpy(v.data, s, 4);
    std::memcpy(v.data + 4, &buffer_index, 4);
    std::memcpy(v.data + 8, &offset, 4);
    return v;
  }
};
static_assert(sizeof(View) == 16, "Arrow views are 16 bytes");

}  // namespace frazil
