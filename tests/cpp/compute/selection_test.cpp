#include "frazil/compute/selection.hpp"

#include <gtest/gtest.h>

#include "elementwise_test_util.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

TEST(Selection, TakeFixedWidthWithNullIndex) {
  ArrayRef a = sliced(i64({10, N, 30, 40}));
  ArrayRef r = take(*a, std::vector<IdxSize>{3, 0, kNullIdx, 1, 3});
  EXPECT_EQ(values_of<int64_t>(*r), (Opt<int64_t>{40, 10, N, N, 40}));
  EXPECT_EQ(take(*a, std::vector<IdxSize>{})->length(), 0);
  EXPECT_THROW(take(*a, std::vector<IdxSize>{4}), OutOfBoundsError);
  EXPECT_FALSE(take(*i64({1, 2}), std::vector<IdxSize>{1, 0})->has_validity());
}

TEST(Selection, LongTakeRunsInBlocksOnThePool) {
  // Past 2^20 rows the gather's blocks run in parallel: every block, the last partial one
  // too, and null indices land where they belong.
  const int64_t n = (int64_t{1} << 20) + 12345;
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = i * 3;
  ArrayRef a = i64(Opt<int64_t>(v.begin(), v.end()));
  std::vector<IdxSize> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) idx[i] = i % 1000 == 7 ? kNullIdx : static_cast<IdxSize>((i * 7919) % n);
  ArrayRef r = take(*a, idx);
  ASSERT_EQ(r->length(), n);
  for (int64_t i = 0; i < n; ++i) {
    if (idx[i] == kNullIdx) {
      ASSERT_TRUE(r->is_null(i)) << i;
    } else {
      ASSERT_EQ(r->values<int64_t>()[i], v[idx[i]]) << i;
    }
  }
}

TEST(Selection, TakeStringsBooleansAndNested) {
  ArrayRef s = sliced(strs({"inline", "a string that is long", N}));
  EXPECT_EQ(strs_of(*take(*s, std::vector<IdxSize>{1, 1, 0, 2})),
            (Opt<std::string>{"a string that is long", "a string that is long", "inline", N}));
  ArrayRef b = sliced(bools({true, false, N}), 5);
  EXPECT_EQ(bools_of(*take(*b, std::vector<IdxSize>{2, 1, 0, kNullIdx})), (Opt<bool>{N, false, true, N}));
  // List(Int64): [[1, 2], None, [3]] -> take [2, 0, 1]
  Buffer offsets = Buffer::allocate(4 * sizeof(int64_t));
  int64_t* o = offsets.mutable_as<int64_t>();
  o[0] = 0, o[1] = 2, o[2] = 2, o[3] = 3;
  Buffer validity = Buffer::zeroed(1);
  set_bit(validity.mutable_data(), 0);
  set_bit(validity.mutable_data(), 2);
  ArrayRef list = Array::make(DataType::list(DataType::int64()), 3, validity, {offsets}, {i64({1, 2, 3})});
  ArrayRef lt = take(*list, std::vector<IdxSize>{2, 0, 1});
  EXPECT_EQ(array_get(*lt, 0).to_string(), "[3]");
  EXPECT_EQ(array_get(*lt, 1).to_string(), "[1, 2]");
  EXPECT_TRUE(lt->is_null(2));
}

TEST(Selection, FilterAndMaskToIndices) {
  ArrayRef a = sliced(i64({1, 2, N, 4, 5}));
  ArrayRef mask = sliced(bools({true, false, true, N, true}), 2);
  EXPECT_EQ(mask_to_indices(*mask), (std::vector<IdxSize>{0, 2, 4}));
  EXPECT_EQ(values_of<int64_t>(*filter(*a, *mask)), (Opt<int64_t>{1, N, 5}));
  EXPECT_EQ(strs_of(*filter(*strs({"a", "bbbbbbbbbbbbbbbbbb", "c"}), *bools({false, true, true}))),
            (Opt<std::string>{"bbbbbbbbbbbbbbbbbb", "c"}));
  EXPECT_EQ(filter(*a, *bools({false}))->length(), 0);
  EXPECT_EQ(filter(*a, *bools({true}))->length(), 5);
  EXPECT_THROW(filter(*a, *bools({true, false})), ShapeError);
  // Over 64 rows: every third.
  Opt<bool> m;
  Opt<int64_t> v, expect;
  for (int i = 0; i < 200; ++i) {
    m.push_back(i % 3 == 0);
    v.push_back(i);
    if (i % 3 == 0) expect.push_back(i);
  }
  EXPECT_EQ(values_of<int64_t>(*filter(*sliced(i64(v), 9), *sliced(bools(m), 4))), expect);
}

TEST(Selection, Frames) {
  DataFrame df({Column("a", i64({1, 2, 3})), Column("s", strs({"x", N, "z"})),
                Column::scalar("k", Scalar::int64(7), 3)});
  DataFrame f = filter_frame(df, *bools({true, false, true}));
  EXPECT_EQ(f.height(), 2);
  EXPECT_EQ(values_of<int64_t>(*f.column("a").as_array()), (Opt<int64_t>{1, 3}));
  EXPECT_EQ(strs_of(*f.column("s").as_array()), (Opt<std::string>{"x", "z"}));
  EXPECT_EQ(f.column("k").length(), 2);
  DataFrame t = take_frame(df, {2, 2});
  EXPECT_EQ(values_of<int64_t>(*t.column("a").as_array()), (Opt<int64_t>{3, 3}));
}

TEST(Selection, ReverseAndShift) {
  ArrayRef a = sliced(i64({1, N, 3, 4}));
  EXPECT_EQ(values_of<int64_t>(*reverse(*a)), (Opt<int64_t>{4, 3, N, 1}));
  EXPECT_EQ(values_of<int64_t>(*shift(*a, 1)), (Opt<int64_t>{N, 1, N, 3}));
  EXPECT_EQ(values_of<int64_t>(*shift(*a, -2)), (Opt<int64_t>{3, 4, N, N}));
  EXPECT_EQ(values_of<int64_t>(*shift(*a, 10)), (Opt<int64_t>{N, N, N, N}));
  EXPECT_EQ(values_of<int64_t>(*shift(*a, 0)), (Opt<int64_t>{1, N, 3, 4}));
  EXPECT_EQ(strs_of(*shift(*strs({"a", "long long long string"}), 1)), (Opt<std::string>{N, "a"}));
  EXPECT_EQ(reverse(*i64({}))->length(), 0);
}
