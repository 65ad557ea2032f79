#include "frazil/compute/list/list_arith.hpp"

#include <gtest/gtest.h>

#include "frazil/core/error.hpp"
#include "list_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

// Expected rows printed by polars 2.1.0 for the same inputs.
TEST(ListArith, ListWithListElementByElement) {
  ArrayRef a = list_i64({Opt<int64_t>{1, 2}, Opt<int64_t>{3, N}, std::nullopt, Opt<int64_t>{}}, 2);
  ArrayRef b = list_i64({Opt<int64_t>{1, 1}, Opt<int64_t>{1, 1}, Opt<int64_t>{2}, Opt<int64_t>{}});
  ArrayRef sum = list_arith(ArithOp::Add, *a, *b);
  EXPECT_EQ(sum->dtype(), DataType::list(DataType::int64()));
  EXPECT_EQ(rows_of(*sum), (Lists64{Opt<int64_t>{2, 3}, Opt<int64_t>{4, N}, std::nullopt, Opt<int64_t>{}}));
  EXPECT_EQ(list_arith(ArithOp::TrueDiv, *a, *b)->dtype(), DataType::list(DataType::float64()));
  // A one-row list broadcasts; a sliced list reads its own rows.
  ArrayRef one = list_i64({Opt<int64_t>{10, 20}});
  EXPECT_EQ(rows_of(*list_arith(ArithOp::Sub, *list_i64({Opt<int64_t>{1, 2}, Opt<int64_t>{5, 5}, Opt<int64_t>{7, 7}}, 0, 1), *one)),
            (Lists64{Opt<int64_t>{-5, -15}, Opt<int64_t>{-3, -13}}));
}

TEST(ListArith, ListWithNumberAppliesItToEachElement) {
  ArrayRef a = list_i64({Opt<int64_t>{1, 2}, Opt<int64_t>{3, N}, std::nullopt, Opt<int64_t>{}}, 1);
  ArrayRef c = i64({1, N, 3, 4});
  EXPECT_EQ(rows_of(*list_arith(ArithOp::Add, *a, *c)),
            (Lists64{Opt<int64_t>{2, 3}, Opt<int64_t>{N, N}, std::nullopt, Opt<int64_t>{}}));
  EXPECT_EQ(rows_of(*list_arith(ArithOp::Sub, *c, *a)),
            (Lists64{Opt<int64_t>{0, -1}, Opt<int64_t>{N, N}, std::nullopt, Opt<int64_t>{}}));
  EXPECT_EQ(rows_of(*list_arith(ArithOp::Mul, *a, *i64({2}))),
            (Lists64{Opt<int64_t>{2, 4}, Opt<int64_t>{6, N}, std::nullopt, Opt<int64_t>{}}));
}

TEST(ListArith, ErrorsAsPolars) {
  ArrayRef a = list_i64({Opt<int64_t>{1, 2}});
  EXPECT_THROW(list_arith(ArithOp::Add, *a, *list_i64({Opt<int64_t>{1}})), ShapeError);
  EXPECT_THROW(list_arith(ArithOp::Add, *list_i64({Opt<int64_t>{1}, Opt<int64_t>{2}, Opt<int64_t>{3}}),
                          *i64({1, 2})),
               InvalidOperationError);
  EXPECT_THROW(list_arith_dtype(ArithOp::Add, DataType::list(DataType::int64()), DataType::string()),
               InvalidOperationError);
  EXPECT_THROW(list_arith_dtype(ArithOp::Add, DataType::list(DataType::int64()),
                                DataType::list(DataType::list(DataType::int64()))),
               InvalidOperationError);
  EXPECT_EQ(list_arith_dtype(ArithOp::Add, DataType::array(DataType::float32(), 2), DataType::float32()),
            DataType::array(DataType::float32(), 2));
}
