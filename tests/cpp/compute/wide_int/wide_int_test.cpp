#include "frazil/compute/wide_int/wide_int.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/compare.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/half.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

constexpr i128 kMax = static_cast<i128>(~u128{0} >> 1);
constexpr i128 kMin = -kMax - 1;

ArrayRef i128s(const Opt<i128>& v) { return make<i128>(DataType::int128(), v); }
ArrayRef u128s(const Opt<u128>& v) { return make<u128>(DataType::uint128(), v); }

std::optional<i128> at(const ArrayRef& a, int64_t i) {
  if (a->is_null(i)) return std::nullopt;
  return a->values<i128>()[i];
}

}  // namespace

TEST(WideInt, FormatAndParseCoverTheWholeRange) {
  EXPECT_EQ(format_i128(kMin), "-170141183460469231731687303715884105728");
  EXPECT_EQ(format_i128(kMax), "170141183460469231731687303715884105727");
  EXPECT_EQ(format_u128(~u128{0}), "340282366920938463463374607431768211455");
  EXPECT_EQ(format_i128(0), "0");
  i128 v;
  EXPECT_TRUE(parse_i128("-170141183460469231731687303715884105728", v));
  EXPECT_TRUE(v == kMin);
  EXPECT_FALSE(parse_i128("170141183460469231731687303715884105728", v));  // max + 1
  EXPECT_FALSE(parse_i128("", v));
  EXPECT_FALSE(parse_i128("-", v));
  EXPECT_FALSE(parse_i128("1.5", v));
  u128 u;
  EXPECT_TRUE(parse_u128("+340282366920938463463374607431768211455", u));
  EXPECT_FALSE(parse_u128("340282366920938463463374607431768211456", u));
  EXPECT_FALSE(parse_u128("-1", u));
}

TEST(WideInt, ArithmeticWrapsAndDivisionByZeroIsNull) {
  ArrayRef a = i128s({kMax, kMin, 7, -7, N});
  ArrayRef b = i128s({1, -1, 0, 2, 1});
  ArrayRef sum = int128_arith(ArithOp::Add, *a, *b);
  EXPECT_TRUE(*at(sum, 0) == kMin);  // wraps
  EXPECT_TRUE(*at(sum, 1) == kMax);
  EXPECT_FALSE(at(sum, 4).has_value());
  ArrayRef fd = int128_arith(ArithOp::FloorDiv, *a, *b);
  EXPECT_TRUE(*at(fd, 1) == kMin);   // MIN // -1 wraps
  EXPECT_FALSE(at(fd, 2).has_value());  // zero divisor
  EXPECT_TRUE(*at(fd, 3) == -4);     // floor, not truncation
  ArrayRef m = int128_arith(ArithOp::Mod, *a, *b);
  EXPECT_TRUE(*at(m, 3) == 1);
  ArrayRef div = int128_arith(ArithOp::TrueDiv, *a, *b);
  EXPECT_EQ(div->dtype(), DataType::float64());
  EXPECT_DOUBLE_EQ(div->values<double>()[3], -3.5);
  ArrayRef u = int128_arith(ArithOp::Sub, *u128s({0}), *u128s({1}));
  EXPECT_TRUE(u->values<u128>()[0] == ~u128{0});
}

TEST(WideInt, CastsCheckTheRange) {
  ArrayRef a = i128s({kMax, -1, 300, N});
  ArrayRef to_u8 = cast(*a, DataType::uint8(), false);
  EXPECT_TRUE(to_u8->is_null(0) && to_u8->is_null(1) && to_u8->is_null(2) && to_u8->is_null(3));
  ArrayRef to_i16 = cast(*a, DataType::int16(), false);
  EXPECT_EQ(to_i16->values<int16_t>()[2], 300);
  EXPECT_THROW(cast(*a, DataType::int64(), true, "a"), InvalidOperationError);
  ArrayRef to_u128 = cast(*a, DataType::uint128(), false);
  EXPECT_TRUE(to_u128->is_valid(0) && to_u128->is_null(1));
  ArrayRef from_f = cast(*f64({1e38, -1.9, std::nan(""), 2e38}), DataType::int128(), false);
  EXPECT_TRUE(at(from_f, 1) == i128{-1});
  EXPECT_TRUE(from_f->is_null(2) && from_f->is_null(3));
  ArrayRef s = cast(*a, DataType::string(), false);
  EXPECT_EQ(s->str_value(0), "170141183460469231731687303715884105727");
  ArrayRef back = cast(*s, DataType::int128(), true);
  EXPECT_TRUE(*at(back, 0) == kMax);
  ArrayRef dec = cast(*i128s({12, -3}), DataType::decimal(5, 2), true);
  EXPECT_TRUE(dec->values<i128>()[0] == 1200 && dec->values<i128>()[1] == -300);
  EXPECT_THROW(cast(*i128s({1000}), DataType::decimal(5, 2), true, "a"), InvalidOperationError);
}

TEST(WideInt, ComparisonsAndReductions) {
  ArrayRef a = u128s({~u128{0}, 1, N});
  ArrayRef b = u128s({1, ~u128{0}, 1});
  ArrayRef gt = compare(CmpOp::Gt, *a, *b);
  EXPECT_TRUE(gt->bool_value(0));
  EXPECT_FALSE(gt->bool_value(1));
  EXPECT_TRUE(gt->is_null(2));
  Scalar mx = aggregate(AggKind::Max, *a);
  EXPECT_TRUE(static_cast<u128>(mx.as_int128()) == ~u128{0});
  Scalar sum = aggregate(AggKind::Sum, *i128s({kMax, 1, N}));
  EXPECT_TRUE(sum.as_int128() == kMin);  // wraps, as Polars
  EXPECT_EQ(aggregate(AggKind::Mean, *i128s({1, 2, N})).as_double(), 1.5);
}

TEST(Float16, ComputesInFloat32AndComparesLikeAFloat) {
  ArrayRef h = cast(*f64({1.5, -0.0, std::nan(""), 65504.0, N}), DataType::float16());
  EXPECT_EQ(h->dtype(), DataType::float16());
  ArrayRef two = cast(*f64({2.0}), DataType::float16());
  ArrayRef prod = arith(ArithOp::Mul, *h, *two);
  EXPECT_EQ(prod->dtype(), DataType::float16());
  EXPECT_EQ(half_to_float(prod->values<uint16_t>()[0]), 3.0f);
  EXPECT_TRUE(std::isinf(half_to_float(prod->values<uint16_t>()[3])));  // 131008 overflows to inf
  ArrayRef zero = cast(*f64({0.0}), DataType::float16());
  ArrayRef eq = compare(CmpOp::Eq, *h, *zero);
  EXPECT_TRUE(eq->bool_value(1));  // -0.0 == 0.0
  ArrayRef nan_eq = compare(CmpOp::Eq, *h, *h);
  EXPECT_TRUE(nan_eq->bool_value(2));  // NaN == NaN in the total order
  Scalar mx = aggregate(AggKind::Max, *h);
  EXPECT_EQ(mx.dtype(), DataType::float16());
  EXPECT_TRUE(std::isnan(mx.as_double()) || mx.as_double() == 65504.0);
  EXPECT_EQ(aggregate(AggKind::Sum, *cast(*f64({1.5, 2.25}), DataType::float16())).as_double(), 3.75);
  EXPECT_EQ(canonical_half_bits(0x8000), 0);
}
