#include "frazil/compute/string/concat.hpp"
#include "frazil/compute/string/match.hpp"
#include "frazil/compute/string/transform.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
// Mixed inline (<= 12 bytes) and long values, multi-byte UTF-8, empty and null.
ArrayRef sample() { return strs({"héllo wörld", "ab", "", N, "日本語テキスト"}); }
}  // namespace

// Expected values printed by polars 2.1.0 for
// pl.Series(["héllo wörld", "ab", "", None, "日本語テキスト"]).str.slice(offset, length).
TEST(String, SliceOnCharactersMatchesPolars) {
  ArrayRef s = sample();
  EXPECT_EQ(strs_of(*str_slice(*s, 0, 3)), (Opt<std::string>{"hél", "ab", "", N, "日本語"}));
  EXPECT_EQ(strs_of(*str_slice(*s, 1, std::nullopt)), (Opt<std::string>{"éllo wörld", "b", "", N, "本語テキスト"}));
  EXPECT_EQ(strs_of(*str_slice(*s, -3, std::nullopt)), (Opt<std::string>{"rld", "ab", "", N, "キスト"}));
  EXPECT_EQ(strs_of(*str_slice(*s, -3, 2)), (Opt<std::string>{"rl", "a", "", N, "キス"}));
  EXPECT_EQ(strs_of(*str_slice(*s, -20, 3)), (Opt<std::string>{"", "", "", N, ""}));
  EXPECT_EQ(strs_of(*str_slice(*s, -20, std::nullopt)),
            (Opt<std::string>{"héllo wörld", "ab", "", N, "日本語テキスト"}));
  EXPECT_EQ(strs_of(*str_slice(*s, 20, 2)), (Opt<std::string>{"", "", "", N, ""}));
  EXPECT_EQ(strs_of(*str_slice(*s, 2, 0)), (Opt<std::string>{"", "", "", N, ""}));
  EXPECT_EQ(strs_of(*str_slice(*s, -1, 5)), (Opt<std::string>{"d", "b", "", N, "ト"}));
  // Long ASCII values sliced into long and inline results, from a sliced input.
  ArrayRef l = sliced(strs({"0123456789abcdefghijklmnop", N}));
  EXPECT_EQ(strs_of(*str_slice(*l, 2, 20)), (Opt<std::string>{"23456789abcdefghijkl", N}));
  EXPECT_EQ(strs_of(*str_slice(*l, 2, 3)), (Opt<std::string>{"234", N}));
  EXPECT_EQ(str_slice(*strs({}), 0, 1)->length(), 0);
}

// polars: len_chars -> [11, 2, 0, None, 7]; len_bytes -> [13, 2, 0, None, 21] (UInt32).
TEST(String, Lengths) {
  ArrayRef c = str_len_chars(*sample());
  EXPECT_EQ(c->dtype(), DataType::uint32());
  EXPECT_EQ(values_of<uint32_t>(*c), (Opt<uint32_t>{11, 2, 0, N, 7}));
  EXPECT_EQ(values_of<uint32_t>(*str_len_bytes(*sliced(sample()))), (Opt<uint32_t>{13, 2, 0, N, 21}));
}

TEST(String, ContainsStartsEnds) {
  ArrayRef s = strs({"abc", "aBc", N, "a much longer string with xyz", ""});
  EXPECT_EQ(bools_of(*str_contains(*s, "b", true)), (Opt<bool>{true, false, N, false, false}));
  EXPECT_EQ(bools_of(*str_contains(*s, "(?i)b", false)), (Opt<bool>{true, true, N, false, false}));
  EXPECT_EQ(bools_of(*str_contains(*s, "x.z$", false)), (Opt<bool>{false, false, N, true, false}));
  // polars: ["abc", "a.c"].str.contains(".", literal=True) -> [False, True]
  EXPECT_EQ(bools_of(*str_contains(*strs({"abc", "a.c"}), ".", true)), (Opt<bool>{false, true}));
  EXPECT_EQ(bools_of(*str_contains(*s, "", true)), (Opt<bool>{true, true, N, true, true}));
  EXPECT_THROW(str_contains(*s, "(", false), ComputeError);
  EXPECT_EQ(bools_of(*str_starts_with(*sliced(s), "a")), (Opt<bool>{true, true, N, true, false}));
  EXPECT_EQ(bools_of(*str_starts_with(*s, "a much longer")), (Opt<bool>{false, false, N, true, false}));
  EXPECT_EQ(bools_of(*str_ends_with(*s, "c")), (Opt<bool>{true, true, N, false, false}));
  EXPECT_EQ(bools_of(*str_ends_with(*s, "")), (Opt<bool>{true, true, N, true, true}));
  EXPECT_THROW(str_contains(*i64({1}), "1", true), SchemaError);
}

// polars: "ÄbCß ǅ ñ ΣΑΣ straße".to_uppercase() -> "ÄBCSS Ǆ Ñ ΣΑΣ STRASSE";
// "ÄbCß ǅ ñ ΣΑΣ".to_lowercase() -> "äbcß ǆ ñ σας".
TEST(String, CaseMapping) {
  EXPECT_EQ(strs_of(*str_to_uppercase(*strs({"ÄbCß ǅ ñ ΣΑΣ straße", "abc", N, "a long ascii string here"}))),
            (Opt<std::string>{"ÄBCSS Ǆ Ñ ΣΑΣ STRASSE", "ABC", N, "A LONG ASCII STRING HERE"}));
  EXPECT_EQ(strs_of(*str_to_lowercase(*sliced(strs({"ÄbCß ǅ ñ ΣΑΣ", "ABC"})))),
            (Opt<std::string>{"äbcß ǆ ñ σας", "abc"}));
}

// polars: ["  a b \t\n", "\u00a0x\u3000", "xxaxx"].str.strip_chars() -> ["a b", "x", "xxaxx"];
// ["  a b \t\n", "xyaxy"].str.strip_chars("xy ") -> ["a b \t\n", "a"].
TEST(String, StripChars) {
  EXPECT_EQ(strs_of(*str_strip_chars(*strs({"  a b \t\n", "\u00a0x\u3000", "xxaxx", N}), std::nullopt)),
            (Opt<std::string>{"a b", "x", "xxaxx", N}));
  EXPECT_EQ(strs_of(*str_strip_chars(*strs({"  a b \t\n", "xyaxy"}), std::string("xy "))),
            (Opt<std::string>{"a b \t\n", "a"}));
  EXPECT_EQ(strs_of(*str_strip_chars(*sliced(strs({"   a long value with spaces around   ", "   "})), std::nullopt)),
            (Opt<std::string>{"a long value with spaces around", ""}));
  EXPECT_EQ(strs_of(*str_strip_chars(*strs({"ééaéé"}), std::string("é"))), (Opt<std::string>{"a"}));
}

// polars:
//   ["abcabc", "aaa", None].str.replace("a", "$0X", literal=True) -> ["$0Xbcabc", "$0Xaa", None]
//   ["abcabc", "aaa"].str.replace(r"(b)(c)", "$2$1") -> ["acbabc", "aaa"]
//   ["abcabc", "aaa"].str.replace_all(r"(b)(c)", "${2}-$1") -> ["ac-bac-b", "aaa"]
//   ["abcabc", "aaa"].str.replace_all(r"a", "$$") -> ["$bc$bc", "$$$"]
//   ["abcabc", "aaa"].str.replace_all("", "-") -> ["-a-b-c-a-b-c-", "-a-a-a-"] (both modes)
TEST(String, ReplaceMatchesPolars) {
  EXPECT_EQ(strs_of(*str_replace(*strs({"abcabc", "aaa", N}), "a", "$0X", true, false)),
            (Opt<std::string>{"$0Xbcabc", "$0Xaa", N}));
  ArrayRef s = strs({"abcabc", "aaa"});
  EXPECT_EQ(strs_of(*str_replace(*s, "(b)(c)", "$2$1", false, false)), (Opt<std::string>{"acbabc", "aaa"}));
  EXPECT_EQ(strs_of(*str_replace(*s, "(b)(c)", "${2}-$1", false, true)), (Opt<std::string>{"ac-bac-b", "aaa"}));
  EXPECT_EQ(strs_of(*str_replace(*s, "a", "$$", false, true)), (Opt<std::string>{"$bc$bc", "$$$"}));
  EXPECT_EQ(strs_of(*str_replace(*s, "", "-", false, true)), (Opt<std::string>{"-a-b-c-a-b-c-", "-a-a-a-"}));
  EXPECT_EQ(strs_of(*str_replace(*s, "", "-", true, true)), (Opt<std::string>{"-a-b-c-a-b-c-", "-a-a-a-"}));
  EXPECT_EQ(strs_of(*str_replace(*strs({"x1y22z"}), "(?P<d>\\d+)", "<${d}>", false, true)),
            (Opt<std::string>{"x<1>y<22>z"}));
  // Long values, unchanged rows keep their bytes, on a sliced input.
  EXPECT_EQ(strs_of(*str_replace(*sliced(strs({"the quick brown fox", "no match in this one", N})), "quick", "slow",
                                 true, true)),
            (Opt<std::string>{"the slow brown fox", "no match in this one", N}));
  EXPECT_THROW(str_replace(*s, "[", "x", false, true), ComputeError);
}

TEST(String, Concat) {
  ArrayRef a = strs({"ab", N, "", "twelve bytes"});
  EXPECT_EQ(strs_of(*str_concat(*a, *strs({"cd", "x", "", "!"}))), (Opt<std::string>{"abcd", N, "", "twelve bytes!"}));
  EXPECT_EQ(strs_of(*str_concat(*strs({"<"}), *sliced(a))), (Opt<std::string>{"<ab", N, "<", "<twelve bytes"}));
  EXPECT_EQ(strs_of(*str_concat(*a, *strs({N}))), (Opt<std::string>{N, N, N, N}));
  EXPECT_THROW(str_concat(*a, *strs({"a", "b"})), ShapeError);
}
