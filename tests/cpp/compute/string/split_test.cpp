#include "frazil/compute/string/split.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
// The strings of list row i.
Opt<std::string> row(const Array& lists, int64_t i) {
  const int64_t* off = lists.list_offsets();
  return strs_of(*lists.child(0)->slice(off[i], off[i + 1] - off[i]));
}
}  // namespace

// polars: ["a,b,,c", "", None, "abc"].str.split(",") -> [["a","b","","c"], [""], None, ["abc"]];
// inclusive: [["a,","b,",",","c"], [], None, ["abc"]]; by "": characters, [] for "".
TEST(StringSplit, ListsMatchPolars) {
  ArrayRef s = sliced(strs({"a,b,,c", "", N, "abc", "héllo,wörld,"}));
  ArrayRef comma = strs({","});
  ArrayRef parts = str_split(*s, *comma, false);
  EXPECT_EQ(row(*parts, 0), (Opt<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(row(*parts, 1), (Opt<std::string>{""}));
  EXPECT_TRUE(parts->is_null(2));
  EXPECT_EQ(row(*parts, 4), (Opt<std::string>{"héllo", "wörld", ""}));
  ArrayRef inc = str_split(*s, *comma, true);
  EXPECT_EQ(row(*inc, 0), (Opt<std::string>{"a,", "b,", ",", "c"}));
  EXPECT_EQ(row(*inc, 1), (Opt<std::string>{}));
  EXPECT_EQ(row(*inc, 4), (Opt<std::string>{"héllo,", "wörld,"}));
  ArrayRef chars = str_split(*s, *strs({""}), false);
  EXPECT_EQ(row(*chars, 3), (Opt<std::string>{"a", "b", "c"}));
  EXPECT_EQ(row(*chars, 1), (Opt<std::string>{}));
  ArrayRef re = str_split(*strs({"a1b22c"}), *strs({R"(\d+)"}), false, false);
  EXPECT_EQ(row(*re, 0), (Opt<std::string>{"a", "b", "c"}));
}

// polars: split_exact(",", 1) -> {field_0, field_1}; splitn(",", 2) keeps the remainder.
TEST(StringSplit, StructsMatchPolars) {
  ArrayRef s = strs({"a,b,c", "x", N});
  ArrayRef e = str_split_exact(*s, *strs({","}), 1, false);
  EXPECT_EQ(e->dtype().fields().size(), 2u);
  EXPECT_EQ(strs_of(*e->child(0)), (Opt<std::string>{"a", "x", N}));
  EXPECT_EQ(strs_of(*e->child(1)), (Opt<std::string>{"b", N, N}));
  ArrayRef n = str_splitn(*s, *strs({","}), 2);
  EXPECT_EQ(strs_of(*n->child(1)), (Opt<std::string>{"b,c", N, N}));
  EXPECT_EQ(split_struct_dtype(2).fields()[1].name, "field_1");
}
