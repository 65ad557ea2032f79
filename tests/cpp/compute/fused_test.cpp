#include "frazil/compute/fused.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "elementwise_test_util.hpp"
#include "frazil/compute/arithmetic.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// Bit patterns, so that -0.0 against 0.0 and NaN count.
std::vector<uint64_t> bits_of(const Array& a) {
  std::vector<uint64_t> out;
  for (const auto& v : values_of<double>(a)) {
    uint64_t b = 0;
    if (v) std::memcpy(&b, &*v, sizeof b);
    out.push_back(v ? b : ~uint64_t{0});
  }
  return out;
}

}  // namespace

// 0.1 * 10 - 1 is 0.0 rounded twice and 5.55e-17 with a hardware fused multiply-add.
TEST(FusedArith, RoundsAsTheUnfusedExpression) {
  ArrayRef a = f64({0.1, 1e308, N, -0.0, 1.0 / 3.0, kInf, 2.0});
  ArrayRef b = f64({10.0, 10.0, 2.0, 5.0, 3.0, 0.0, 1.5});
  ArrayRef c = f64({-1.0, -kInf, 1.0, 0.0, -1.0, 1.0, -0.0});
  const ArrayRef product = arith(ArithOp::Mul, *a, *b);
  EXPECT_EQ(bits_of(*fused_arith(FusedOp::MultiplyAdd, *a, *b, *c)), bits_of(*arith(ArithOp::Add, *product, *c)));
  EXPECT_EQ(bits_of(*fused_arith(FusedOp::MultiplySub, *a, *b, *c)), bits_of(*arith(ArithOp::Sub, *product, *c)));
  const ArrayRef bc = arith(ArithOp::Mul, *b, *c);
  EXPECT_EQ(bits_of(*fused_arith(FusedOp::SubMultiply, *a, *b, *c)), bits_of(*arith(ArithOp::Sub, *a, *bc)));
  EXPECT_EQ(values_of<double>(*fused_arith(FusedOp::MultiplyAdd, *a, *b, *c))[0], Opt<double>{0.0}[0]);
}

TEST(FusedArith, BroadcastsAndNulls) {
  ArrayRef a = f64({1.0, 2.0, N});
  EXPECT_EQ(values_of<double>(*fused_arith(FusedOp::MultiplyAdd, *a, *a, *f64({1.0}))), (Opt<double>{2.0, 5.0, N}));
  EXPECT_EQ(values_of<double>(*fused_arith(FusedOp::SubMultiply, *f64({10.0}), *a, *a)), (Opt<double>{9.0, 6.0, N}));
  EXPECT_EQ(values_of<double>(*fused_arith(FusedOp::MultiplyAdd, *a, *a, *f64({N}))), (Opt<double>{N, N, N}));
  EXPECT_EQ(fused_arith(FusedOp::MultiplyAdd, *f64({}), *f64({}), *f64({1.0}))->length(), 0);
  EXPECT_THROW(fused_arith(FusedOp::MultiplyAdd, *a, *f64({1.0, 2.0}), *a), ShapeError);
  EXPECT_THROW(fused_arith(FusedOp::MultiplyAdd, *i64({1}), *i64({1}), *i64({1})), InvalidOperationError);
}
