#include "frazil/compute/math.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "elementwise_test_util.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

TEST(MathKernels, FloatFunctionsReadIntegersAsFloat64AndKeepFloat32) {
  ArrayRef out = float_fn(FloatFn::Exp, *i64({0, N, 1}));
  EXPECT_EQ(out->dtype(), DataType::float64());
  EXPECT_EQ(values_of<double>(*out), (Opt<double>{1.0, N, std::exp(1.0)}));
  ArrayRef f = float_fn(FloatFn::Degrees, *f32({3.14159265f}));
  EXPECT_EQ(f->dtype(), DataType::float32());
  EXPECT_NEAR(*values_of<float>(*f)[0], 180.0f, 1e-3);
  EXPECT_TRUE(std::isinf(*values_of<double>(*float_fn(FloatFn::Cot, *f64({0.0})))[0]));
  // Sliced input: the offset is honoured.
  EXPECT_EQ(values_of<double>(*float_fn(FloatFn::Cbrt, *sliced(f64({8.0, N, -8.0})))), (Opt<double>{2.0, N, -2.0}));
}

TEST(MathKernels, LogBaseBroadcastsTheBase) {
  ArrayRef out = log_base(*f64({8.0, 1.0, N}), *f64({2.0}));
  EXPECT_EQ(values_of<double>(*out), (Opt<double>{3.0, 0.0, N}));
}

TEST(MathKernels, SignKeepsDtypeNanAndSignedZero) {
  EXPECT_EQ(values_of<int64_t>(*sign(*i64({-5, 0, N, 9}))), (Opt<int64_t>{-1, 0, N, 1}));
  ArrayRef f = sign(*f64({-0.0, NAN, 2.5}));
  auto v = values_of<double>(*f);
  EXPECT_TRUE(std::signbit(*v[0]) && *v[0] == 0.0);
  EXPECT_TRUE(std::isnan(*v[1]));
  EXPECT_EQ(*v[2], 1.0);
}

TEST(MathKernels, ClipAppliesTheUpperBoundFirstAndSkipsNullBounds) {
  ArrayRef lo = i64({1, N, 4});
  ArrayRef hi = i64({3, 3, -5});
  EXPECT_EQ(values_of<int64_t>(*clip(*i64({0, 9, 0}), lo.get(), hi.get())), (Opt<int64_t>{1, 3, 4}));
  // A Float64 bound of an Int64 column is cast to it (1.5 -> 1).
  ArrayRef half = f64({1.5});
  EXPECT_EQ(values_of<int64_t>(*clip(*i64({0, 2, N}), half.get(), nullptr)), (Opt<int64_t>{1, 2, N}));
}

TEST(MathKernels, RoundSigFigsRoundsIntegersAndFloats) {
  EXPECT_EQ(values_of<int64_t>(*round_sig_figs(*i64({1234, -128, 9999, 0}), 2)), (Opt<int64_t>{1200, -130, 10000, 0}));
  // Int8 saturates as Rust's `as` does.
  EXPECT_EQ(values_of<int8_t>(*round_sig_figs(*i8({127}), 2)), (Opt<int8_t>{127}));
  EXPECT_EQ(values_of<double>(*round_sig_figs(*f64({1234.5678, 0.0012345}), 3)), (Opt<double>{1230.0, 0.00123}));
  EXPECT_THROW(round_sig_figs(*f64({1.0}), 0), InvalidOperationError);
}

TEST(MathKernels, RoundSigFigsOfDecimalsKeepsShortValues) {
  ArrayRef d = cast(*strs({"-0.05", "1234.56", "-0.15"}), DataType::decimal(10, 2));
  ArrayRef out = round_sig_figs(*d, 2);
  ArrayRef back = cast(*out, DataType::string());
  EXPECT_EQ(strs_of(*back), (Opt<std::string>{"-0.05", "1200.00", "-0.15"}));
}

TEST(MathKernels, TruncateTowardZero) {
  EXPECT_EQ(values_of<double>(*truncate(*f64({-2.75, 2.75, N}), 0)), (Opt<double>{-2.0, 2.0, N}));
  EXPECT_EQ(values_of<double>(*truncate(*f64({-2.759}), 2)), (Opt<double>{-2.75}));
  EXPECT_EQ(values_of<int64_t>(*truncate(*i64({7}), 1)), (Opt<int64_t>{7}));
}

TEST(MathKernels, BitCountsUseTheIntegerWidth) {
  EXPECT_EQ(values_of<uint32_t>(*bit_count(BitCount::CountOnes, *i8({-1, 0, N}))), (Opt<uint32_t>{8, 0, N}));
  EXPECT_EQ(values_of<uint32_t>(*bit_count(BitCount::LeadingZeros, *i64({1}))), (Opt<uint32_t>{63}));
  EXPECT_EQ(values_of<uint32_t>(*bit_count(BitCount::TrailingZeros, *u8({8}))), (Opt<uint32_t>{3}));
  EXPECT_EQ(values_of<uint32_t>(*bit_count(BitCount::LeadingZeros, *bools({true, false}))), (Opt<uint32_t>{0, 1}));
  EXPECT_THROW(bit_count(BitCount::CountOnes, *f64({1.0})), InvalidOperationError);
}

TEST(MathKernels, IsCloseFollowsPep485) {
  ArrayRef a = f64({1.0, NAN, INFINITY, 1.0, N});
  ArrayRef b = f64({1.0 + 1e-12, NAN, INFINITY, 1.1, 1.0});
  EXPECT_EQ(bools_of(*is_close(*a, *b, 0.0, 1e-9, false)), (Opt<bool>{true, false, true, false, N}));
  EXPECT_EQ(bools_of(*is_close(*a, *b, 0.2, 1e-9, true)), (Opt<bool>{true, true, true, true, N}));
  EXPECT_THROW(is_close(*a, *b, -1.0, 0.0, false), ComputeError);
}
