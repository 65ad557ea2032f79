// The lane-wise reduction kernels (sum, min, max) and the mask-as-validity filter path:
// sizes around the 64-row validity words and the 128-row sum blocks, sliced inputs at odd
// offsets, nulls, NaN, -0.0, empty and one-row inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "elementwise_test_util.hpp"
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

// n values from a seeded generator, every `null_every`-th row null (0: none).
Opt<double> doubles(int64_t n, int null_every, uint32_t seed = 7) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(-1000.0, 1000.0);
  Opt<double> out;
  for (int64_t i = 0; i < n; ++i) {
    if (null_every && i % null_every == 1) out.push_back(std::nullopt);
    else out.push_back(d(g));
  }
  return out;
}

Opt<int64_t> ints(int64_t n, int null_every, uint32_t seed = 7) {
  std::mt19937_64 g(seed);
  Opt<int64_t> out;
  for (int64_t i = 0; i < n; ++i) {
    if (null_every && i % null_every == 1) out.push_back(std::nullopt);
    else out.push_back(static_cast<int64_t>(g() % 2000001) - 1000000);
  }
  return out;
}

}  // namespace

TEST(AggregateKernels, FloatSumMatchesAnExactSumAcrossBlockSizes) {
  for (int64_t n : {0, 1, 15, 16, 63, 64, 65, 127, 128, 129, 255, 256, 1000, 4099}) {
    for (int null_every : {0, 3, 64}) {
      Opt<double> v = doubles(n, null_every);
      long double exact = 0;
      int64_t count = 0;
      for (auto x : v)
        if (x) {
          exact += *x;
          ++count;
        }
      for (ArrayRef a : {f64(v), sliced(f64(v), 5)}) {
        Scalar s = aggregate(AggKind::Sum, *a);
        EXPECT_NEAR(s.as_double(), static_cast<double>(exact), 1e-9) << n << " " << null_every;
        EXPECT_EQ(aggregate(AggKind::Count, *a).as_uint64(), static_cast<uint64_t>(count));
      }
    }
  }
}

TEST(AggregateKernels, FloatSumRoundsAsPolars) {
  // Polars 2.1: pl.Series([0.1] * 300).sum() == 30.0 (a sequential sum gives
  // 30.000000000000156), [0.1] * 1000 -> 99.99999999999997, [1e16, 1.0, -1e16] -> 0.0.
  EXPECT_EQ(aggregate(AggKind::Sum, *f64(Opt<double>(300, 0.1))).as_double(), 30.0);
  EXPECT_EQ(aggregate(AggKind::Sum, *f64(Opt<double>(1000, 0.1))).as_double(), 99.99999999999997);
  EXPECT_EQ(aggregate(AggKind::Sum, *f64({1e16, 1.0, -1e16})).as_double(), 0.0);
  // -0.0 alone sums to 0.0; NaN and inf propagate; nulls add nothing.
  EXPECT_FALSE(std::signbit(aggregate(AggKind::Sum, *f64({-0.0})).as_double()));
  EXPECT_TRUE(std::isnan(aggregate(AggKind::Sum, *f64(Opt<double>(200, std::nan("")))).as_double()));
  EXPECT_EQ(aggregate(AggKind::Sum, *f64({N, N})).as_double(), 0.0);
  EXPECT_EQ(aggregate(AggKind::Sum, *f32({1.5f, N, 2.5f})).as_double(), 4.0);
}

TEST(AggregateKernels, IntegerSumWrapsWithNullsAndSlices) {
  for (int64_t n : {0, 1, 7, 8, 9, 64, 65, 200, 1000}) {
    for (int null_every : {0, 2, 64}) {
      Opt<int64_t> v = ints(n, null_every);
      int64_t want = 0;
      for (auto x : v)
        if (x) want += *x;
      EXPECT_EQ(aggregate(AggKind::Sum, *sliced(i64(v), 3)).as_int64(), want) << n;
    }
  }
  // Wrapping in the result type, as before.
  const int64_t big = INT64_MAX;
  EXPECT_EQ(aggregate(AggKind::Sum, *i64({big, 1, N})).as_int64(), INT64_MIN);
  EXPECT_EQ(aggregate(AggKind::Sum, *i32({INT32_MAX, 1})).as_int64(), INT32_MIN);
  EXPECT_EQ(aggregate(AggKind::Sum, *u64({UINT64_MAX, 2})).as_uint64(), 1u);
  EXPECT_EQ(aggregate(AggKind::Sum, *i8({-128, -128, N})).as_int64(), -256);
}

TEST(AggregateKernels, MinMaxOfIntegersWithNullsAndSlices) {
  for (int64_t n : {1, 2, 31, 32, 33, 64, 65, 130, 1000}) {
    for (int null_every : {0, 2, 64}) {
      Opt<int64_t> v = ints(n, null_every, static_cast<uint32_t>(n));
      int64_t mn = INT64_MAX, mx = INT64_MIN;
      bool any = false;
      for (auto x : v)
        if (x) {
          mn = std::min(mn, *x);
          mx = std::max(mx, *x);
          any = true;
        }
      ArrayRef a = sliced(i64(v), 5);
      if (!any) {
        EXPECT_TRUE(aggregate(AggKind::Min, *a).is_null());
        continue;
      }
      EXPECT_EQ(aggregate(AggKind::Min, *a).as_int64(), mn) << n << " " << null_every;
      EXPECT_EQ(aggregate(AggKind::Max, *a).as_int64(), mx) << n << " " << null_every;
    }
  }
  // The type's extremes are values, not just the starting point.
  EXPECT_EQ(aggregate(AggKind::Min, *i64({INT64_MAX, N})).as_int64(), INT64_MAX);
  EXPECT_EQ(aggregate(AggKind::Max, *i64({INT64_MIN})).as_int64(), INT64_MIN);
  EXPECT_EQ(aggregate(AggKind::Max, *u8({3, 255, 0})).as_uint64(), 255u);
  EXPECT_TRUE(aggregate(AggKind::Max, *i64({})).is_null());
  EXPECT_TRUE(aggregate(AggKind::Max, *i64({N, N})).is_null());
}

TEST(AggregateKernels, MinMaxOfFloatsNaNInfinityAndSignedZero) {
  const double nan = std::nan(""), inf = INFINITY;
  // NaN is skipped unless every valid value is NaN (Polars 2.1).
  Opt<double> v(100, nan);
  v[37] = 2.0;
  v[80] = -1.0;
  EXPECT_EQ(aggregate(AggKind::Min, *sliced(f64(v))).as_double(), -1.0);
  EXPECT_EQ(aggregate(AggKind::Max, *sliced(f64(v))).as_double(), 2.0);
  EXPECT_TRUE(std::isnan(aggregate(AggKind::Min, *f64(Opt<double>(70, nan))).as_double()));
  EXPECT_TRUE(std::isnan(aggregate(AggKind::Max, *f64({nan, N})).as_double()));
  // Infinities are values: [inf, nan] -> inf (Polars), [-inf] max -> -inf.
  EXPECT_EQ(aggregate(AggKind::Min, *f64({inf, nan})).as_double(), inf);
  EXPECT_EQ(aggregate(AggKind::Max, *f64({-inf, N, nan})).as_double(), -inf);
  EXPECT_EQ(aggregate(AggKind::Min, *f64({N, inf})).as_double(), inf);
  // Among 0.0 and -0.0 the last row wins, as in Polars: [0.0, -0.0].min() -> -0.0,
  // [-0.0, 0.0].max() -> 0.0, also past the vector lanes and around nulls.
  EXPECT_TRUE(std::signbit(aggregate(AggKind::Min, *f64({0.0, -0.0})).as_double()));
  EXPECT_FALSE(std::signbit(aggregate(AggKind::Min, *f64({-0.0, 0.0})).as_double()));
  EXPECT_FALSE(std::signbit(aggregate(AggKind::Max, *f64({-0.0, 0.0})).as_double()));
  Opt<double> zeros(305, -0.0);
  for (int i = 300; i < 305; ++i) zeros[i] = 0.0;
  zeros[304] = std::nullopt;
  EXPECT_FALSE(std::signbit(aggregate(AggKind::Min, *sliced(f64(zeros))).as_double()));
  zeros[303] = std::nullopt;
  zeros[302] = -0.0;
  EXPECT_TRUE(std::signbit(aggregate(AggKind::Max, *sliced(f64(zeros))).as_double()));
  // One row, float32.
  EXPECT_EQ(aggregate(AggKind::Min, *f32({2.5f})).as_double(), 2.5);
  EXPECT_EQ(aggregate(AggKind::Max, *f32({N, -3.0f, nan, 1.0f})).as_double(), 1.0);
}

TEST(AggregateKernels, MaskToValidityKeepsTheFilteredRows) {
  for (int64_t n : {1, 63, 64, 65, 300}) {
    Opt<double> v = doubles(n, 4, 3);
    Opt<bool> m;
    for (int64_t i = 0; i < n; ++i) m.push_back(i % 5 == 2 ? Opt<bool>::value_type() : Opt<bool>::value_type(i % 3 != 0));
    ArrayRef values = sliced(f64(v), 5), mask = sliced(bools(m), 3);
    ArrayRef masked = mask_to_validity(*values, *mask);
    ArrayRef filtered = filter(*values, *mask);
    // The same valid values, so the null-skipping aggregations agree.
    Opt<double> kept;
    for (auto x : values_of<double>(*masked))
      if (x) kept.push_back(x);
    Opt<double> want;
    for (auto x : values_of<double>(*filtered))
      if (x) want.push_back(x);
    EXPECT_EQ(kept, want) << n;
    EXPECT_EQ(aggregate(AggKind::Count, *masked).as_uint64(), aggregate(AggKind::Count, *filtered).as_uint64());
    EXPECT_EQ(mask_true_count(*mask), filtered->length());
  }
  // Strings and booleans share their buffers too.
  ArrayRef s = sliced(strs({"a", "a string that is long", N, "c"}));
  ArrayRef b = sliced(bools({true, false, N, true}), 5);
  ArrayRef mask = bools({false, true, true, true});
  EXPECT_EQ(strs_of(*mask_to_validity(*s, *mask)), (Opt<std::string>{N, "a string that is long", N, "c"}));
  EXPECT_EQ(bools_of(*mask_to_validity(*b, *mask)), (Opt<bool>{N, false, N, true}));
}

TEST(AggregateKernels, FilterCompactsDenseAndSparseWords) {
  // 1000 rows: full words, empty words, dense and sparse ones; every column of a frame.
  const int64_t n = 1000;
  Opt<int64_t> v;
  Opt<bool> m;
  for (int64_t i = 0; i < n; ++i) {
    v.push_back(i);
    const int64_t w = i / 64;
    m.push_back(w == 0 ? true : w == 1 ? false : w % 2 ? (i % 7 != 0) : (i % 11 == 0));
  }
  ArrayRef values = sliced(i64(v), 3), mask = sliced(bools(m), 5);
  Opt<int64_t> want;
  for (int64_t i = 0; i < n; ++i)
    if (*m[i]) want.push_back(i);
  EXPECT_EQ(values_of<int64_t>(*filter(*values, *mask)), want);
  DataFrame df({Column("a", values), Column("s", sliced(strs(Opt<std::string>(n, "x")))), Column::scalar("k", Scalar::int64(1), n)});
  DataFrame out = filter_frame(df, *mask);
  EXPECT_EQ(out.height(), static_cast<int64_t>(want.size()));
  EXPECT_EQ(values_of<int64_t>(*out.column("a").as_array()), want);
  EXPECT_EQ(out.column("s").length(), static_cast<int64_t>(want.size()));
}
