// FilterConstraintRule: rewrite pairs (plan text before -> after) and equal results.
#include "frazil/optimizer/filter_constraint.hpp"

#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

LazyFrame df() { return LazyFrame::from_frame(frame()); }

std::string rewritten(const LazyFrame& lf) {
  Plan plan(lf);
  plan.apply(optimizer::filter_constraint);
  return plan.explain();
}

}  // namespace

TEST(FilterConstraint, BoundsMergeIntoTheTightest) {
  EXPECT_TRUE(contains(rewritten(df().filter((col("a") > lit(5)) & (col("a") > lit(3)))), "FILTER col(\"a\") > 5\n"));
  EXPECT_TRUE(contains(rewritten(df().filter((lit(3) < col("a")) & (col("a") >= lit(1)))), "FILTER col(\"a\") > 3\n"));
  EXPECT_TRUE(contains(rewritten(df().filter((col("a") > lit(1)) & (col("a") == lit(4)))), "FILTER col(\"a\") == 4\n"));
  EXPECT_TRUE(contains(rewritten(df().filter((col("a") >= lit(2)) & (col("a") != lit(2)))), "FILTER col(\"a\") > 2\n"));
  // Other conjuncts come first, in their order; the merged comparisons after them.
  const std::string text =
      rewritten(df().filter((col("a") > lit(1)) & (col("g") == lit("x")) & (col("a") > lit(2)) & (col("b") < lit(9.0))));
  EXPECT_TRUE(contains(text, "FILTER ((col(\"g\") == \"x\") & (col(\"a\") > 2)) & (col(\"b\") < 9.0)")) << text;
}

TEST(FilterConstraint, ImpossibleBoundsAreFalse) {
  EXPECT_TRUE(contains(rewritten(df().filter((col("a") > lit(5)) & (col("a") < lit(3)))), "FILTER false"));
  EXPECT_TRUE(contains(rewritten(df().filter((col("a") >= lit(3)) & (col("a") < lit(3)))), "FILTER false"));
  EXPECT_TRUE(contains(rewritten(df().filter((col("a") == lit(3)) & (col("a") != lit(3)))), "FILTER false"));
  // NaN is the greatest float: nothing is above it.
  EXPECT_TRUE(contains(rewritten(df().filter(col("b") > lit(std::nan("")))), "FILTER col(\"b\") > NaN"));
  EXPECT_TRUE(contains(rewritten(df().filter((col("b") > lit(std::nan(""))) & (col("b") < lit(1.0)))), "FILTER false"));
}

TEST(FilterConstraint, NothingToMergeStays) {
  for (const LazyFrame& lf : {df().filter((col("a") > lit(1)) & (col("a") < lit(5))), df().filter(col("a") == lit(1)),
                              df().filter((col("a") > lit(1)) | (col("a") > lit(2))),
                              df().filter((col("a") > lit(1)) & (col("b") > lit(1.0)))}) {
    const std::string before = Plan(lf).explain();
    EXPECT_EQ(rewritten(lf), before);
  }
}

TEST(FilterConstraint, SameResultsAsUnoptimized) {
  for (const LazyFrame& lf : {df().filter((col("a") > lit(1)) & (col("a") > lit(3))),
                              df().filter((col("a") > lit(5)) & (col("a") < lit(3))),
                              df().filter((col("b") >= lit(-0.0)) & (col("b") <= lit(0.0))),
                              df().filter((col("b") >= lit(0.0)) & (col("b") != lit(0.0))),
                              df().filter((col("a") >= lit(2)) & (col("a") != lit(2)) & (col("a") != lit(4))),
                              df().head(0).filter((col("a") > lit(5)) & (col("a") < lit(3))),
                              df().head(1).filter((col("a") > lit(0)) & (col("a") >= lit(1)))}) {
    expect_same_as_unoptimized(lf);
    Plan(lf).apply(optimizer::filter_constraint);
  }
}
