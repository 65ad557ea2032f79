#include "frazil/compute/arithmetic.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "elementwise_test_util.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
const double kNaN = std::nan("");
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

// Expected values below were printed by polars 2.1.0 for
// a = [7, -7, 7, -7, None, 5, MIN, MAX] and b = [2, 2, -2, -2, 3, 0, -1, 1] (Int64).
TEST(Arithmetic, IntegerOpsMatchPolars) {
  ArrayRef a = i64({7, -7, 7, -7, N, 5, kMin, kMax});
  ArrayRef b = i64({2, 2, -2, -2, 3, 0, -1, 1});
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::FloorDiv, *a, *b)), (Opt<int64_t>{3, -4, -4, 3, N, N, kMin, kMax}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Mod, *a, *b)), (Opt<int64_t>{1, 1, -1, -1, N, N, 0, 0}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Add, *a, *b)), (Opt<int64_t>{9, -5, 5, -9, N, 5, kMax, kMin}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Sub, *a, *b)),
            (Opt<int64_t>{5, -9, 9, -5, N, 5, kMin + 1, kMax - 1}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Mul, *a, *b)), (Opt<int64_t>{14, -14, -14, 14, N, 0, kMin, kMax}));
  ArrayRef div = arith(ArithOp::TrueDiv, *a, *b);
  EXPECT_EQ(div->dtype(), DataType::float64());
  expect_floats<double>(*div, {3.5, -3.5, -3.5, 3.5, N, kInf, 9.223372036854776e18, 9.223372036854776e18});
}

TEST(Arithmetic, SmallIntegersWrap) {
  // polars: UInt8 [200, 100] + [100, 100] -> [44, 200]; UInt8 0 - 1 -> 255;
  // Int8 [3, -3] ** 5 -> [-13, 13]; Int8 -128 // -1 -> -128, % -1 -> 0.
  EXPECT_EQ(values_of<uint8_t>(*arith(ArithOp::Add, *u8({200, 100}), *u8({100, 100}))), (Opt<uint8_t>{44, 200}));
  EXPECT_EQ(values_of<uint8_t>(*arith(ArithOp::Sub, *u8({0}), *u8({1}))), (Opt<uint8_t>{255}));
  EXPECT_EQ(values_of<int8_t>(*arith(ArithOp::Pow, *i8({3, -3}), *i8({5, 5}))), (Opt<int8_t>{-13, 13}));
  EXPECT_EQ(values_of<int8_t>(*arith(ArithOp::FloorDiv, *i8({-128}), *i8({-1}))), (Opt<int8_t>{-128}));
  EXPECT_EQ(values_of<int8_t>(*arith(ArithOp::Mod, *i8({-128}), *i8({-1}))), (Opt<int8_t>{0}));
  EXPECT_EQ(values_of<uint8_t>(*arith(ArithOp::Mul, *u8({255}), *u8({255}))), (Opt<uint8_t>{1}));
  // UInt8 division by zero is null too.
  EXPECT_EQ(values_of<uint8_t>(*arith(ArithOp::FloorDiv, *u8({1, 2}), *u8({0, 1}))), (Opt<uint8_t>{N, 2}));
  EXPECT_EQ(arith(ArithOp::TrueDiv, *i32({1}), *i32({2}))->dtype(), DataType::float64());
}

// polars: [5.5, -5.5, 1.0, -0.0, inf, nan] // and % [2.0, 2.0, 0.0, 3.0, 2.0, 1.0]
TEST(Arithmetic, FloatFloorDivAndModMatchPolars) {
  ArrayRef x = f64({5.5, -5.5, 1.0, -0.0, kInf, kNaN});
  ArrayRef y = f64({2.0, 2.0, 0.0, 3.0, 2.0, 1.0});
  expect_floats<double>(*arith(ArithOp::FloorDiv, *x, *y), {2.0, -3.0, kInf, -0.0, kInf, kNaN});
  expect_floats<double>(*arith(ArithOp::Mod, *x, *y), {1.5, 0.5, kNaN, 0.0, kNaN, kNaN});
  // 5 % inf is NaN in Polars (a - b * floor(a / b)), and 1 % -3 is -2.
  expect_floats<double>(*arith(ArithOp::Mod, *f64({5.0, 1.0}), *f64({kInf, -3.0})), {kNaN, -2.0});
  expect_floats<double>(*arith(ArithOp::TrueDiv, *f64({1.0, 0.0, -1.0}), *f64({0.0, 0.0, -0.0})), {kInf, kNaN, kInf});
}

TEST(Arithmetic, Float32StaysFloat32) {
  ArrayRef r = arith(ArithOp::TrueDiv, *f32({1.0f, 3.0f}), *f32({2.0f, 0.0f}));
  EXPECT_EQ(r->dtype(), DataType::float32());
  expect_floats<float>(*r, {0.5f, std::numeric_limits<float>::infinity()});
  expect_floats<float>(*arith(ArithOp::Pow, *f32({2.0f}), *f32({0.5f})), {std::sqrt(2.0f)});
}

TEST(Arithmetic, BroadcastBothSidesAndNullScalar) {
  ArrayRef a = i64({1, 2, N, 4});
  ArrayRef one = i64({10});
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Sub, *a, *one)), (Opt<int64_t>{-9, -8, N, -6}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Sub, *one, *a)), (Opt<int64_t>{9, 8, N, 6}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Mod, *one, *i64({3, 0, -3}))), (Opt<int64_t>{1, N, -2}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::FloorDiv, *a, *i64({0}))), (Opt<int64_t>{N, N, N, N}));
  EXPECT_EQ(arith(ArithOp::Add, *a, *i64({N}))->null_count(), 4);
  EXPECT_EQ(arith(ArithOp::Add, *a, *make_null_array(DataType::null(), 1))->null_count(), 4);
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Add, *one, *one)), (Opt<int64_t>{20}));
  EXPECT_THROW(arith(ArithOp::Add, *a, *i64({1, 2})), ShapeError);
}

TEST(Arithmetic, EmptyAndSlicedInputs) {
  ArrayRef e = i64({});
  EXPECT_EQ(arith(ArithOp::Add, *e, *e)->length(), 0);
  EXPECT_EQ(arith(ArithOp::Add, *e, *i64({1}))->length(), 0);
  ArrayRef a = sliced(i64({7, N, -7, 9}));
  ArrayRef b = sliced(i64({2, 2, 0, -4}), 5);
  ASSERT_NE(a->offset(), 0);
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::FloorDiv, *a, *b)), (Opt<int64_t>{3, N, N, -3}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Mul, *a, *b)), (Opt<int64_t>{14, N, 0, -36}));
  // Longer than 64 rows with nulls at odd offsets exercises the word-wise validity path.
  Opt<int64_t> xs, ys, expect;
  for (int i = 0; i < 150; ++i) {
    xs.push_back(i % 7 == 0 ? std::nullopt : std::optional<int64_t>(i));
    ys.push_back(i % 11 == 0 ? std::nullopt : std::optional<int64_t>(i % 5));
    if (!xs.back() || !ys.back() || *ys.back() == 0) expect.push_back(std::nullopt);
    else expect.push_back(i % (i % 5));
  }
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Mod, *sliced(i64(xs), 3), *sliced(i64(ys), 13))), expect);
}

TEST(Arithmetic, IntegerPowNegativeExponentFails) {
  // polars: pl.Series([2, 3]) ** pl.Series([-1, 2]) raises InvalidOperationError.
  EXPECT_THROW(arith(ArithOp::Pow, *i64({2, 3}), *i64({-1, 2})), InvalidOperationError);
  // polars: [2, 3, None] ** [3, 2, -1] also raises (the exponent is cast on its own);
  // [2, 3, None] ** [3, None, 2] -> [8, None, None].
  EXPECT_THROW(arith(ArithOp::Pow, *i64({2, 3, N}), *i64({3, 2, -1})), InvalidOperationError);
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Pow, *i64({2, 3, N}), *i64({3, N, 2}))), (Opt<int64_t>{8, N, N}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Pow, *i64({-2, 0, 7}), *i64({63, 0, 1}))),
            (Opt<int64_t>{kMin, 1, 7}));
}

TEST(Arithmetic, IntegerPowWithUInt32Exponent) {
  // polars: pl.Series([3, -3, None], dtype=pl.Int8) ** pl.Series([5, 5, 1], dtype=pl.UInt32) -> [-13, 13, None]
  // (wrapping, the base's dtype); the planner casts integer exponents to UInt32 for this kernel.
  const ArrayRef exponent = make<uint32_t>(DataType::uint32(), {5, 5, 1});
  const ArrayRef out = integer_pow(*i8({3, -3, N}), *exponent);
  EXPECT_EQ(out->dtype(), DataType::int8());
  EXPECT_EQ(values_of<int8_t>(*out), (Opt<int8_t>{-13, 13, N}));
  EXPECT_EQ(values_of<uint64_t>(*integer_pow(*u64({2, 7}), *make<uint32_t>(DataType::uint32(), {63, N}))),
            (Opt<uint64_t>{uint64_t{1} << 63, N}));
  EXPECT_THROW(integer_pow(*i8({1}), *i8({1})), InternalError);  // the exponent must be UInt32
}

TEST(Arithmetic, TemporalMatchesPolars) {
  // polars 2.1: date(2024,1,31) - date(2024,1,1) -> 30 days as Duration('us').
  ArrayRef d1 = make<int32_t>(DataType::date(), {19753, N});
  ArrayRef d0 = make<int32_t>(DataType::date(), {19723, 0});
  ArrayRef diff = arith(ArithOp::Sub, *d1, *d0);
  EXPECT_EQ(diff->dtype(), DataType::duration(TimeUnit::Microseconds));
  EXPECT_EQ(values_of<int64_t>(*diff), (Opt<int64_t>{30LL * 86'400'000'000LL, N}));
  // Date - 1h -> previous date (floored); Date + 1h (ns) -> same date.
  ArrayRef hour_us = make<int64_t>(DataType::duration(TimeUnit::Microseconds), {3'600'000'000LL});
  ArrayRef hour_ns = make<int64_t>(DataType::duration(TimeUnit::Nanoseconds), {3'600'000'000'000LL});
  EXPECT_EQ(values_of<int32_t>(*arith(ArithOp::Sub, *d1, *hour_us)), (Opt<int32_t>{19752, N}));
  EXPECT_EQ(values_of<int32_t>(*arith(ArithOp::Add, *d1, *hour_ns)), (Opt<int32_t>{19753, N}));
  EXPECT_EQ(arith(ArithOp::Add, *d1, *hour_ns)->dtype(), DataType::date());

  DataType dt_us = DataType::datetime(TimeUnit::Microseconds);
  ArrayRef t = make<int64_t>(dt_us, {1'000'000, -500'000});
  ArrayRef dur = make<int64_t>(DataType::duration(TimeUnit::Microseconds), {86'400'000'000LL, 1});
  ArrayRef sum = arith(ArithOp::Add, *t, *dur);
  EXPECT_EQ(sum->dtype(), dt_us);
  EXPECT_EQ(values_of<int64_t>(*sum), (Opt<int64_t>{86'401'000'000LL, -499'999}));
  ArrayRef back = arith(ArithOp::Sub, *sum, *t);
  EXPECT_EQ(back->dtype(), DataType::duration(TimeUnit::Microseconds));
  EXPECT_EQ(values_of<int64_t>(*back), (Opt<int64_t>{86'400'000'000LL, 1}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Add, *dur, *t)), (Opt<int64_t>{86'401'000'000LL, -499'999}));
  // Duration arithmetic: polars gives 3us / 2 -> 1us, -3us / 2 -> -2us (floored), / 0 -> null.
  ArrayRef d3 = make<int64_t>(DataType::duration(TimeUnit::Microseconds), {3, -3, 3});
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::TrueDiv, *d3, *i64({2, 2, 0}))), (Opt<int64_t>{1, -2, N}));
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Mul, *i64({2}), *d3)), (Opt<int64_t>{6, -6, 6}));
  expect_floats<double>(*arith(ArithOp::TrueDiv, *d3, *make<int64_t>(DataType::duration(TimeUnit::Microseconds), {2})),
                        {1.5, -1.5, 1.5});
  // Mismatched units meet in the coarser one (polars: Datetime(us) + Duration(ms) is
  // Datetime(ms)); unsupported combinations are errors.
  ArrayRef dur_ms = make<int64_t>(DataType::duration(TimeUnit::Milliseconds), {1});
  ArrayRef coarse = arith(ArithOp::Add, *t, *dur_ms);
  EXPECT_EQ(coarse->dtype(), DataType::datetime(TimeUnit::Milliseconds));
  EXPECT_EQ(values_of<int64_t>(*coarse), (Opt<int64_t>{1001, -500 + 1}));
  // A Duration times a float is truncated: -3us * 0.7 -> -2us.
  EXPECT_EQ(values_of<int64_t>(*arith(ArithOp::Mul, *d3, *f64({0.7}))), (Opt<int64_t>{2, -2, 2}));
  EXPECT_THROW(arith(ArithOp::Add, *d1, *d0), InvalidOperationError);
  EXPECT_THROW(arith(ArithOp::Mul, *t, *t), InvalidOperationError);
}

TEST(Arithmetic, StringAddConcatenates) {
  ArrayRef r = arith(ArithOp::Add, *strs({"a", "b", "a long string value"}), *strs({"c", N, "!!"}));
  EXPECT_EQ(strs_of(*r), (Opt<std::string>{"ac", N, "a long string value!!"}));
}

TEST(Arithmetic, UnaryOps) {
  // polars: -Int8[-128, 1] -> [-128, -1]; Int8[-128, 1].abs() -> [-128, 1]; -UInt8 raises.
  EXPECT_EQ(values_of<int8_t>(*negate(*i8({-128, 1, N}))), (Opt<int8_t>{-128, -1, N}));
  EXPECT_EQ(values_of<int8_t>(*abs(*i8({-128, 1, -5}))), (Opt<int8_t>{-128, 1, 5}));
  EXPECT_THROW(negate(*u8({1})), InvalidOperationError);
  EXPECT_EQ(values_of<uint8_t>(*abs(*u8({1, 200}))), (Opt<uint8_t>{1, 200}));
  expect_floats<double>(*negate(*f64({0.0, -kInf})), {-0.0, kInf});
  expect_floats<double>(*abs(*sliced(f64({-0.0, -2.5, N}))), {0.0, 2.5, N});
  ArrayRef s = sqrt(*i64({4, -1, N}));
  EXPECT_EQ(s->dtype(), DataType::float64());
  expect_floats<double>(*s, {2.0, kNaN, N});
  EXPECT_EQ(sqrt(*f32({4.0f}))->dtype(), DataType::float32());
  expect_floats<double>(*floor(*f64({-1.5, 2.5, -0.0})), {-2.0, 2.0, -0.0});
  expect_floats<double>(*ceil(*f64({-1.5, 2.5, kNaN})), {-1.0, 3.0, kNaN});
  EXPECT_EQ(values_of<int64_t>(*floor(*i64({3, N}))), (Opt<int64_t>{3, N}));
  ArrayRef dur = make<int64_t>(DataType::duration(TimeUnit::Microseconds), {-5});
  EXPECT_EQ(values_of<int64_t>(*abs(*dur)), (Opt<int64_t>{5}));
}

// polars 2.1 (default half_to_even):
//   [0.5, 1.5, 2.5, -0.5, -2.5].round(0) -> [0.0, 2.0, 2.0, -0.0, -2.0]
//   [1.005, 2.675, 0.125, 123456.785].round(2) -> [1.0, 2.68, 0.12, 123456.78]
//   half_away_from_zero: [0.125, 123456.785].round(2) -> [0.13, 123456.79], 2.5 -> 3.0
//   Float32 [5.55, 5.45].round(1) -> [5.599999904632568, 5.400000095367432]
TEST(Arithmetic, RoundMatchesPolars) {
  expect_floats<double>(*round(*f64({0.5, 1.5, 2.5, -0.5, -2.5}), 0), {0.0, 2.0, 2.0, -0.0, -2.0});
  expect_floats<double>(*round(*f64({1.005, 2.675, 0.125, 123456.785, kNaN, kInf, 1e307}), 2),
                        {1.0, 2.68, 0.12, 123456.78, kNaN, kInf, 1e307});
  expect_floats<double>(*round(*f64({0.125, 123456.785, 2.5, N}), 2, RoundMode::HalfAwayFromZero),
                        {0.13, 123456.79, 2.5, N});
  expect_floats<double>(*round(*f64({2.5, -2.5}), 0, RoundMode::HalfAwayFromZero), {3.0, -3.0});
  expect_floats<float>(*round(*f32({5.55f, 5.45f}), 1), {5.6f, 5.4f});
  EXPECT_EQ(values_of<int64_t>(*round(*i64({12345}), 2)), (Opt<int64_t>{12345}));
  EXPECT_THROW(round(*f64({1.0}), -1), InvalidOperationError);
}

TEST(Arithmetic, ResultDtypes) {
  EXPECT_EQ(arith_result_dtype(ArithOp::TrueDiv, DataType::uint8(), DataType::uint8()), DataType::float64());
  EXPECT_EQ(arith_result_dtype(ArithOp::FloorDiv, DataType::int16(), DataType::int16()), DataType::int16());
  EXPECT_EQ(arith_result_dtype(ArithOp::Sub, DataType::date(), DataType::date()),
            DataType::duration(TimeUnit::Microseconds));
  EXPECT_THROW(arith_result_dtype(ArithOp::Add, DataType::boolean(), DataType::boolean()), InvalidOperationError);
  EXPECT_STREQ(arith_op_symbol(ArithOp::FloorDiv), "//");
}
