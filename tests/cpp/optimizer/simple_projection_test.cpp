// SimpleProjectionAndCollapse: rewrite pairs (plan text before -> after) and equal results.
#include "frazil/optimizer/simple_projection.hpp"

#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

LazyFrame df() { return LazyFrame::from_frame(frame()); }

std::string rewritten(const LazyFrame& lf) {
  Plan plan(lf);
  plan.apply(optimizer::simple_projection);
  return plan.explain();
}

}  // namespace

TEST(SimpleProjection, SelectOfColumnsBecomesAProjection) {
  const std::string text = rewritten(df().select({col("g"), col("a")}));
  EXPECT_TRUE(contains(text, "simple π 2/3 [\"g\", \"a\"]")) << text;
  EXPECT_FALSE(contains(text, "SELECT")) << text;
}

TEST(SimpleProjection, EveryColumnInOrderDisappears) {
  const std::string text = rewritten(df().select({col("a"), col("b"), col("g")}));
  EXPECT_FALSE(contains(text, "SELECT")) << text;
  EXPECT_FALSE(contains(text, "π")) << text;
}

TEST(SimpleProjection, ProjectionsCollapse) {
  const std::string text = rewritten(df().select({col("g"), col("a")}).select({col("a")}));
  // One projection over the frame: the outer one reads through the inner one.
  EXPECT_EQ(text.find("π"), text.rfind("π")) << text;
}

TEST(SimpleProjection, ExpressionsAliasesAndDuplicatesStay) {
  for (const LazyFrame& lf : {df().select({col("a").alias("x"), col("b")}), df().select({col("a") + lit(1)}),
                              df().select({col("a"), col("a").alias("a2")})}) {
    EXPECT_TRUE(contains(rewritten(lf), "SELECT")) << rewritten(lf);
  }
}

TEST(SimpleProjection, SameResultsAsUnoptimized) {
  for (const LazyFrame& lf : {df().select({col("g"), col("a")}), df().select({col("b"), col("a"), col("g")}),
                              df().filter(col("a") > lit(1)).select({col("g")}).select({col("g")}),
                              df().head(0).select({col("a")}), df().select({col("a"), col("b"), col("g")})}) {
    expect_same_as_unoptimized(lf);
  }
}
