#include "frazil/compute/positions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "elementwise_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

// The typed binary search (numbers) and the generic one (strings) agree with the rule:
// left = first value not before the element, right = first value after it; the values'
// leading nulls come first; a null element goes before (left) or after (right) them.
TEST(SearchSorted, IntegersWithLeadingNullsBothSides) {
  ArrayRef v = sliced(i64({N, N, 1, 3, 3, 7}));
  ArrayRef e = i64({0, 1, 3, 4, 8, N});
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*v, *e, "left", false)), (Opt<uint32_t>{2, 2, 3, 5, 6, 0}));
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*v, *e, "right", false)), (Opt<uint32_t>{2, 3, 5, 5, 6, 2}));
}

TEST(SearchSorted, FloatsTotalOrderAndDescending) {
  const double nan = std::nan("");
  ArrayRef v = f64({-1.0, 0.5, 2.0, nan});
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*v, *f64({nan, 2.0, -5.0}), "left", false)),
            (Opt<uint32_t>{3, 2, 0}));
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*v, *f64({nan}), "right", false)), (Opt<uint32_t>{4}));
  ArrayRef d = i32({9, 5, 5, 1});
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*d, *i32({5, 10, 0}), "left", true)), (Opt<uint32_t>{1, 0, 4}));
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*d, *i32({5}), "right", true)), (Opt<uint32_t>{3}));
  // Elements of another dtype are cast to the values' dtype first.
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*d, *i64({5}), "right", true)), (Opt<uint32_t>{3}));
}

TEST(SearchSorted, StringsTakeTheGenericPath) {
  ArrayRef v = strs({"a", "bb", "bb", "c"});
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*v, *strs({"bb", "z", ""}), "left", false)),
            (Opt<uint32_t>{1, 4, 0}));
  EXPECT_EQ(values_of<uint32_t>(*search_sorted(*v, *strs({"bb"}), "right", false)), (Opt<uint32_t>{3}));
}

// Rows come in drawn order when shuffled, else in row order, with replacement or without
// (Polars: shuffle=None, the default, is drawn order, so a sample with replacement paired
// row by row with another is not two sorted runs).
TEST(Sample, ShuffleKeepsDrawnOrder) {
  std::vector<int64_t> ints(100);
  for (int64_t i = 0; i < 100; ++i) ints[static_cast<size_t>(i)] = i;
  ArrayRef v = i64(Opt<int64_t>(ints.begin(), ints.end()));
  auto drawn = values_of<int64_t>(*sample(*v, 200, true, true, 7));
  ASSERT_EQ(drawn.size(), 200u);
  EXPECT_FALSE(std::is_sorted(drawn.begin(), drawn.end()));
  auto in_order = values_of<int64_t>(*sample(*v, 200, true, false, 7));
  EXPECT_TRUE(std::is_sorted(in_order.begin(), in_order.end()));
  auto rows = values_of<int64_t>(*sample(*v, 50, false, false, 7));
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  auto shuffled = values_of<int64_t>(*sample(*v, 50, false, true, 7));
  EXPECT_FALSE(std::is_sorted(shuffled.begin(), shuffled.end()));
}

TEST(Sample, EmptyPopulation) {
  ArrayRef empty = i64(Opt<int64_t>{});
  EXPECT_EQ(sample(*empty, 3, true, false, 1)->length(), 0);  // with replacement: empty (Polars)
  EXPECT_THROW(sample(*empty, 3, false, false, 1), ShapeError);
  EXPECT_EQ(sample(*empty, 0, false, false, 1)->length(), 0);
}
