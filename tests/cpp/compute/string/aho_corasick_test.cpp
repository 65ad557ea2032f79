#include "frazil/compute/string/aho_corasick.hpp"

#include <gtest/gtest.h>

using namespace frazil::compute;

namespace {
std::vector<std::string> texts(const AhoCorasick& ac, std::string_view s, bool leftmost, bool overlapping = false) {
  std::vector<AhoCorasick::Match> m;
  if (overlapping) ac.find_overlapping(s, m);
  else ac.find_all(s, leftmost, m);
  std::vector<std::string> out;
  for (const auto& x : m) out.emplace_back(s.substr(x.start, x.end - x.start));
  return out;
}
}  // namespace

// The aho-corasick crate's semantics, as Polars' extract_many shows them: standard reports
// the first match to end (the longest ending there), leftmost-first the earliest pattern.
TEST(AhoCorasick, MatchKinds) {
  AhoCorasick ac({"ab", "bc", "cd", "l", "ll"}, false);
  EXPECT_EQ(texts(ac, "abcd", false), (std::vector<std::string>{"ab", "cd"}));
  EXPECT_EQ(texts(ac, "hello", false), (std::vector<std::string>{"l", "l"}));
  EXPECT_EQ(texts(ac, "abcd", false, true), (std::vector<std::string>{"ab", "bc", "cd"}));
  EXPECT_EQ(texts(ac, "hello", false, true), (std::vector<std::string>{"l", "ll", "l"}));
  AhoCorasick nested({"bc", "abc"}, false);
  EXPECT_EQ(texts(nested, "abcd", false), (std::vector<std::string>{"abc"}));
  AhoCorasick first({"ab", "abc", "l", "ll"}, false);
  EXPECT_EQ(texts(first, "abcd", true), (std::vector<std::string>{"ab"}));
  EXPECT_EQ(texts(first, "hello", true), (std::vector<std::string>{"l", "l"}));
}

TEST(AhoCorasick, CaseAndEmptyPatterns) {
  AhoCorasick ci({"hello", "HELLO"}, true);
  EXPECT_TRUE(ci.contains_any("say HeLLo"));
  EXPECT_EQ(texts(ci, "Hello", false, true), (std::vector<std::string>{"Hello", "Hello"}));
  AhoCorasick empty({"l", ""}, false);
  EXPECT_EQ(texts(empty, "hé", false), (std::vector<std::string>{"", "", ""}));  // every character boundary
  EXPECT_TRUE(empty.contains_any(""));
  AhoCorasick none({"xyz"}, false);
  EXPECT_FALSE(none.contains_any("abc"));
}
