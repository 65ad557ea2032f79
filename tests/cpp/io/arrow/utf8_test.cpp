#include <gtest/gtest.h>

#include <string>

#include "frazil/io/arrow/utf8.hpp"

using frazil::io::is_valid_utf8;

namespace {

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

}  // namespace

TEST(ArrowUtf8, ValidAndInvalidValues) {
  for (std::string s : {"", "abc", "h\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF"})
    EXPECT_TRUE(is_valid_utf8(bytes(s), s.size())) << s;
  for (std::string s : {"\xC3", "\x80", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "ab\xFF"})
    EXPECT_FALSE(is_valid_utf8(bytes(s), s.size())) << s;
}

// Only the n bytes given are read: a value whose length is a multiple of the ASCII fast
// path's steps, followed by a byte that is not UTF-8 on its own (as in a Parquet page,
// where the next value's 4-byte length prefix follows each value), is valid.
TEST(ArrowUtf8, BytesAfterTheValueAreNotRead) {
  for (size_t n : {8, 16, 24, 32, 40, 64, 96, 160, 250}) {
    for (char after : {'\xC2', '\x80', '\xFF'}) {
      std::string buf(n, 'a');
      buf += after;
      buf += std::string(3, '\0');
      EXPECT_TRUE(is_valid_utf8(bytes(buf), n)) << "n=" << n << " after=" << int(uint8_t(after));
      // A multi-byte character last, ending exactly at n.
      std::string wide(n - 2, 'b');
      wide += "\xC3\xA9";
      wide += after;
      EXPECT_TRUE(is_valid_utf8(bytes(wide), n)) << "n=" << n;
      // And a character cut by the end of the value is still invalid.
      std::string cut(n - 1, 'c');
      cut += "\xC3\xA9";
      EXPECT_FALSE(is_valid_utf8(bytes(cut), n)) << "n=" << n;
    }
  }
}
