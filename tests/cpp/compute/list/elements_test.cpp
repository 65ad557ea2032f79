#include "frazil/compute/list/elements.hpp"

#include <gtest/gtest.h>

#include "frazil/core/error.hpp"
#include "list_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
const Lists64 kRows = {Opt<int64_t>{1, 2, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 5, 1}};
}

TEST(ListElements, LenCountsElementsAndKeepsNullLists) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(values_of<uint32_t>(*list_len(*a)), (Opt<uint32_t>{3, 1, N, 0, 3}));
  // A sliced list array (offset 1) reads its own rows only.
  EXPECT_EQ(values_of<uint32_t>(*list_len(*list_i64(kRows, 2, 1))), (Opt<uint32_t>{1, N, 0, 3}));
}

TEST(ListElements, GetFromEitherEndWithNullOrErrorOutOfBounds) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(values_of<int64_t>(*list_get(*a, *i64({0}), true)), (Opt<int64_t>{1, 3, N, N, 5}));
  EXPECT_EQ(values_of<int64_t>(*list_get(*a, *i64({-1}), true)), (Opt<int64_t>{N, 3, N, N, 1}));
  EXPECT_EQ(values_of<int64_t>(*list_get(*a, *i64({0, -1, 1, 2, N}), true)), (Opt<int64_t>{1, 3, N, N, N}));
  try {
    list_get(*a, *i64({1}), false);
    FAIL() << "expected an out-of-bounds error";
  } catch (const ComputeError& e) {
    EXPECT_NE(std::string(e.what()).find("row 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("length 1"), std::string::npos) << e.what();
  }
}

TEST(ListElements, SliceHeadTailFollowPolarsBounds) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(rows_of(*list_slice(*a, *i64({-2}), *i64({1}))),
            (Lists64{Opt<int64_t>{2}, Opt<int64_t>{}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5}}));
  EXPECT_EQ(rows_of(*list_slice(*a, *i64({1}), *i64({N}))),
            (Lists64{Opt<int64_t>{2, N}, Opt<int64_t>{}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 1}}));
  EXPECT_EQ(rows_of(*list_head(*a, *i64({2}))),
            (Lists64{Opt<int64_t>{1, 2}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 5}}));
  EXPECT_EQ(rows_of(*list_tail(*a, *i64({2}))),
            (Lists64{Opt<int64_t>{2, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 1}}));
}

TEST(ListElements, ReverseShiftDropNullsGather) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(rows_of(*list_reverse(*a)),
            (Lists64{Opt<int64_t>{N, 2, 1}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{1, 5, 5}}));
  EXPECT_EQ(rows_of(*list_shift(*a, *i64({1}))),
            (Lists64{Opt<int64_t>{N, 1, 2}, Opt<int64_t>{N}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{N, 5, 5}}));
  EXPECT_EQ(rows_of(*list_drop_nulls(*a)),
            (Lists64{Opt<int64_t>{1, 2}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 5, 1}}));
  ArrayRef idx = list_i64({Opt<int64_t>{0, -1}});
  EXPECT_EQ(rows_of(*list_gather(*a, *idx, true)),
            (Lists64{Opt<int64_t>{1, N}, Opt<int64_t>{3, 3}, std::nullopt, Opt<int64_t>{N, N}, Opt<int64_t>{5, 1}}));
  EXPECT_THROW(list_gather(*a, *idx, false), OutOfBoundsError);
  EXPECT_EQ(rows_of(*list_gather_every(*a, *i64({2}), *i64({0}))),
            (Lists64{Opt<int64_t>{1, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 1}}));
}

TEST(ListElements, ConcatListJoinsRowsAndWrapsValues) {
  ArrayRef a = list_i64({Opt<int64_t>{1, 2}, std::nullopt, Opt<int64_t>{}});
  ArrayRef b = list_i64({Opt<int64_t>{3}, Opt<int64_t>{4}, std::nullopt});
  std::vector<ArrayRef> ab = {a, b};
  EXPECT_EQ(rows_of(*concat_list(ab)), (Lists64{Opt<int64_t>{1, 2, 3}, std::nullopt, std::nullopt}));
  std::vector<ArrayRef> vv = {i64({1, N, 3}), i64({1, N, 3})};
  EXPECT_EQ(rows_of(*concat_list(vv)), (Lists64{Opt<int64_t>{1, 1}, Opt<int64_t>{N, N}, Opt<int64_t>{3, 3}}));
}
