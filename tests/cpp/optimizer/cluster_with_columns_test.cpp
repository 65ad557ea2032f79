// cluster_with_columns: rewrite pairs (plan text before -> after) and equal results.
#include "frazil/optimizer/cluster_with_columns.hpp"

#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

LazyFrame df() { return LazyFrame::from_frame(frame()); }

std::string rewritten(const LazyFrame& lf) {
  Plan plan(lf);
  plan.apply(optimizer::cluster_with_columns);
  return plan.explain();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(ClusterWithColumns, IndependentStagesMerge) {
  const LazyFrame lf = df().with_columns({(col("a") + lit(1)).alias("x")}).with_columns({(col("b") * lit(2.0)).alias("y")});
  EXPECT_EQ(count(Plan(lf).explain(), "WITH_COLUMNS"), 2u);
  const std::string text = rewritten(lf);
  EXPECT_EQ(count(text, "WITH_COLUMNS"), 1u) << text;
  EXPECT_TRUE(contains(text, "[(col(\"a\") + 1).alias(\"x\"), (col(\"b\") * 2.0).alias(\"y\")]")) << text;
}

TEST(ClusterWithColumns, OverwrittenUnreadColumnIsComputedOnce) {
  const std::string text =
      rewritten(df().with_columns({(col("a") + lit(1)).alias("x")}).with_columns({(col("a") * lit(3)).alias("x")}));
  EXPECT_EQ(count(text, "WITH_COLUMNS"), 1u) << text;
  EXPECT_FALSE(contains(text, "+ 1")) << text;
}

TEST(ClusterWithColumns, DependentExpressionsStay) {
  // y reads x, which the lower stage computes.
  EXPECT_EQ(count(rewritten(df().with_columns({(col("a") + lit(1)).alias("x")})
                                .with_columns({(col("x") * lit(2)).alias("y")})),
                  "WITH_COLUMNS"),
            2u);
  // a = g_len moves would replace "a", which y (staying, it reads x) still reads.
  const std::string text = rewritten(df().with_columns({(col("a") + lit(1)).alias("x")})
                                         .with_columns({(col("x") + col("a")).alias("y"), lit(7).alias("a")}));
  EXPECT_EQ(count(text, "WITH_COLUMNS"), 2u) << text;
}

TEST(ClusterWithColumns, ColumnOrderIsKept) {
  // z moves down and would come out before y, which stays (it reads x): a projection puts
  // the columns back in the order with_columns gives them.
  const LazyFrame lf = df().with_columns({(col("a") + lit(1)).alias("x")})
                           .with_columns({(col("x") * lit(2)).alias("y"), (col("b") + lit(1.0)).alias("z")});
  const std::string text = rewritten(lf);
  EXPECT_EQ(count(text, "WITH_COLUMNS"), 2u) << text;
  EXPECT_TRUE(contains(text, "simple π 6/6")) << text;
  Plan plan(lf);
  plan.apply(optimizer::cluster_with_columns);
  EXPECT_EQ(plan.lp.get(plan.root).schema->names(), (std::vector<std::string>{"a", "b", "g", "x", "y", "z"}));
  EXPECT_TRUE(contains(text, "[(col(\"a\") + 1).alias(\"x\"), (col(\"b\") + 1.0).alias(\"z\")]")) << text;
  expect_same_as_unoptimized(lf);
}

TEST(ClusterWithColumns, SameResultsAsUnoptimized) {
  for (const LazyFrame& lf :
       {df().with_columns({(col("a") + lit(1)).alias("x")}).with_columns({(col("b") * lit(2.0)).alias("y")}),
        df().with_columns({(col("a") + lit(1)).alias("x")}).with_columns({(col("a") * lit(3)).alias("x")}),
        df().with_columns({(col("b") + lit(1.0)).alias("a")}).with_columns({col("a").alias("y"), lit(1).alias("b")}),
        df().with_columns({lit(1).alias("x")}).with_columns({lit(2).alias("y")}).with_columns({lit(3).alias("x")}),
        df().head(0).with_columns({(col("a") + lit(1)).alias("x")}).with_columns({col("g").alias("y")}),
        df().head(1).with_columns({(col("a") + lit(1)).alias("x")}).with_columns({col("g").alias("y")})}) {
    expect_same_as_unoptimized(lf);
    Plan(lf).apply(optimizer::cluster_with_columns);
  }
}
