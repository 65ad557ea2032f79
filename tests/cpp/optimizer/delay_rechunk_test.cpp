// DelayRechunk: rewrite pairs (plan text before -> after), the executor's contiguous union
// output, and equal results with the rule and without.
#include "frazil/optimizer/delay_rechunk.hpp"

#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

LazyFrame df() { return LazyFrame::from_frame(frame()); }
LazyFrame rechunked(const LazyFrame& lf) { return concat({lf, lf}, /*rechunk=*/true); }

std::string rewritten(const LazyFrame& lf) {
  Plan plan(lf);
  plan.apply(optimizer::delay_rechunk);
  return plan.explain();
}

bool every_column_one_chunk(const DataFrame& out) {
  for (const auto& c : out.columns())
    if (c.num_chunks() != 1) return false;
  return true;
}

}  // namespace

TEST(DelayRechunk, GroupByOverARechunkedUnionDropsTheRechunk) {
  const LazyFrame lf = rechunked(df()).group_by({col("g")}).agg({col("b").sum()});
  const std::string before = Plan(lf).explain();
  EXPECT_EQ(before,
            "AGGREGATE[maintain_order: false]\n"
            "  [col(\"b\").sum()] BY [col(\"g\")]\n"
            "  FROM\n"
            "    UNION[rechunk: true]\n"
            "      PLAN 0:\n"
            "        DF [\"a\", \"b\", \"g\"]; PROJECT */3 COLUMNS\n"
            "      PLAN 1:\n"
            "        DF [\"a\", \"b\", \"g\"]; PROJECT */3 COLUMNS\n"
            "    END UNION");
  EXPECT_EQ(rewritten(lf),
            "AGGREGATE[maintain_order: false]\n"
            "  [col(\"b\").sum()] BY [col(\"g\")]\n"
            "  FROM\n"
            "    UNION\n"
            "      PLAN 0:\n"
            "        DF [\"a\", \"b\", \"g\"]; PROJECT */3 COLUMNS\n"
            "      PLAN 1:\n"
            "        DF [\"a\", \"b\", \"g\"]; PROJECT */3 COLUMNS\n"
            "    END UNION");
}

TEST(DelayRechunk, JoinSortAndDistinctLookThroughRowWiseNodes) {
  const LazyFrame below = rechunked(df()).filter(col("a") > lit(1)).with_columns({(col("b") * lit(2.0)).alias("c")});
  for (const LazyFrame& lf : {below.join(LazyFrame::from_frame(right_frame()), {col("a")}),
                              LazyFrame::from_frame(right_frame()).join(below.select({col("a")}), {col("a")}),
                              below.sort({col("a")}), below.unique()}) {
    EXPECT_TRUE(contains(Plan(lf).explain(), "UNION[rechunk: true]"));
    const std::string text = rewritten(lf);
    EXPECT_FALSE(contains(text, "rechunk")) << text;
  }
}

TEST(DelayRechunk, KeptWhereTheOutputIsRead) {
  // The query's result, a slice (not row-wise) and a union read twice keep it.
  for (const LazyFrame& lf : {rechunked(df()), rechunked(df()).filter(col("a") > lit(1)),
                              rechunked(df()).head(3).group_by({col("g")}).agg({col("b").sum()})}) {
    const std::string text = rewritten(lf);
    EXPECT_TRUE(contains(text, "UNION[rechunk: true]")) << text;
  }
  Plan plan(rechunked(df()));
  const plan::Node shared = plan.root;
  const auto schema = plan.lp.get(shared).schema;
  plan.root = plan.lp.add(plan::IR(plan::UnionNode{}, {shared, shared}, schema));
  plan.apply(optimizer::delay_rechunk);
  EXPECT_TRUE(plan.lp.get(shared).as<plan::UnionNode>().rechunk) << plan.explain();
}

TEST(DelayRechunk, TheExecutorRechunksTheUnionsOutput) {
  const DataFrame contiguous = rechunked(df()).collect();
  EXPECT_TRUE(every_column_one_chunk(contiguous));
  EXPECT_EQ(contiguous.height(), 12);
  // Without rechunk, the two inputs stay two chunks (the contrast makes the check able to fail).
  EXPECT_FALSE(every_column_one_chunk(concat({df(), df()}).collect()));
  EXPECT_TRUE(concat({df(), df()}, true).collect().equals(concat({df(), df()}).collect()));
}

TEST(DelayRechunk, SameResultsWithAndWithout) {
  // Plan::apply compares the results before and after the rule.
  for (const LazyFrame& in : {df(), df().head(0), df().head(1)}) {
    rewritten(rechunked(in).group_by({col("g")}, true).agg({col("b").sum(), col("a").count()}));
    rewritten(rechunked(in).join(LazyFrame::from_frame(right_frame()), {col("a")}).sort({col("a"), col("b")}));
    rewritten(rechunked(in).filter(col("b") > lit(-1.0)).sort({col("b")}));
    expect_same_as_unoptimized(rechunked(in).group_by({col("a")}, true).agg({col("b").max()}));
  }
}
