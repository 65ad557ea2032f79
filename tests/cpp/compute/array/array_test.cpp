// Array (fixed-size list) kernels: the strict layout, List <-> Array, dot and reshape.
#include <gtest/gtest.h>

#include "../list/list_test_util.hpp"
#include "frazil/compute/array/dot.hpp"
#include "frazil/compute/array/layout.hpp"
#include "frazil/compute/array/reshape.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

// An Array(Int64, 2) from rows of two values (nullopt: a null row holding `hidden` values).
ArrayRef array2(const Lists64& rows, int64_t hidden = 0, int64_t skip = 0) {
  ArrayRef l = list_i64(rows, hidden, skip);
  return l->with_dtype(DataType::array(DataType::int64(), 2));
}

}  // namespace

TEST(ArrayDtype, NamesShapesAndEquality) {
  DataType a = DataType::array(DataType::int64(), 3);
  EXPECT_EQ(a.to_string(), "Array(Int64, shape=(3,))");
  EXPECT_EQ(a.short_name(), "array[i64, 3]");
  DataType nested = DataType::array(DataType::array(DataType::int64(), 3), 2);
  EXPECT_EQ(nested.to_string(), "Array(Int64, shape=(2, 3))");
  EXPECT_EQ(nested.short_name(), "array[i64, (2, 3)]");
  EXPECT_EQ(parse_dtype(nested.to_string()), nested);
  EXPECT_EQ(parse_dtype(a.to_string()), a);
  EXPECT_NE(a, DataType::array(DataType::int64(), 2));
  EXPECT_NE(a, DataType::list(DataType::int64()));
  EXPECT_NE(a.hash(), DataType::array(DataType::int64(), 2).hash());
  EXPECT_TRUE(a.is_nested());
  EXPECT_TRUE(a.is_list_like());
}

TEST(ArrayLayout, RegularArrayFillsNullRowsAndSlices) {
  // The null row holds no values: the strict layout gives it two null values.
  ArrayRef a = array2({Opt<int64_t>{1, 2}, std::nullopt, Opt<int64_t>{3, N}}, 0);
  ArrayRef r = regular_array(*a);
  ASSERT_EQ(r->length(), 3);
  EXPECT_EQ(r->offset(), 0);
  EXPECT_EQ(values_of<int64_t>(*r->child(0)), (Opt<int64_t>{1, 2, N, N, 3, N}));
  EXPECT_TRUE(r->is_null(1));
  // A sliced array that already is regular (null rows of two hidden values).
  ArrayRef b = array2({Opt<int64_t>{1, 2}, std::nullopt, Opt<int64_t>{3, 4}, Opt<int64_t>{5, 6}}, 2, 1);
  ArrayRef rb = regular_array(*b);
  EXPECT_EQ(rb->offset(), 0);
  EXPECT_EQ(rb->child(0)->length(), 6);
  EXPECT_EQ(values_of<int64_t>(*rb->child(0)), (Opt<int64_t>{-1, -1, 3, 4, 5, 6}));
  EXPECT_EQ(rows_of(*rb), (Lists64{std::nullopt, Opt<int64_t>{3, 4}, Opt<int64_t>{5, 6}}));
}

TEST(ArrayLayout, ListToArrayChecksEveryValidRow) {
  ArrayRef l = list_i64({Opt<int64_t>{1, 2}, std::nullopt, Opt<int64_t>{3, 4}});
  ArrayRef a = list_to_array(*l, 2);
  EXPECT_EQ(a->dtype(), DataType::array(DataType::int64(), 2));
  EXPECT_EQ(rows_of(*a), rows_of(*l));
  EXPECT_THROW(list_to_array(*list_i64({Opt<int64_t>{1, 2}, Opt<int64_t>{3}}), 2), ComputeError);
  EXPECT_EQ(array_as_list(*a)->dtype(), DataType::list(DataType::int64()));
}

TEST(ArrayCast, ListArrayAndWidths) {
  ArrayRef l = list_i64({Opt<int64_t>{1, 2}, std::nullopt, Opt<int64_t>{3, 4}});
  ArrayRef a = cast(*l, DataType::array(DataType::float64(), 2));
  EXPECT_EQ(a->dtype(), DataType::array(DataType::float64(), 2));
  ArrayRef back = cast(*a, DataType::list(DataType::int64()));
  EXPECT_EQ(rows_of(*back), rows_of(*l));
  EXPECT_THROW(cast(*l, DataType::array(DataType::int64(), 3)), ComputeError);
  EXPECT_THROW(cast(*a, DataType::array(DataType::float64(), 3)), InvalidOperationError);
  EXPECT_THROW(cast(*a, DataType::string()), InvalidOperationError);
}

TEST(ArrayDot, SumOfProductsSkippingNulls) {
  ArrayRef a = array2({Opt<int64_t>{1, 2}, std::nullopt, Opt<int64_t>{3, N}});
  ArrayRef b = array2({Opt<int64_t>{3, 4}, Opt<int64_t>{1, 1}, Opt<int64_t>{2, 5}});
  EXPECT_EQ(dot_dtype(a->dtype(), b->dtype()), DataType::int64());
  EXPECT_EQ(values_of<int64_t>(*array_dot(*a, *b)), (Opt<int64_t>{11, N, 6}));
  // One row for every row.
  EXPECT_EQ(values_of<int64_t>(*array_dot(*a, *b->slice(0, 1))), (Opt<int64_t>{11, N, 9}));
  EXPECT_THROW(dot_dtype(a->dtype(), DataType::array(DataType::int64(), 3)), ShapeError);
  EXPECT_THROW(dot_dtype(a->dtype(), DataType::list(DataType::int64())), InvalidOperationError);
}

TEST(ArrayReshape, CutsAndFlattens) {
  ArrayRef flat = i64({1, 2, 3, 4, 5, 6});
  ArrayRef r = reshape(*flat, {-1, 2});
  EXPECT_EQ(r->dtype(), DataType::array(DataType::int64(), 2));
  EXPECT_EQ(rows_of(*r), (Lists64{Opt<int64_t>{1, 2}, Opt<int64_t>{3, 4}, Opt<int64_t>{5, 6}}));
  ArrayRef r3 = reshape(*flat, {1, 2, 3});
  EXPECT_EQ(r3->dtype(), DataType::array(DataType::array(DataType::int64(), 3), 2));
  EXPECT_EQ(r3->length(), 1);
  EXPECT_EQ(values_of<int64_t>(*reshape(*r3, {6})), (Opt<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(reshape_dtype(r3->dtype(), {-1}), DataType::int64());
  EXPECT_THROW(reshape(*flat, {4, 2}), InvalidOperationError);
  EXPECT_THROW(reshape(*flat, {4, -1}), InvalidOperationError);
  EXPECT_THROW(reshape(*flat, {-1, -1}), InvalidOperationError);
  EXPECT_THROW(reshape(*flat, {2, 0}), InvalidOperationError);
  ArrayRef empty = reshape(*i64({}), {0, 2});
  EXPECT_EQ(empty->length(), 0);
  EXPECT_EQ(empty->dtype(), DataType::array(DataType::int64(), 2));
}
