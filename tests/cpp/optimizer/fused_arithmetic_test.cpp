// FusedArithmetic: rewrite pairs (plan text before -> after) and equal results.
#include "frazil/optimizer/fused_arithmetic.hpp"

#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

// b and a second float column c (b + 1, as b: NaN, -0.0, null).
LazyFrame df() { return LazyFrame::from_frame(frame()).with_columns({(col("b") + lit(1.0)).alias("c")}); }

std::string rewritten(const LazyFrame& lf) {
  Plan plan(lf);
  plan.apply(optimizer::fused_arithmetic);
  return plan.explain();
}

}  // namespace

TEST(FusedArithmetic, TheThreeShapes) {
  const std::string text = rewritten(df().select({(col("b") * col("c") + col("b")).alias("fma"),
                                                  (col("b") * col("c") - col("b")).alias("fms"),
                                                  (col("b") - col("b") * col("c")).alias("fsm"),
                                                  (col("b") + col("b") * col("c")).alias("fma_right")}));
  EXPECT_TRUE(contains(text, "col(\"b\").fma([col(\"c\"), col(\"b\")]).alias(\"fma\")")) << text;
  EXPECT_TRUE(contains(text, "col(\"b\").fms([col(\"c\"), col(\"b\")]).alias(\"fms\")")) << text;
  EXPECT_TRUE(contains(text, "col(\"b\").fsm([col(\"b\"), col(\"c\")]).alias(\"fsm\")")) << text;
  EXPECT_TRUE(contains(text, "col(\"b\").fma([col(\"c\"), col(\"b\")]).alias(\"fma_right\")")) << text;
}

TEST(FusedArithmetic, NestedAndInFilters) {
  const std::string text =
      rewritten(df().filter((col("b") * col("c") + col("b")) * col("c") - col("b") > lit(0.0)));
  EXPECT_TRUE(contains(text, "col(\"b\").fma([col(\"c\"), col(\"b\")]).fms([col(\"c\"), col(\"b\")])")) << text;
}

TEST(FusedArithmetic, IntegersScalarsAndMixedDtypesStay) {
  for (const LazyFrame& lf : {df().select({col("a") * col("a") + col("a")}),     // integers
                              df().select({col("b") * lit(2.0) + col("c")}),     // a scalar factor
                              df().select({col("a") * col("b") + col("c")})}) {  // a cast factor is fine...
    const std::string text = rewritten(lf);
    if (contains(text, "strict_cast")) EXPECT_TRUE(contains(text, ".fma(")) << text;
    else EXPECT_FALSE(contains(text, ".fma(")) << text;
  }
}

TEST(FusedArithmetic, SameResultsAsUnoptimized) {
  for (const LazyFrame& lf : {df().select({(col("b") * col("c") + col("b")).alias("x"),
                                           (lit(1.0) - col("b") * col("c")).alias("y"),
                                           (col("b") * col("c") - lit(2.0)).alias("z")}),
                              df().head(0).select({col("b") * col("c") + col("b")}),
                              df().head(1).select({col("b") * col("c") + col("b")}),
                              df().group_by({col("g")}).agg({(col("b") * col("c") + col("b")).sum()}).sort({col("g")})}) {
    expect_same_as_unoptimized(lf);
    Plan(lf).apply(optimizer::fused_arithmetic);
  }
}
