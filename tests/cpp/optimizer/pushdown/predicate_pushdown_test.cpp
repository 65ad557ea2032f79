#include "frazil/optimizer/pushdown/predicate_pushdown.hpp"

#include "pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;
using optimizer::predicate_pushdown;

namespace {

std::string pushed(const LazyFrame& lf) { return Plan(lf).apply(predicate_pushdown).explain(); }

LazyFrame df() { return LazyFrame::from_frame(frame()); }
LazyFrame right() { return LazyFrame::from_frame(right_frame()); }

JoinArgs how(compute::JoinType t) {
  JoinArgs a;
  a.how = t;
  return a;
}

}  // namespace

TEST(PredicatePushdown, IntoTheScanThroughProjections) {
  std::string p = pushed(df().with_columns({(col("a") * 2).alias("c")}).filter(col("g") == lit("x")).filter(col("a") > 1));
  EXPECT_TRUE(contains(p, "SELECTION: (col(\"g\") == \"x\") & (col(\"a\") > 1)")) << p;
  EXPECT_FALSE(contains(p, "FILTER")) << p;
}

TEST(PredicatePushdown, ComputedAndOverwrittenColumnsBlock) {
  std::string p = pushed(df().with_columns({(col("a") * 2).alias("a")}).filter(col("a") > 1));
  EXPECT_TRUE(contains(p, "FILTER col(\"a\") > 1")) << p;
  EXPECT_FALSE(contains(p, "SELECTION")) << p;
}

TEST(PredicatePushdown, AliasesAreFollowed) {
  std::string p = pushed(df().select({col("a").alias("x"), col("b").alias("a")}).filter(col("a") >= 0));
  EXPECT_TRUE(contains(p, "SELECTION: col(\"b\") >= 0.0")) << p;
}

TEST(PredicatePushdown, NonRowLocalFilterIsABarrier) {
  std::string p = pushed(df().filter(col("a") == col("a").min()).filter(col("a") > 3));
  EXPECT_TRUE(contains(p, "FILTER col(\"a\") > 3\nFROM\n  FILTER col(\"a\") == col(\"a\").min()")) << p;
  EXPECT_FALSE(contains(p, "SELECTION")) << p;
  p = pushed(df().filter(col("a") > 3).filter(col("a") == col("a").min()));
  EXPECT_TRUE(contains(p, "SELECTION: col(\"a\") > 3")) << p;
}

TEST(PredicatePushdown, SliceAndRowIndexBlock) {
  std::string p = pushed(df().with_row_index().filter(col("index") == 1));
  EXPECT_TRUE(contains(p, "FILTER col(\"index\") == 1\nFROM\n  ROW_INDEX")) << p;
  p = pushed(concat({df(), df()}).head(3).filter(col("a") > 1));
  EXPECT_TRUE(contains(p, "FILTER col(\"a\") > 1\nFROM\n  SLICE")) << p;
  EXPECT_FALSE(contains(p, "SELECTION")) << p;
}

TEST(PredicatePushdown, WindowsLetOnlySharedPartitionKeysThrough) {
  auto w = df().with_columns({col("a").sum().over({col("g")}).alias("s"), col("g").alias("k")});
  EXPECT_TRUE(contains(pushed(w.filter(col("k") == lit("x"))), "SELECTION: col(\"g\") == \"x\""));
  EXPECT_TRUE(contains(pushed(w.filter(col("a") > 1)), "FILTER col(\"a\") > 1"));
  auto overwritten = df().with_columns({col("a").sum().over({col("g")}).alias("s"), lit("z").alias("g")});
  EXPECT_TRUE(contains(pushed(overwritten.filter(col("g") == lit("z"))), "FILTER col(\"g\") == \"z\""));
  auto two = df().with_columns({col("a").sum().over({col("g")}).alias("s"), col("a").max().over({col("b")}).alias("t")});
  EXPECT_TRUE(contains(pushed(two.filter(col("g") == lit("x"))), "FILTER"));
}

TEST(PredicatePushdown, LeftJoinRightPredicates) {
  auto j = df().join(right(), {col("a")}, how(compute::JoinType::Left));
  // fill_null and is_null keep the padding rows: the filter stays above the left join.
  for (auto pred : {col("f").fill_null(lit(true)), col("f").is_null(), dsl::coalesce({col("f"), lit(true)})}) {
    std::string p = pushed(j.filter(pred));
    EXPECT_TRUE(contains(p, "FILTER") && contains(p, "LEFT JOIN")) << p;
    EXPECT_FALSE(contains(p, "SELECTION")) << p;
  }
  // A null-rejecting one makes it an inner join and goes right.
  std::string p = pushed(j.filter(col("f")));
  EXPECT_TRUE(contains(p, "INNER JOIN") && contains(p, "SELECTION: col(\"f\")")) << p;
  EXPECT_FALSE(contains(p, "FILTER")) << p;
  // Left predicates go left and the join stays a left join.
  p = pushed(j.filter(col("b") > 0.5));
  EXPECT_TRUE(contains(p, "LEFT JOIN") && contains(p, "SELECTION: col(\"b\") > 0.5")) << p;
}

TEST(PredicatePushdown, SuffixedColumnsOfASelfJoin) {
  std::string p = pushed(df().join(df(), {col("a")}).filter(col("g_right") == lit("y")).filter(col("b") >= 0));
  EXPECT_LT(p.find("SELECTION: col(\"b\") >= 0.0"), p.find("RIGHT PLAN")) << p;
  EXPECT_GT(p.find("SELECTION: col(\"g\") == \"y\""), p.find("RIGHT PLAN")) << p;
}

TEST(PredicatePushdown, FullJoinKeepsEverythingAbove) {
  std::string p = pushed(df().join(df(), {col("a")}, how(compute::JoinType::Full)).filter(col("g") == lit("x")));
  EXPECT_TRUE(contains(p, "FILTER col(\"g\") == \"x\"\nFROM\n  FULL JOIN")) << p;
}

TEST(PredicatePushdown, GroupByKeys) {
  auto plain = df().group_by({col("g").alias("k")}).agg({col("a").sum()});
  EXPECT_TRUE(contains(pushed(plain.filter(col("k") == lit("x"))), "SELECTION: col(\"g\") == \"x\""));
  EXPECT_TRUE(contains(pushed(plain.filter(col("a") > 1)), "FILTER"));
  auto computed = df().group_by({(col("a") + 1).alias("a")}).agg({col("b").sum()});
  EXPECT_TRUE(contains(pushed(computed.filter(col("a") > 2)), "FILTER col(\"a\") > 2"));
  // 1 / key tells -0.0 from 0.0, which share a group.
  auto floats = df().group_by({col("b")}, true).agg({col("a").sum()});
  EXPECT_TRUE(contains(pushed(floats.filter(lit(1) / col("b") > 0)), "FILTER"));
  EXPECT_TRUE(contains(pushed(floats.filter(col("b") == 0.0)), "SELECTION: col(\"b\") == 0.0"));
}

TEST(PredicatePushdown, UnionArmsGetTheirOwnCopies) {
  Plan plan(concat({df(), df()}).filter(col("g") == lit("x")));
  plan.apply(predicate_pushdown);
  const plan::IR& u = plan.lp.get(plan.root);
  ASSERT_EQ(u.kind(), plan::IRKind::Union);
  const plan::ExprIR* p0 = plan::predicate_of(plan.lp.get(u.inputs[0]));
  const plan::ExprIR* p1 = plan::predicate_of(plan.lp.get(u.inputs[1]));
  ASSERT_TRUE(p0 && p1);
  EXPECT_NE(p0->node(), p1->node());
}

TEST(PredicatePushdown, FallibleCastStaysAboveTheFilterProtectingIt) {
  PrimitiveBuilder<int64_t> a(DataType::int64());
  for (int64_t v : {1, 300, 2}) a.push(v);
  auto lf = LazyFrame::from_frame(DataFrame({Column("a", a.finish())}))
                .filter(col("a") < 100)
                .filter(col("a").cast(DataType::int8()) > 1);
  std::string p = pushed(lf);
  EXPECT_TRUE(contains(p, "FILTER col(\"a\").strict_cast(Int8) > 1")) << p;
  EXPECT_TRUE(contains(p, "SELECTION: col(\"a\") < 100")) << p;
  expect_same_as_unoptimized(lf);
}

TEST(PredicatePushdown, SharedNodeIsOptimizedOnce) {
  // Two consumers of one node: each keeps its own filter above it.
  Plan plan(df());
  SchemaRef schema = plan.lp.get(plan.root).schema;
  plan.root = plan.lp.add(plan::IR(plan::UnionNode{}, {plan.root, plan.root}, schema));
  plan::Node pred = plan.ea.add(plan::AExpr::binary(plan.ea.add(plan::AExpr::column("a")), dsl::Operator::Gt,
                                                    plan.ea.add(plan::AExpr::scalar(Scalar::int64(1)))));
  plan.root = plan.lp.add(
      plan::make_filter(plan.root, plan::ExprIR(pred, plan::OutputName{plan::OutputNameKind::ColumnLhs, "a"}), schema));
  plan.apply(predicate_pushdown);
  std::string p = plan.explain();
  EXPECT_EQ(std::count(p.begin(), p.end(), '>'), 2) << p;
  EXPECT_FALSE(contains(p, "SELECTION")) << p;
}
