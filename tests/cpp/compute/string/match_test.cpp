#include "frazil/compute/string/match.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
ArrayRef one(const char* s) { return strs({s}); }
ArrayRef sample() { return strs({"héllo wörld", "ab", "", N, "aaa", "x1y22z"}); }
}  // namespace

// polars: count_matches("") -> [12, 3, 1, None, 4, 7] (one per character boundary);
// "a*" -> [12, 2, 1, None, 1, 7]: an empty match right after a match is skipped.
TEST(StringMatch, EmptyMatchesFollowTheRegexCrate) {
  EXPECT_EQ(values_of<uint32_t>(*str_count_matches(*sample(), *one(""), false)), (Opt<uint32_t>{12, 3, 1, N, 4, 7}));
  EXPECT_EQ(values_of<uint32_t>(*str_count_matches(*sample(), *one("a*"), false)), (Opt<uint32_t>{12, 2, 1, N, 1, 7}));
  EXPECT_EQ(strs_of(*str_replace(*strs({"ab"}), *one(""), *one("-"), false, true)), (Opt<std::string>{"-a-b-"}));
}

// Rust's \d \w \s are Unicode: "\w+" matches "héllo" whole; "\d" matches "٣" (Arabic-Indic 3).
TEST(StringMatch, PerlClassesAreUnicode) {
  EXPECT_EQ(strs_of(*str_extract(*strs({"héllo wörld"}), *one(R"((\w+))"), 1)), (Opt<std::string>{"héllo"}));
  EXPECT_EQ(bools_of(*str_contains(*strs({"٣", "x"}), *one(R"(^\d$)"), false)), (Opt<bool>{true, false}));
  EXPECT_EQ(bools_of(*str_contains(*strs({"a\u00a0b"}), *one(R"(a\sb)"), false)), (Opt<bool>{true}));
}

TEST(StringMatch, FindExtractAndGroups) {
  EXPECT_EQ(values_of<uint32_t>(*str_find(*sample(), *one("l"), false, true)), (Opt<uint32_t>{3, N, N, N, N, N}));
  EXPECT_EQ(values_of<uint32_t>(*str_find(*sample(), *one("("), false, false)), (Opt<uint32_t>{N, N, N, N, N, N}));
  EXPECT_THROW(str_find(*sample(), *one("("), false, true), ComputeError);
  ArrayRef g = str_extract_groups(*strs({"a1", "b", N}), R"((?P<letter>[a-z])(\d)?)");
  EXPECT_EQ(g->dtype().fields()[0].name, "letter");
  EXPECT_EQ(g->dtype().fields()[1].name, "2");
  EXPECT_EQ(strs_of(*g->child(1)), (Opt<std::string>{"1", N, N}));
  EXPECT_TRUE(g->is_null(2));
  EXPECT_EQ(strs_of(*str_replace(*strs({"2024-01-31"}), *one(R"((?P<y>\d+)-(\d+)-(\d+))"), *one("$3/$2/${y} $$"), false,
                                 false)),
            (Opt<std::string>{"31/01/2024 $"}));
  EXPECT_THROW(str_replace(*sample(), *one(R"(\d)"), *one("x"), false, false, 2), ComputeError);
  EXPECT_EQ(escape_regex("a.b*c[d] #&-~"), R"(a\.b\*c\[d\] \#\&\-\~)");
}

// Rust spells named groups (?<name>...), RE2 (?P<name>...); both are read. "(?<" inside a
// class is two characters, and look-behinds stay refused (RE2 has none).
TEST(StringMatch, RustNamedGroups) {
  ArrayRef g = str_extract_groups(*strs({"a1", "<"}), R"((?<letter>[a-z])(?P<digit>\d)?|([(?<]))");
  ASSERT_EQ(g->dtype().fields().size(), 3u);
  EXPECT_EQ(g->dtype().fields()[0].name, "letter");
  EXPECT_EQ(g->dtype().fields()[1].name, "digit");
  EXPECT_EQ(strs_of(*g->child(2)), (Opt<std::string>{N, "<"}));
  EXPECT_THROW(str_contains(*strs({"ab"}), *one("(?<=a)b"), false, true), ComputeError);
}

TEST(StringMatch, PerRowArguments) {
  ArrayRef s = strs({"abc", "xbc", N});
  ArrayRef p = strs({"a", N, "x"});
  EXPECT_EQ(bools_of(*str_contains(*s, *p, false, true)), (Opt<bool>{true, N, N}));
  EXPECT_EQ(bools_of(*str_starts_with(*s, *p)), (Opt<bool>{true, N, N}));
  // A null replacement leaves the value as it is.
  EXPECT_EQ(strs_of(*str_replace(*s, *one("b"), *strs({"1", N, "2"}), true, false)), (Opt<std::string>{"a1c", "xbc", N}));
}
