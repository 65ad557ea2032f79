#include <gtest/gtest.h>

#include "frazil/core/utf8.hpp"

using namespace frazil;

TEST(Utf8, ValidTextIsKept) {
  for (std::string s : {"", "abc", "h\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF"}) {
    EXPECT_TRUE(is_valid_utf8(s)) << s;
    EXPECT_EQ(utf8_lossy(s), s);
    EXPECT_EQ(utf8_escape_invalid(s), s);
  }
}

TEST(Utf8, BadUnitsFollowTheMaximalSubpartRule) {
  // Each case: input, lossy (U+FFFD = "?" here), escaped. As Rust's from_utf8_lossy.
  struct Case {
    std::string in, lossy, escaped;
  };
  const std::string R = "\xEF\xBF\xBD";
  const std::vector<Case> cases = {
      {"a\xFF", "a" + R, "a\\xff"},
      {"\xC3\x28", R + "(", "\\xc3("},                               // a lead byte cut short
      {"\xED\xB3\xBF", R + R + R, "\\xed\\xb3\\xbf"},                // a surrogate: three units
      {"\xF0\x9F\x98", R, "\\xf0\\x9f\\x98"},                        // truncated 4-byte: one unit
      {"\xE0\x80\x80", R + R + R, "\\xe0\\x80\\x80"},                // overlong
      {"\xF4\x90\x80\x80", R + R + R + R, "\\xf4\\x90\\x80\\x80"},  // past U+10FFFF
      {"x\xC0\xAFy", "x" + R + R + "y", "x\\xc0\\xafy"},
  };
  for (const auto& c : cases) {
    EXPECT_FALSE(is_valid_utf8(c.in));
    EXPECT_EQ(utf8_lossy(c.in), c.lossy) << c.escaped;
    EXPECT_EQ(utf8_escape_invalid(c.in), c.escaped);
    EXPECT_TRUE(is_valid_utf8(utf8_lossy(c.in)));
  }
}
