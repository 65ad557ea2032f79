#include "frazil/compute/boolean.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
const double kNaN = std::nan("");
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

// Expected values printed by polars 2.1.0 for all nine pairs of {True, False, None}:
// t = [T, F, N, T, F, N, T, F, N], u = [T, T, T, F, F, F, N, N, N].
TEST(Boolean, KleeneLogicMatchesPolars) {
  ArrayRef t = bools({true, false, N, true, false, N, true, false, N});
  ArrayRef u = bools({true, true, true, false, false, false, N, N, N});
  EXPECT_EQ(bools_of(*and_kleene(*t, *u)), (Opt<bool>{true, false, N, false, false, false, N, false, N}));
  EXPECT_EQ(bools_of(*or_kleene(*t, *u)), (Opt<bool>{true, true, true, true, false, N, true, N, N}));
  EXPECT_EQ(bools_of(*xor_(*t, *u)), (Opt<bool>{false, true, N, true, false, N, N, N, N}));
  EXPECT_EQ(bools_of(*not_(*t)), (Opt<bool>{false, true, N, false, true, N, false, true, N}));
  // Same on sliced inputs.
  EXPECT_EQ(bools_of(*and_kleene(*sliced(t, 5), *sliced(u, 11))),
            (Opt<bool>{true, false, N, false, false, false, N, false, N}));
  EXPECT_EQ(bools_of(*or_kleene(*sliced(t, 1), *sliced(u, 2))),
            (Opt<bool>{true, true, true, true, false, N, true, N, N}));
}

TEST(Boolean, KleeneBroadcastAndNullScalar) {
  ArrayRef t = bools({true, false, N});
  EXPECT_EQ(bools_of(*and_kleene(*t, *bools({N}))), (Opt<bool>{N, false, N}));
  EXPECT_EQ(bools_of(*or_kleene(*bools({N}), *t)), (Opt<bool>{true, N, N}));
  EXPECT_EQ(bools_of(*and_kleene(*t, *bools({false}))), (Opt<bool>{false, false, false}));
  EXPECT_EQ(bools_of(*or_kleene(*t, *bools({true}))), (Opt<bool>{true, true, true}));
  EXPECT_EQ(bools_of(*and_kleene(*t, *make_null_array(DataType::null(), 1))), (Opt<bool>{N, false, N}));
  EXPECT_EQ(and_kleene(*bools({}), *bools({}))->length(), 0);
  EXPECT_THROW(and_kleene(*t, *i64({1, 2, 3})), InvalidOperationError);
  // Long inputs with no nulls produce no validity.
  Opt<bool> a, b, expect;
  for (int i = 0; i < 130; ++i) {
    a.push_back(i % 3 == 0);
    b.push_back(i % 2 == 0);
    expect.push_back(i % 3 == 0 && i % 2 == 0);
  }
  ArrayRef r = and_kleene(*sliced(bools(a), 3), *sliced(bools(b), 7));
  EXPECT_FALSE(r->has_validity());
  EXPECT_EQ(bools_of(*r), expect);
}

// polars: pl.Series([1, 2, None]) & pl.Series([3, 3, 3]) -> [1, 2, None];
// ~pl.Series([1, 0], dtype=pl.UInt8) -> [254, 255].
TEST(Boolean, BitwiseIntegers) {
  EXPECT_EQ(values_of<int64_t>(*bit_and(*i64({1, 2, N}), *i64({3, 3, 3}))), (Opt<int64_t>{1, 2, N}));
  EXPECT_EQ(values_of<uint8_t>(*bit_not(*u8({1, 0}))), (Opt<uint8_t>{254, 255}));
  EXPECT_EQ(values_of<int64_t>(*bit_or(*i64({1, 4}), *i64({2}))), (Opt<int64_t>{3, 6}));
  EXPECT_EQ(values_of<int64_t>(*bit_xor(*sliced(i64({5, -1})), *i64({1, 1}))), (Opt<int64_t>{4, -2}));
  EXPECT_EQ(values_of<int8_t>(*bit_not(*i8({0, -128}))), (Opt<int8_t>{-1, 127}));
  EXPECT_EQ(bools_of(*bit_and(*bools({true, N}), *bools({false, false}))), (Opt<bool>{false, false}));
  EXPECT_THROW(bit_and(*f64({1.0}), *f64({1.0})), InvalidOperationError);
}

// polars: [1.5, nan, None].is_nan() -> [False, True, None];
// [1.5, nan, None, inf].is_finite() -> [True, False, None, False];
// [1.5, nan, None, -inf].is_infinite() -> [False, False, None, True];
// integers: is_nan -> False, is_finite -> True.
TEST(Boolean, NullAndFloatInspection) {
  EXPECT_EQ(bools_of(*is_nan(*f64({1.5, kNaN, N}))), (Opt<bool>{false, true, N}));
  EXPECT_EQ(bools_of(*is_not_nan(*f64({1.5, kNaN, N}))), (Opt<bool>{true, false, N}));
  EXPECT_EQ(bools_of(*is_finite(*f64({1.5, kNaN, N, kInf}))), (Opt<bool>{true, false, N, false}));
  EXPECT_EQ(bools_of(*is_infinite(*f64({1.5, kNaN, N, -kInf}))), (Opt<bool>{false, false, N, true}));
  EXPECT_EQ(bools_of(*is_nan(*f32({std::nanf(""), 0.0f}))), (Opt<bool>{true, false}));
  EXPECT_EQ(bools_of(*is_nan(*i64({1, 2}))), (Opt<bool>{false, false}));
  EXPECT_EQ(bools_of(*is_finite(*i64({1, N}))), (Opt<bool>{true, N}));
  EXPECT_EQ(bools_of(*is_null(*sliced(i64({1, N, 3})))), (Opt<bool>{false, true, false}));
  EXPECT_EQ(bools_of(*is_not_null(*i64({1, N, 3}))), (Opt<bool>{true, false, true}));
  EXPECT_EQ(bools_of(*is_null(*make_null_array(DataType::null(), 2))), (Opt<bool>{true, true}));
  EXPECT_EQ(bools_of(*is_null(*strs({"x"}))), (Opt<bool>{false}));
  EXPECT_THROW(is_nan(*strs({"x"})), InvalidOperationError);
}

TEST(Boolean, FillNull) {
  EXPECT_EQ(values_of<int64_t>(*fill_null(*i64({1, N, 3, N}), *i64({0}))), (Opt<int64_t>{1, 0, 3, 0}));
  EXPECT_EQ(values_of<int64_t>(*fill_null(*sliced(i64({1, N, 3, N})), *i64({9, 8, 7, N}))),
            (Opt<int64_t>{1, 8, 3, N}));
  EXPECT_EQ(values_of<int64_t>(*fill_null(*i64({1, N}), *i64({N}))), (Opt<int64_t>{1, N}));
  EXPECT_EQ(strs_of(*fill_null(*strs({"short", N, "a long string, not inline"}), *strs({"filled value over 12"}))),
            (Opt<std::string>{"short", "filled value over 12", "a long string, not inline"}));
  EXPECT_EQ(bools_of(*fill_null(*bools({true, N, false}), *bools({true}))), (Opt<bool>{true, true, false}));
  EXPECT_EQ(values_of<int64_t>(*fill_null(*make_null_array(DataType::null(), 2), *i64({5}))), (Opt<int64_t>{5, 5}));
  EXPECT_EQ(fill_null(*i64({}), *i64({1}))->length(), 0);
  EXPECT_THROW(fill_null(*i64({1, N, 3}), *i64({1, 2})), ShapeError);
}

// polars: pl.Series([1.0, nan, None]).fill_nan(0.0) -> [1.0, 0.0, None];
// .fill_nan(None) -> [1.0, None, None].
TEST(Boolean, FillNan) {
  expect_floats<double>(*fill_nan(*f64({1.0, kNaN, N}), *f64({0.0})), {1.0, 0.0, N});
  expect_floats<double>(*fill_nan(*f64({1.0, kNaN, N}), *f64({N})), {1.0, N, N});
  expect_floats<float>(*fill_nan(*f32({std::nanf("")}), *f32({2.0f})), {2.0f});
  EXPECT_EQ(values_of<int64_t>(*fill_nan(*i64({1}), *i64({0}))), (Opt<int64_t>{1}));
}

TEST(Boolean, IfThenElse) {
  ArrayRef mask = bools({true, false, N, true});
  EXPECT_EQ(values_of<int64_t>(*if_then_else(*mask, *i64({1, 2, 3, N}), *i64({-1}))), (Opt<int64_t>{1, -1, -1, N}));
  EXPECT_EQ(values_of<int64_t>(*if_then_else(*sliced(mask), *i64({7}), *sliced(i64({10, 20, 30, 40})))),
            (Opt<int64_t>{7, 20, 30, 7}));
  EXPECT_EQ(values_of<int64_t>(*if_then_else(*bools({true}), *i64({1, 2}), *i64({3, 4}))), (Opt<int64_t>{1, 2}));
  EXPECT_EQ(values_of<int64_t>(*if_then_else(*mask, *i64({1}), *make_null_array(DataType::null(), 1))),
            (Opt<int64_t>{1, N, N, 1}));
  EXPECT_EQ(strs_of(*if_then_else(*mask, *strs({"then branch long string", "b", N, "d"}),
                                  *strs({"x", "otherwise branch long string", "z", "w"}))),
            (Opt<std::string>{"then branch long string", "otherwise branch long string", "z", "d"}));
  EXPECT_EQ(bools_of(*if_then_else(*mask, *bools({true, true, N, N}), *bools({false}))),
            (Opt<bool>{true, false, false, N}));
  expect_floats<double>(*if_then_else(*mask, *f64({kNaN}), *f64({-0.0})), {kNaN, -0.0, -0.0, kNaN});
  EXPECT_EQ(if_then_else(*bools({}), *i64({}), *i64({}))->length(), 0);
  EXPECT_THROW(if_then_else(*mask, *i64({1, 2}), *i64({1})), ShapeError);
  EXPECT_THROW(if_then_else(*mask, *i64({1}), *f64({1.0})), InvalidOperationError);
}
