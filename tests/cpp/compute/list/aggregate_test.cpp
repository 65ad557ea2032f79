#include "frazil/compute/list/aggregate.hpp"

#include <gtest/gtest.h>

#include "list_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
const Lists64 kRows = {Opt<int64_t>{1, 2, N}, Opt<int64_t>{3}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{5, 5, 1}};
}

TEST(ListAggregate, ReductionsPerListWithNullAndEmptyLists) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(values_of<int64_t>(*list_aggregate(AggKind::Sum, *a)), (Opt<int64_t>{3, 3, N, 0, 11}));
  EXPECT_EQ(values_of<int64_t>(*list_aggregate(AggKind::Max, *a)), (Opt<int64_t>{2, 3, N, N, 5}));
  EXPECT_EQ(values_of<int64_t>(*list_aggregate(AggKind::Min, *a)), (Opt<int64_t>{1, 3, N, N, 1}));
  EXPECT_EQ(values_of<double>(*list_aggregate(AggKind::Mean, *a)), (Opt<double>{1.5, 3.0, N, N, 11.0 / 3}));
  EXPECT_EQ(values_of<uint32_t>(*list_aggregate(AggKind::NUnique, *a)), (Opt<uint32_t>{3, 1, N, 0, 2}));
  EXPECT_EQ(values_of<uint32_t>(*list_reduce(StatKind::ArgMax, *a)), (Opt<uint32_t>{1, 0, N, N, 0}));
  // A sliced list array.
  EXPECT_EQ(values_of<int64_t>(*list_aggregate(AggKind::Sum, *list_i64(kRows, 2, 2))), (Opt<int64_t>{N, 0, 11}));
}

TEST(ListAggregate, DiffPerList) {
  ArrayRef a = list_i64(kRows, 2);
  EXPECT_EQ(rows_of(*list_diff(*a, 1)),
            (Lists64{Opt<int64_t>{N, 1, N}, Opt<int64_t>{N}, std::nullopt, Opt<int64_t>{}, Opt<int64_t>{N, 0, -4}}));
}
