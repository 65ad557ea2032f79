// dsl::corr against hand-computed values: nulls drop their pair, a constant side is NaN,
// no complete pair is null, and it runs per group.
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
