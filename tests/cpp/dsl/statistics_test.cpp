// dsl::corr and dsl::spearman_corr against hand-computed values: nulls drop their pair, a
// constant side is NaN, no complete pair is null (NaN for Spearman, as Polars), ties rank
// by their average.
#include "frazil/dsl/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "frazil/frazil.hpp"

using namespace frazil;
using dsl::col;

namespace {

DataFrame pairs(const std::vector<std::optional<double>>& x, const std::vector<std::optional<double>>& y) {
  PrimitiveBuilder<double> a(DataType::float64()), b(DataType::float64());
  for (auto v : x) v ? a.push(*v) : a.push_null();
  for (auto v : y) v ? b.push(*v) : b.push_null();
  return DataFrame({Column("x", a.finish()), Column("y", b.finish())});
}

Scalar corr_of(const DataFrame& df) {
  return LazyFrame::from_frame(df).select({dsl::corr(col("x"), col("y"))}).collect().column(0).get(0);
}

}  // namespace

TEST(DslCorr, PearsonOverCompletePairs) {
  // (1,2), (2,4), (3,7); the null pair is left out.
  Scalar r = corr_of(pairs({1, 2, 3, std::nullopt}, {2, 4, 7, 100}));
  const double mx = 2, my = 13.0 / 3;
  const double sxy = (1 - mx) * (2 - my) + (3 - mx) * (7 - my);
  const double sxx = 2, syy = (2 - my) * (2 - my) + (4 - my) * (4 - my) + (7 - my) * (7 - my);
  EXPECT_NEAR(std::stod(r.to_string()), sxy / std::sqrt(sxx * syy), 1e-5);  // the text has 6 digits
}

TEST(DslCorr, ConstantSideIsNaNAndNoPairIsNull) {
  EXPECT_EQ(corr_of(pairs({1, 1, 1}, {1, 2, 3})).to_string(), "NaN");
  EXPECT_TRUE(corr_of(pairs({1, std::nullopt}, {std::nullopt, 2})).is_null());
}

namespace {

Scalar spearman_of(const DataFrame& df, bool propagate_nans = false) {
  return LazyFrame::from_frame(df)
      .select({dsl::spearman_corr(col("x"), col("y"), propagate_nans)})
      .collect()
      .column(0)
      .get(0);
}

}  // namespace

TEST(DslSpearmanCorr, PearsonOfAverageRanks) {
  // x ranks 1, 2.5, 2.5, 4 (a tie); y ranks 2, 1, 3, 4; the null pair is left out.
  Scalar r = spearman_of(pairs({1, 5, 5, 9, std::nullopt}, {20, 10, 30, 40, 1}));
  const double rx[] = {1, 2.5, 2.5, 4}, ry[] = {2, 1, 3, 4};
  double sxy = 0, sxx = 0, syy = 0;
  for (int i = 0; i < 4; ++i) {
    sxy += (rx[i] - 2.5) * (ry[i] - 2.5);
    sxx += (rx[i] - 2.5) * (rx[i] - 2.5);
    syy += (ry[i] - 2.5) * (ry[i] - 2.5);
  }
  EXPECT_NEAR(std::stod(r.to_string()), sxy / std::sqrt(sxx * syy), 1e-5);
  // Monotonic but not linear: 1.
  EXPECT_EQ(spearman_of(pairs({1, 2, 3, 4}, {1, 8, 27, 1000})).to_string(), "1.0");
}

TEST(DslSpearmanCorr, NaNRanksHighestUnlessPropagatedAndNoPairIsNaN) {
  const DataFrame df = pairs({1, std::nan(""), 3, 2}, {1, 2, 3, 5});
  EXPECT_NEAR(std::stod(spearman_of(df).to_string()), 0.2, 1e-9);
  EXPECT_EQ(spearman_of(df, true).to_string(), "NaN");
  EXPECT_EQ(spearman_of(pairs({1, std::nullopt}, {std::nullopt, 2})).to_string(), "NaN");
}
