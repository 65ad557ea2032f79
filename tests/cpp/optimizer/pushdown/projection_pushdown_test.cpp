#include "frazil/optimizer/pushdown/projection_pushdown.hpp"

#include "pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;
using optimizer::projection_pushdown;

namespace {

std::string projected(const LazyFrame& lf) { return Plan(lf).apply(projection_pushdown).explain(); }

LazyFrame df() { return LazyFrame::from_frame(frame()); }

}  // namespace

TEST(ProjectionPushdown, ScansReadOnlyUsedColumns) {
  EXPECT_TRUE(contains(projected(df().filter(col("a") > 1).select({col("g")})), "PROJECT[\"a\", \"g\"] 2/3 COLUMNS"));
  EXPECT_TRUE(contains(projected(df().select({col("b")})), "PROJECT[\"b\"] 1/3 COLUMNS"));
  EXPECT_TRUE(contains(projected(df()), "PROJECT */3 COLUMNS"));
}

TEST(ProjectionPushdown, NoColumnUsedStillKeepsTheHeight) {
  std::string p = projected(df().with_columns({(col("b") + 1).alias("c")}).select({dsl::len()}));
  EXPECT_TRUE(contains(p, "PROJECT[\"a\"] 1/3 COLUMNS")) << p;  // the narrowest column
  EXPECT_FALSE(contains(p, "WITH_COLUMNS")) << p;
  EXPECT_TRUE(contains(projected(concat({df(), df()}).select({dsl::len()})), "PROJECT[\"a\"] 1/3"));
  EXPECT_TRUE(contains(projected(df().with_row_index().select({dsl::len()})), "PROJECT[\"a\"] 1/3"));
}

TEST(ProjectionPushdown, SelectKeepsAFrameHeightExpression) {
  // Only the broadcast sum is used, but the select has the frame's height.
  auto lf = df().select({col("a").sum(), col("b").alias("c")}).select({col("a")});
  Plan plan(lf);
  plan.apply(projection_pushdown);
  EXPECT_EQ(plan.run().height(), 6);
}

TEST(ProjectionPushdown, JoinsGroupBysAndSuffixes) {
  std::string p = projected(df().join(LazyFrame::from_frame(right_frame()), {col("a")})
                                .group_by({col("g")})
                                .agg({col("f").sum()}));
  EXPECT_TRUE(contains(p, "PROJECT[\"a\", \"g\"] 2/3")) << p;
  EXPECT_TRUE(contains(p, "PROJECT */2")) << p;
  // b_right keeps its suffix only next to the left b.
  p = projected(df().join(df(), {col("g")}).select({col("b_right")}));
  EXPECT_EQ(std::count(p.begin(), p.end(), '2'), 2) << p;
  EXPECT_TRUE(contains(p, "PROJECT[\"b\", \"g\"] 2/3")) << p;
}

TEST(ProjectionPushdown, UniqueOverAllColumnsReadsAll) {
  EXPECT_TRUE(contains(projected(df().unique().select({col("a")})), "PROJECT */3"));
  EXPECT_TRUE(contains(projected(df().unique({"g"}).select({col("a")})), "PROJECT[\"a\", \"g\"] 2/3"));
}

TEST(ProjectionPushdown, RenamesAndDrops) {
  std::string p = projected(df().rename({{"a", "b"}, {"b", "a"}}).drop({"g"}).select({col("a")}));
  EXPECT_TRUE(contains(p, "PROJECT[\"b\"] 1/3")) << p;
  EXPECT_TRUE(contains(p, "RENAME [\"b\"] -> [\"a\"]")) << p;
  // A rename of which nothing is used goes.
  p = projected(df().rename({{"b", "c"}}).select({col("a")}));
  EXPECT_FALSE(contains(p, "RENAME")) << p;
}

TEST(ProjectionPushdown, UnionArmsAreExact) {
  auto arm2 = df().with_columns({(col("a") + 1).alias("c")}).select({col("c").alias("a"), col("b"), col("g")});
  std::string p = projected(concat({df(), arm2}).select({col("g")}));
  EXPECT_TRUE(contains(p, "PROJECT[\"g\"] 1/3")) << p;
  EXPECT_FALSE(contains(p, "WITH_COLUMNS")) << p;
}
