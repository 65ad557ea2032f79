#include "frazil/compute/list/convert.hpp"

#include <gtest/gtest.h>

#include "frazil/compute/list/aggregate.hpp"
#include "frazil/core/error.hpp"
#include "list_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

TEST(ListConvert, ToStructTakesElementsByPosition) {
  ArrayRef a = list_i64({Opt<int64_t>{1, 2, 3}, Opt<int64_t>{4}, std::nullopt, Opt<int64_t>{}}, 1);
  ArrayRef s = list_to_struct(*a, {"x", "y"});
  ASSERT_EQ(s->dtype().id(), TypeId::Struct);
  EXPECT_EQ(s->dtype().fields()[1].name, "y");
  EXPECT_EQ(values_of<int64_t>(*s->child(0)), (Opt<int64_t>{1, 4, N, N}));
  EXPECT_EQ(values_of<int64_t>(*s->child(1)), (Opt<int64_t>{2, N, N, N}));
  EXPECT_TRUE(s->is_null(2));
  EXPECT_FALSE(s->is_null(3));
}

TEST(ListConvert, ItemNeedsExactlyOneElement) {
  ArrayRef one = list_i64({Opt<int64_t>{7}, std::nullopt, Opt<int64_t>{N}});
  EXPECT_EQ(values_of<int64_t>(*list_item(*one, false)), (Opt<int64_t>{7, N, N}));
  ArrayRef two = list_i64({Opt<int64_t>{7}, Opt<int64_t>{1, 2}});
  EXPECT_THROW(list_item(*two, false), ComputeError);
  ArrayRef empty = list_i64({Opt<int64_t>{}, Opt<int64_t>{3}});
  EXPECT_EQ(values_of<int64_t>(*list_item(*empty, true)), (Opt<int64_t>{N, 3}));
  EXPECT_THROW(list_item(*empty, false), ComputeError);
}

TEST(ListConvert, SampleKeepsSizesAndElements) {
  ArrayRef a = list_i64({Opt<int64_t>{1, 2, 3, 4}, Opt<int64_t>{5, 6}, std::nullopt});
  ArrayRef s = list_sample(*a, *i64({2}), false, false, false, 42);
  Lists64 rows = rows_of(*s);
  ASSERT_EQ(rows.size(), 3u);
  ASSERT_TRUE(rows[0] && rows[1]);
  EXPECT_EQ(rows[0]->size(), 2u);
  EXPECT_EQ(*rows[1], (Opt<int64_t>{5, 6}));  // all of it, in order without shuffle
  EXPECT_FALSE(rows[2]);
  EXPECT_LT(*(*rows[0])[0], *(*rows[0])[1]);  // in the list's order
  // Reproducible with a seed; too large a sample without replacement is a ShapeError.
  EXPECT_EQ(rows_of(*list_sample(*a, *i64({2}), false, false, true, 7)),
            rows_of(*list_sample(*a, *i64({2}), false, false, true, 7)));
  EXPECT_THROW(list_sample(*a, *i64({3}), false, false, false, 1), ShapeError);
  EXPECT_EQ(rows_of(*list_sample(*a, *i64({3}), false, true, false, 1))[1]->size(), 3u);
  EXPECT_THROW(list_sample(*a, *f64({1.5}), true, false, false, 1), ComputeError);
}
