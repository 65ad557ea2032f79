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

TEST(ProjectionPushdown, PlanThatNeedsEverythingIsLeftAsItIs) {
  // A long with_columns chain whose every column is used: no node changes, so no schema is
  // rebuilt (each keeps the very same object) and the pass stays linear in the plan.
  LazyFrame lf = df();
  for (int i = 0; i < 50; ++i)
    lf = lf.with_columns({(col(i ? "c" + std::to_string(i - 1) : "a") * 2).alias("c" + std::to_string(i))});
  lf = lf.filter(col("a") > 0).sort({col("c49")}).rename({{"g", "h"}});
  Plan plan(lf);
  std::vector<const Schema*> before;
  for (size_t i = 0; i < plan.lp.size(); ++i) before.push_back(plan.lp.get(plan::Node(i)).schema.get());
  const std::string text = plan.explain();
  plan.apply(projection_pushdown);
  EXPECT_EQ(plan.explain(), text);
  for (size_t i = 0; i < before.size(); ++i) EXPECT_EQ(plan.lp.get(plan::Node(i)).schema.get(), before[i]) << i;
}

TEST(ProjectionPushdown, NeedingEverythingAboveStillPrunesBelowASelect) {
  // The root needs all of its columns; the select below needs only some of the chain's.
  LazyFrame lf = df();
  for (int i = 0; i < 20; ++i) lf = lf.with_columns({(col("a") + i).alias("c" + std::to_string(i))});
  std::string p = projected(lf.select({col("c3"), col("g")}).with_columns({col("c3").alias("d")}));
  EXPECT_TRUE(contains(p, "PROJECT[\"a\", \"g\"] 2/3")) << p;
  EXPECT_FALSE(contains(p, "c4")) << p;
  EXPECT_TRUE(contains(p, "c3")) << p;
}

TEST(ProjectionPushdown, SmallSubplanOfABigArena) {
  // The pass run on a few nodes of a big arena (as cache_states does per consumer) keeps
  // its state per node of that subplan only, and prunes it the same.
  LazyFrame wide = df();
  for (int i = 0; i < 40; ++i) wide = wide.with_columns({(col("a") + i).alias("w" + std::to_string(i))});
  LazyFrame arm2 = df().with_columns({(col("b") * 2).alias("c")}).select({col("a"), col("g")}).with_columns(
      {col("a").cast(DataType::float64()).alias("b")});
  Plan plan(concat({wide.select({col("a"), col("b"), col("g")}), arm2.select({col("a"), col("b"), col("g")})}));
  const plan::IR& root = plan.lp.get(plan.root);
  ASSERT_EQ(root.kind(), plan::IRKind::Union);
  const plan::Node arm = root.inputs[1];
  ASSERT_LT(8 * 5u, plan.lp.size());  // the arm has 5 nodes: the hash-map slots
  const plan::Node out = optimizer::projection_pushdown(arm, plan.lp, plan.ea);
  const std::string text = plan::explain_plan(out, plan.lp, plan.ea);
  EXPECT_FALSE(contains(text, "col(\"b\") * 2")) << text;  // c is never read
  EXPECT_TRUE(contains(text, "PROJECT[\"a\", \"g\"] 2/3")) << text;
  EXPECT_EQ(*plan.lp.get(out).schema, *plan.lp.get(arm).schema);
}
