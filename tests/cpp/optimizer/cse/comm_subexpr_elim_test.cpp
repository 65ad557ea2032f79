#include "frazil/optimizer/cse/comm_subexpr_elim.hpp"

#include "cse_test_util.hpp"
#include "frazil/plan/optimization_rule.hpp"

using namespace frazil;
using namespace frazil::cse_test;
using optimizer::cse::comm_subexpr_elim;
using optimizer::cse::CseOptions;
using plan::IRKind;
using plan::Node;

namespace {

// Converts, runs only CSE (with `options`) and returns the plan.
Plan cse_only(const LazyFrame& q, const CseOptions& options = {}) {
  Plan p(q, OptFlags::none());
  comm_subexpr_elim(p.root, p.lp, p.ea, options);
  return p;
}

// Output equals the unoptimized run's, and the plan's schema is unchanged.
void check(const LazyFrame& q, const Plan& p) {
  DataFrame want = q.collect(OptFlags::none());
  DataFrame got = p.run();
  EXPECT_TRUE(got.equals(want)) << "got\n" << got.to_string() << "\nwant\n" << want.to_string() << "\n" << p.explain();
  EXPECT_EQ(*p.lp.get(p.root).schema, q.collect_schema());
  expect_same_as_unoptimized(q);
}

bool shift_is_random(const plan::AExpr& e) {
  return e.is_function("shift");
}

}  // namespace

TEST(CommSubexprElim, SelectComputesARepeatedExpressionOnce) {
  LazyFrame q = LazyFrame::from_frame(frame()).select(
      {((col("a") + col("b")) * 2).alias("x"), ((col("a") + col("b")) * 3).alias("y"), col("k")});
  Plan p = cse_only(q);
  const plan::IR& top = p.lp.get(p.root);
  ASSERT_EQ(top.kind(), IRKind::Select);
  const plan::IR& temps = p.lp.get(top.inputs[0]);
  ASSERT_EQ(temps.kind(), IRKind::HStack);
  ASSERT_EQ(plan::projection_exprs(temps).size(), 1u);
  EXPECT_EQ(plan::projection_exprs(temps)[0].output_name().rfind("__FRAZIL_CSER_0x", 0), 0u);
  EXPECT_EQ(p.count("__FRAZIL_CSER_0x"), 3u) << p.explain();  // defined once, read twice
  check(q, p);
}

TEST(CommSubexprElim, QuantilesWithDifferentProbabilitiesAreNotMerged) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame q = lf.with_columns({col("a").quantile(0.25).alias("q1"), col("a").quantile(0.75).alias("q3"),
                                 (col("a").quantile(0.75) - col("a").quantile(0.25)).alias("iqr")});
  Plan p = cse_only(q);
  // Two temporaries, one per quantile.
  const plan::IR& project = p.lp.get(p.root);
  ASSERT_EQ(project.kind(), IRKind::SimpleProjection) << p.explain();
  const plan::IR& temps = p.lp.get(p.lp.get(project.inputs[0]).inputs[0]);
  ASSERT_EQ(temps.kind(), IRKind::HStack);
  EXPECT_EQ(plan::projection_exprs(temps).size(), 2u) << p.explain();
  check(q, p);
  // In a select of scalars only there is no frame height to broadcast to: left alone.
  LazyFrame scalars = lf.select({col("a").quantile(0.25).alias("q1"), col("a").quantile(0.75).alias("q3"),
                                 (col("a").quantile(0.75) - col("a").quantile(0.25)).alias("iqr")});
  Plan s = cse_only(scalars);
  EXPECT_EQ(s.count("__FRAZIL_CSER"), 0u) << s.explain();
  check(scalars, s);
}

TEST(CommSubexprElim, ScalarsAreHoistedUnderElementwiseParentsOfAFrameHighSelect) {
  LazyFrame q = LazyFrame::from_frame(frame()).select(
      {(col("a") - col("a").mean()).alias("centered"), (col("a") / col("a").mean()).alias("ratio"),
       col("a").mean().alias("m"), (col("a").mean() * 2).sum().alias("inside_sum")});
  Plan p = cse_only(q);
  // Two temporaries: the mean, and the cast of `a` that coercion put beside it.
  const plan::IR& top = p.lp.get(p.root);
  const plan::IR& temps = p.lp.get(top.inputs[0]);
  ASSERT_EQ(temps.kind(), IRKind::HStack) << p.explain();
  ASSERT_EQ(plan::projection_exprs(temps).size(), 2u) << p.explain();
  EXPECT_EQ(p.ea.get(plan::projection_exprs(temps)[1].node()).kind, plan::AExprKind::Agg);
  // The mean under sum() is not replaced: a broadcast column would be summed n times.
  EXPECT_TRUE(plan::has_aggregation(plan::projection_exprs(top)[3].node(), p.ea) &&
              p.ea.get(p.ea.get(plan::projection_exprs(top)[3].node()).inputs[0]).kind != plan::AExprKind::Column);
  EXPECT_EQ(p.count("col(\"a\").mean()"), 2u) << p.explain();  // the temporary and the one under sum()
  check(q, p);
}

TEST(CommSubexprElim, ShiftInsideWhenThenStaysCorrect) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame q = lf.with_columns(
      {dsl::when(col("a").shift(1) > 5).then(col("a").shift(1)).otherwise(col("b")).alias("x"),
       (col("a").shift(1) * 2).alias("y")});
  Plan p = cse_only(q);
  EXPECT_EQ(p.count("__FRAZIL_CSER_0x"), 4u) << p.explain();
  check(q, p);
  // The same in a group_by: shift runs per group there, so it is not hoisted.
  LazyFrame g = lf.group_by({col("k")}, true)
                    .agg({col("a").shift(1).sum().alias("s"), col("a").shift(1).max().alias("m")});
  Plan pg = cse_only(g);
  EXPECT_EQ(pg.count("__FRAZIL_CSER"), 0u) << pg.explain();
  check(g, pg);
}

TEST(CommSubexprElim, GroupByHoistsOnlyWhatIsEvaluatedBeforeAggregation) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame q = lf.group_by({col("k")}, true)
                    .agg({(col("a") * col("b")).sum().alias("s"), (col("a") * col("b")).max().alias("m"),
                          (col("a").sum() * 2).alias("t"), (col("a").sum() + 1).alias("u"), dsl::len()});
  Plan p = cse_only(q);
  const plan::IR& agg = p.lp.get(p.root);
  ASSERT_EQ(agg.kind(), IRKind::GroupBy);
  const plan::IR& temps = p.lp.get(agg.inputs[0]);
  ASSERT_EQ(temps.kind(), IRKind::HStack) << p.explain();
  ASSERT_EQ(plan::projection_exprs(temps).size(), 1u);
  // The product is hoisted; no aggregation leaves the group context.
  EXPECT_FALSE(plan::has_aggregation(plan::projection_exprs(temps)[0].node(), p.ea)) << p.explain();
  for (const auto& e : agg.as<plan::GroupByNode>().aggs)
    if (e.output_name() == "t" || e.output_name() == "u")
      EXPECT_TRUE(plan::has_aggregation(e.node(), p.ea));
  check(q, p);
}

TEST(CommSubexprElim, WindowsAreHoistedWholeNeverFromInside) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame q = lf.select({(col("a").sum().over({col("k")}) + 1).alias("x"),
                           (col("a").sum().over({col("k")}) * 2).alias("y"), col("a").sum().alias("total"),
                           col("a")});
  Plan p = cse_only(q);
  const plan::IR& temps = p.lp.get(p.lp.get(p.root).inputs[0]);
  ASSERT_EQ(temps.kind(), IRKind::HStack) << p.explain();
  ASSERT_EQ(plan::projection_exprs(temps).size(), 1u);
  EXPECT_EQ(p.ea.get(plan::projection_exprs(temps)[0].node()).kind, plan::AExprKind::Window);
  check(q, p);
  // In a group_by a window is refused, and so is what it contains.
  LazyFrame g = lf.group_by({col("k")}, true)
                    .agg({(col("a") * 2).sum().over({col("b")}).sum().alias("x"),
                          (col("a") * 2).sum().over({col("b")}).max().alias("y")});
  Plan pg = cse_only(g);
  EXPECT_EQ(pg.count("__FRAZIL_CSER"), 0u) << pg.explain();
}

TEST(CommSubexprElim, NullLiteralsAndNonDeterminismAreRefused) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame nulls = lf.with_columns({dsl::when(col("a") > 3).then(dsl::lit_null()).otherwise(col("b")).alias("x"),
                                     dsl::when(col("a") > 3).then(dsl::lit_null()).otherwise(col("b")).alias("y")});
  Plan pn = cse_only(nulls);
  // Only the predicate, which has no null in it, is shared.
  EXPECT_EQ(pn.count("__FRAZIL_CSER_0x"), 3u) << pn.explain();
  check(nulls, pn);

  LazyFrame shifted = lf.with_columns({(col("a").shift(1) + 1).alias("x"), (col("a").shift(1) + 1).alias("y")});
  CseOptions random;
  random.hooks.nondeterministic = shift_is_random;
  Plan pr = cse_only(shifted, random);
  EXPECT_EQ(pr.count("__FRAZIL_CSER"), 0u) << pr.explain();
  Plan pd = cse_only(shifted);
  EXPECT_EQ(pd.count("__FRAZIL_CSER_0x"), 3u) << pd.explain();
  check(shifted, pd);
}

TEST(CommSubexprElim, RepeatsInsideTemporariesAreHoistedAgain) {
  dsl::Expr c = col("a").cast(DataType::float64());
  for (int i = 0; i < 6; ++i) c = (c + c) / 2;
  LazyFrame q = LazyFrame::from_frame(frame()).select({c.alias("c"), col("k")});
  Plan p = cse_only(q);
  // One with_columns per level, each computing its level once from the one below.
  EXPECT_EQ(p.count("WITH_COLUMNS"), 6u) << p.explain();
  check(q, p);
}

TEST(CommSubexprElim, OutputNamesSurvive) {
  LazyFrame q = LazyFrame::from_frame(frame()).with_columns({col("a") * 2, (col("a") * 2 + 1).alias("b"), lit(5)});
  Plan p = cse_only(q);
  EXPECT_GT(p.count("__FRAZIL_CSER_0x"), 0u) << p.explain();
  check(q, p);
  EXPECT_EQ(p.run().names(), (std::vector<std::string>{"k", "a", "b", "literal"}));
}

TEST(CommSubexprElim, ExplainAndTraceShowTheTemporary) {
  LazyFrame q = LazyFrame::from_frame(frame()).select({(col("a") * 7).alias("x"), (col("a") * 7 + 1).alias("y")});
  plan::RewriteTrace::set_enabled(true);
  plan::RewriteTrace::take();
  std::string text = q.explain();
  auto events = plan::RewriteTrace::take();
  plan::RewriteTrace::set_enabled(false);
  EXPECT_NE(text.find("WITH_COLUMNS"), std::string::npos) << text;
  EXPECT_NE(text.find(".alias(\"__FRAZIL_CSER_0x"), std::string::npos) << text;
  bool seen = false;
  for (const auto& e : events)
    if (e.rule == "comm_subexpr_elim") {
      seen = true;
      EXPECT_EQ(e.after.rfind("__FRAZIL_CSER_0x", 0), 0u);
      EXPECT_NE(e.before.find("col(\"a\")"), std::string::npos) << e.before;
    }
  EXPECT_TRUE(seen);
  EXPECT_EQ(q.explain(true, no_cse()).find("__FRAZIL_CSER"), std::string::npos);
}
