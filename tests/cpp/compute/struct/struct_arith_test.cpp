#include "frazil/compute/struct/struct_arith.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/struct/struct.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

ArrayRef with_null_rows(ArrayRef s, std::initializer_list<int> valid_rows) {
  Buffer validity = Buffer::zeroed(1);
  for (int i : valid_rows) set_bit(validity.mutable_data(), i);
  return s->with_validity(std::move(validity));
}

// {a: i64, b: i64} with struct row 1 null and field a null in row 2.
ArrayRef ab() {
  std::vector<ArrayRef> f{i64({1, 9, N, -4}), i64({2, 9, 5, 0})};
  return with_null_rows(struct_from_fields({"a", "b"}, f), {0, 2, 3});
}

}  // namespace

// Expected rows printed by polars 2.1.0 for the same inputs.
TEST(StructArith, FieldByFieldKeepsTheLeftNamesAndBothSidesNullRows) {
  std::vector<ArrayRef> f{f64({1.5, 1.0, 2.0, -0.0}), i64({2, 1, 3, 3})};
  ArrayRef xy = with_null_rows(struct_from_fields({"x", "y"}, f), {0, 1, 3});
  ArrayRef sum = struct_arith(ArithOp::Add, *ab(), *xy);
  EXPECT_EQ(sum->dtype(), DataType::struct_({{"a", DataType::float64()}, {"b", DataType::int64()}}));
  EXPECT_EQ(sum->null_count(), 2);  // rows 1 (left) and 2 (right)
  EXPECT_EQ(values_of<double>(*struct_field(*sum, 0)), (Opt<double>{2.5, N, N, -4.0}));
  EXPECT_EQ(values_of<int64_t>(*struct_field(*sum, 1)), (Opt<int64_t>{4, N, N, 3}));
  EXPECT_EQ(struct_arith_dtype(ArithOp::TrueDiv, ab()->dtype(), ab()->dtype()),
            DataType::struct_({{"a", DataType::float64()}, {"b", DataType::float64()}}));
}

TEST(StructArith, NumberAppliesToEachFieldOnEitherSide) {
  ArrayRef c = i64({10, 10, 10, N});
  ArrayRef r = struct_arith(ArithOp::Sub, *c, *ab());
  EXPECT_EQ(r->dtype().fields()[0].name, "a");
  EXPECT_EQ(r->null_count(), 1);
  EXPECT_EQ(values_of<int64_t>(*struct_field(*r, 0)), (Opt<int64_t>{9, N, N, N}));
  EXPECT_EQ(values_of<int64_t>(*struct_field(*r, 1)), (Opt<int64_t>{8, N, 5, N}));
  // A one-row number broadcasts; Int32 meets Int64 in Int64, a Float64 lifts the fields.
  EXPECT_EQ(values_of<int64_t>(*struct_field(*struct_arith(ArithOp::Mul, *ab(), *i32({2})), 1)),
            (Opt<int64_t>{4, N, 10, 0}));
  EXPECT_EQ(struct_arith(ArithOp::Add, *ab(), *f64({0.5}))->dtype().fields()[1].dtype, DataType::float64());
  // A Null operand: every row null, the fields' dtypes kept.
  ArrayRef none = struct_arith(ArithOp::Add, *ab(), *make_null_array(DataType::null(), 1));
  EXPECT_EQ(none->null_count(), 4);
  EXPECT_EQ(none->dtype(), ab()->dtype());
}

TEST(StructArith, OneFieldStructIsAValueForEveryField) {
  std::vector<ArrayRef> f{i64({2, N, -3, 1})};
  ArrayRef k = with_null_rows(struct_from_fields({"k"}, f), {0, 1, 2});
  ArrayRef r = struct_arith(ArithOp::Add, *ab(), *k);
  // Row 3: k's null row gives null fields, not a null row (Polars' broadcast).
  EXPECT_EQ(r->null_count(), 1);
  EXPECT_EQ(values_of<int64_t>(*struct_field(*r, 1)), (Opt<int64_t>{4, N, 2, N}));
}

TEST(StructArith, ErrorsAsPolars) {
  std::vector<ArrayRef> f{strs({"x"}), i64({1})};
  ArrayRef text = struct_from_fields({"w", "n"}, f);
  EXPECT_THROW(struct_arith(ArithOp::Add, *text, *i64({1})), InvalidOperationError);
  std::vector<ArrayRef> g{i64({1}), i64({1}), i64({1})};
  ArrayRef three = struct_from_fields({"p", "q", "r"}, g);
  EXPECT_THROW(struct_arith(ArithOp::TrueDiv, *ab()->slice(0, 1), *three), InvalidOperationError);
  std::vector<ArrayRef> h{i64({1})};
  EXPECT_THROW(struct_arith_dtype(ArithOp::Add, struct_from_fields({"a"}, h)->dtype(), ab()->dtype()), DuplicateError);
}
