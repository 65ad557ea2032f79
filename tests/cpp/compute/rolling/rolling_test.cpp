#include "frazil/compute/rolling/rolling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/rolling/duration.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

RollingParams params(RollingAgg agg, int64_t min_samples = 1) {
  RollingParams p;
  p.agg = agg;
  p.min_samples = min_samples;
  return p;
}

// The quantile of a window computed the slow way (sorted copy), as Polars defines it.
std::optional<double> naive_quantile(std::vector<double> w, double q, const std::string& m) {
  if (w.empty()) return std::nullopt;
  std::sort(w.begin(), w.end(), [](double a, double b) { return a < b || (b != b && a == a); });
  const double f = static_cast<double>(w.size() - 1) * q;
  const size_t lo = static_cast<size_t>(std::floor(f)), hi = std::min(w.size() - 1, static_cast<size_t>(std::ceil(f)));
  if (m == "lower") return w[lo];
  if (m == "higher") return w[hi];
  if (m == "nearest") return w[std::min(w.size() - 1, static_cast<size_t>(std::round(f)))];
  if (lo == hi) return w[lo];
  if (m == "midpoint") return (w[lo] + w[hi]) / 2;
  return (f - static_cast<double>(lo)) * (w[hi] - w[lo]) + w[lo];
}

}  // namespace

TEST(RollingKernels, SumsMeansAndExtremesOverFixedWindows) {
  ArrayRef x = i64({1, N, 2, 8, 5});
  const std::vector<int64_t> whole{0, 5};
  EXPECT_EQ(values_of<int64_t>(*rolling_fixed(*x, whole, 3, false, params(RollingAgg::Sum, 3))), (Opt<int64_t>{N, N, N, N, 15}));
  EXPECT_EQ(values_of<int64_t>(*rolling_fixed(*x, whole, 3, true, params(RollingAgg::Sum, 1))), (Opt<int64_t>{1, 3, 10, 15, 13}));
  EXPECT_EQ(values_of<int64_t>(*rolling_fixed(*x, whole, 2, false, params(RollingAgg::Max))), (Opt<int64_t>{1, 1, 2, 8, 8}));
  EXPECT_EQ(values_of<double>(*rolling_fixed(*x, whole, 2, false, params(RollingAgg::Mean))), (Opt<double>{1, 1, 2, 5, 6.5}));
  // Segments restart their windows.
  const std::vector<int64_t> two{0, 2, 5};
  EXPECT_EQ(values_of<int64_t>(*rolling_fixed(*x, two, 2, false, params(RollingAgg::Sum, 1))), (Opt<int64_t>{1, 1, 2, 10, 13}));
}

TEST(RollingKernels, NanPropagatesThroughSumAndExtremes) {
  ArrayRef x = f64({1.0, NAN, 2.0, 8.0, INFINITY, -INFINITY});
  const std::vector<int64_t> whole{0, 6};
  auto s = values_of<double>(*rolling_fixed(*x, whole, 2, false, params(RollingAgg::Sum, 2)));
  EXPECT_TRUE(std::isnan(*s[1]) && std::isnan(*s[2]));
  EXPECT_EQ(*s[3], 10.0);
  EXPECT_TRUE(std::isinf(*s[4]));
  EXPECT_TRUE(std::isnan(*s[5]));
  auto m = values_of<double>(*rolling_fixed(*x, whole, 2, false, params(RollingAgg::Min, 2)));
  EXPECT_TRUE(std::isnan(*m[2]));
  EXPECT_EQ(*m[3], 2.0);
}

// Fixed windows of up to 256 rows keep one sorted vector, longer ones and windows given by
// their bounds two heaps: both against a sorted copy of every window, across that size.
TEST(RollingKernels, QuantilesMatchASortedWindow) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> small(0, 9);
  for (int trial = 0; trial < 46; ++trial) {
    const int64_t n = 1 + static_cast<int64_t>(rng() % (trial < 40 ? 200 : 700));
    Opt<double> vals;
    for (int64_t i = 0; i < n; ++i) {
      const int r = small(rng);
      vals.push_back(r == 0 ? std::nullopt : std::optional<double>(r == 1 ? NAN : static_cast<double>(small(rng))));
    }
    ArrayRef x = f64(vals);
    const int64_t w = trial < 40 ? 1 + static_cast<int64_t>(rng() % 30) : 250 + static_cast<int64_t>(rng() % 12);
    const bool center = trial % 2;
    for (const char* m : {"nearest", "lower", "higher", "midpoint", "linear"}) {
      for (double q : {0.0, 0.3, 0.5, 1.0}) {
        RollingParams p = params(RollingAgg::Quantile, 1);
        p.quantile = q;
        p.interpolation = m;
        const std::vector<int64_t> seg{0, n / 3, n};
        const RollingWindows win = fixed_windows(seg, w, center);
        for (const ArrayRef& out : {rolling_fixed(*x, seg, w, center, p), rolling(*x, win, p)}) {
          for (int64_t i = 0; i < n; ++i) {
            std::vector<double> wv;
            for (int64_t j = win.start[i]; j < win.end[i]; ++j)
              if (vals[j]) wv.push_back(*vals[j]);
            auto want = naive_quantile(wv, q, m);
            SCOPED_TRACE(testing::Message() << "trial " << trial << " row " << i << " " << m << " q=" << q);
            ASSERT_EQ(out->is_valid(i), want.has_value());
            if (!want) continue;
            const double got = out->values<double>()[i];
            if (std::isnan(*want)) EXPECT_TRUE(std::isnan(got));
            else EXPECT_DOUBLE_EQ(got, *want);
          }
        }
      }
    }
  }
}

TEST(RollingKernels, MedianKeepsTheSignOfTheZeroItPicks) {
  // -0.0 and 0.0 are equal; the window's middle value is the row that is there, sign and all.
  ArrayRef x = f64({-0.0, 5.0, 0.0, -0.0, 7.0});
  RollingParams p = params(RollingAgg::Quantile, 1);
  p.quantile = 0.0;
  p.interpolation = "lower";
  auto lo = values_of<double>(*rolling_fixed(*x, std::vector<int64_t>{0, 5}, 2, false, p));
  EXPECT_TRUE(std::signbit(*lo[0]));   // {-0.0}
  EXPECT_TRUE(std::signbit(*lo[1]));   // {-0.0, 5}
  EXPECT_FALSE(std::signbit(*lo[2]));  // {5, 0.0}
  EXPECT_FALSE(std::signbit(*lo[3]));  // {0.0, -0.0}: the older of the equal pair first
  EXPECT_TRUE(std::signbit(*lo[4]));   // {-0.0, 7}
}

TEST(RollingKernels, MomentsMatchTwoPassFormulas) {
  ArrayRef x = f64({1.0, 2.0, 4.0, -1.0, 3.0, 9.0, 2.0});
  const std::vector<int64_t> whole{0, 7};
  RollingParams p = params(RollingAgg::Var, 3);
  auto v = values_of<double>(*rolling_fixed(*x, whole, 3, false, p));
  EXPECT_NEAR(*v[2], 7.0 / 3.0, 1e-12);   // var(1, 2, 4)
  EXPECT_NEAR(*v[6], 43.0 / 3.0, 1e-12);   // var(3, 9, 2)
  p.agg = RollingAgg::Skew;
  auto s = values_of<double>(*rolling_fixed(*x, whole, 3, false, p));
  EXPECT_NEAR(*s[2], 0.38180177416060623, 1e-12);
}

TEST(RollingKernels, WindowsByIndexValues) {
  const int64_t t[] = {1, 2, 2, 5, 9, 10};
  const std::vector<int64_t> whole{0, 6};
  RollingWindows right = windows_by(t, whole, 2, -2, "right");
  EXPECT_EQ(right.start, (std::vector<int64_t>{0, 0, 0, 3, 4, 4}));
  EXPECT_EQ(right.end, (std::vector<int64_t>{1, 3, 3, 4, 5, 6}));
  RollingWindows left = windows_by(t, whole, 2, -2, "left");
  EXPECT_EQ(left.end, (std::vector<int64_t>{0, 1, 1, 3, 4, 5}));
  ArrayRef x = f64({1.0, 2.0, N, 5.0, 6.0, 3.0});
  // An unsorted `by` is sorted first and the results put back.
  ArrayRef by = i64({3, 1, 2, 2, 5, 9});
  auto out = values_of<double>(*rolling_by(*x, *by, whole, "2i", "right", params(RollingAgg::Sum, 0)));
  EXPECT_EQ(out, (Opt<double>{6.0, 2.0, 7.0, 7.0, 6.0, 3.0}));
  EXPECT_THROW(rolling_by(*x, *by, whole, "2d", "right", params(RollingAgg::Sum)), InvalidOperationError);
}

TEST(RollingKernels, WeightedWindowsAlignTheWeights) {
  ArrayRef x = f64({1.0, 4.0, 2.0, 8.0, 5.0});
  const std::vector<int64_t> whole{0, 5};
  const double w[] = {0.5, 2.0};
  EXPECT_EQ(values_of<double>(*rolling_weighted(*x, whole, w, false, params(RollingAgg::Sum, 2))),
            (Opt<double>{N, 8.5, 6.0, 17.0, 14.0}));
  EXPECT_EQ(values_of<double>(*rolling_weighted(*x, whole, w, false, params(RollingAgg::Min, 2))),
            (Opt<double>{N, 0.5, 2.0, 1.0, 4.0}));
  EXPECT_THROW(rolling_weighted(*f64({1.0, N}), std::vector<int64_t>{0, 2}, w, false, params(RollingAgg::Sum)),
               ComputeError);
}

TEST(RollingKernels, DurationStrings) {
  EXPECT_EQ(parse_fixed_duration("1d2h", "t").nanos, (26LL * 3600) * 1000000000);
  EXPECT_TRUE(parse_fixed_duration("3i", "t").index);
  EXPECT_EQ(parse_fixed_duration("-5ms", "t").nanos, -5000000);
  EXPECT_THROW(parse_fixed_duration("1mo", "t"), InvalidOperationError);
  EXPECT_THROW(parse_fixed_duration("2x", "t"), InvalidOperationError);
  EXPECT_THROW(parse_fixed_duration("1d3i", "t"), InvalidOperationError);
}
