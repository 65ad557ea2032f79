#include "frazil/compute/list/order.hpp"

#include <gtest/gtest.h>

#include "frazil/compute/list/search.hpp"
#include "list_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
const Lists64 kRows = {Opt<int64_t>{1, 2, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 5, 1}};
}

TEST(ListOrder, SortAndUniquePerList) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(rows_of(*list_sort(*a, false, false)),
            (Lists64{Opt<int64_t>{N, 1, 2}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{1, 5, 5}}));
  EXPECT_EQ(rows_of(*list_sort(*a, true, true)),
            (Lists64{Opt<int64_t>{2, 1, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 5, 1}}));
  EXPECT_EQ(rows_of(*list_unique(*a)),
            (Lists64{Opt<int64_t>{1, 2, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 1}}));
}

TEST(ListSearch, ContainsCountMatchesAndSetOperations) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(bools_of(*list_contains(*a, *i64({5}), true)), (Opt<bool>{false, false, N, false, true}));
  EXPECT_EQ(bools_of(*list_contains(*a, *i64({N}), true)), (Opt<bool>{true, false, N, false, false}));
  EXPECT_EQ(values_of<uint32_t>(*list_count_matches(*a, *i64({5}))), (Opt<uint32_t>{0, 0, N, 0, 2}));
  ArrayRef b = list_i64({Opt<int64_t>{1, 7}});
  EXPECT_EQ(rows_of(*list_set_operation(SetOp::Union, *a, *b)),
            (Lists64{Opt<int64_t>{1, 2, N, 7}, Opt<int64_t>{3, 1, 7}, std::nullopt, Opt<int64_t>{1, 7},
                     Opt<int64_t>{5, 1, 7}}));
  EXPECT_EQ(rows_of(*list_set_operation(SetOp::Intersection, *a, *b)),
            (Lists64{Opt<int64_t>{1}, Opt<int64_t>{}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{1}}));
  EXPECT_EQ(rows_of(*list_set_operation(SetOp::Difference, *a, *b)),
            (Lists64{Opt<int64_t>{2, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5}}));
}
