#include "frazil/exec/lower/lower.hpp"

#include "../exec_test_util.hpp"

using namespace frazil;
using namespace frazil::exec_test;
using dsl::col;
using dsl::lit;

namespace {

std::string physical_text(const LazyFrame& lf, const exec::ExecOptions& options = test_options()) {
  OptimizedPlan p(lf);
  return exec::lower_plan(p.root, p.lp, p.ea, options).explain();
}

DataFrame run(const LazyFrame& lf, const exec::ExecOptions& options = test_options()) {
  OptimizedPlan p(lf);
  exec::PhysicalPlan physical = exec::lower_plan(p.root, p.lp, p.ea, options);
  return exec::run_physical_plan(physical, options);
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

LazyFrame big() { return LazyFrame::from_frame(keyed(5000, 50)); }
LazyFrame small() { return LazyFrame::from_frame(keyed(10, 10, "k", "w")); }

}  // namespace

// One streaming pipeline: a memory frame, its filter and projection, into a collect.
TEST(Lowering, StreamingChainIsOnePipeline) {
  LazyFrame lf = LazyFrame::from_frame(keyed(10, 3)).filter(col("v") > lit(int64_t{3})).select({col("k")});
  EXPECT_EQ(physical_text(lf),
            "PHYSICAL PLAN: 1 pipeline, the result is pipeline 0's\n"
            "PIPELINE 0 (DataFrameScan)\n"
            "  source: memory frame: 10 rows, 2 columns\n"
            "  -> filter (col(\"v\") > 3)\n"
            "  -> columns [k]\n"
            "  sink: collect\n");  // the select of k alone: taken by the scan's projection
}

// The right side expected to be the smaller: built by its own pipeline, probed by the left.
TEST(Lowering, JoinProbesLeftAgainstSmallRight) {
  const std::string text = physical_text(big().join(small(), {col("k")}));
  EXPECT_TRUE(contains(text, "sink: join build: the right side of the inner join")) << text;
  EXPECT_TRUE(contains(text, "-> join probe: inner join on")) << text;
  EXPECT_TRUE(contains(text, "the left side streams (in its order) against the table of pipeline 0")) << text;
  EXPECT_TRUE(contains(text, "PIPELINE 1 (Join), reads 0")) << text;
  EXPECT_EQ(run(big().join(small(), {col("k")})).height(), 1000);
}

// The left side the smaller and the order observed: built on the left, matches in left order.
TEST(Lowering, JoinBuildsOnSmallLeftInLeftOrder) {
  LazyFrame q = small().join(big(), {col("k")});
  const std::string text = physical_text(q);
  EXPECT_TRUE(contains(text, "-> join match: keeps the right rows whose keys the left side's table has")) << text;
  EXPECT_TRUE(contains(text, "sink: left-build join: inner join on")) << text;
  EXPECT_TRUE(contains(text, "adaptive: when these rows' source has no more rows than the left side")) << text;
  const DataFrame out = run(q);
  ASSERT_EQ(out.height(), 1000);
  // Left order: the rows of the first left key come first.
  EXPECT_EQ(out.column("k").as_array()->values<int64_t>()[0], 0);
  EXPECT_EQ(out.column("k").as_array()->values<int64_t>()[999], 9);
}

// Nobody observes the join's order (a group-by above): built on the left, the right side's
// pipeline flows on through the probe into the group-by.
TEST(Lowering, UnorderedJoinLetsTheRightPipelineFlowOn) {
  LazyFrame q = small().join(big(), {col("k")}).group_by({col("k")}).agg({col("v").sum()});
  const std::string text = physical_text(q);
  EXPECT_TRUE(contains(text, "built on the left side (pipeline 0), the right side streams on through it in any order"))
      << text;
  EXPECT_EQ(count(text, "PIPELINE "), 2u) << text;
  EXPECT_EQ(run(q).height(), 10);
}

TEST(Lowering, FullJoinIsWhole) {
  LazyFrame q = big().join(small(), {col("k")}, JoinArgs{compute::JoinType::Full});
  const std::string text = physical_text(q);
  EXPECT_TRUE(contains(text, "sink: whole join: full join on")) << text;
  EXPECT_TRUE(contains(text, ", in one piece")) << text;
  EXPECT_EQ(run(q).height(), 5000);
}

// Sideways information passing: the join's left side runs first and its keys filter the
// right group-by's input, an edge from pipeline 0 into the group-by's pipeline.
TEST(Lowering, KeyFilterIsAPlanEdge) {
  LazyFrame grouped = big().group_by({col("k")}).agg({col("v").sum()});
  LazyFrame q = small().join(grouped, {col("k")});
  const std::string text = physical_text(q);
  EXPECT_TRUE(contains(text, "PIPELINE 1 (GroupBy), reads 0")) << text;
  EXPECT_TRUE(contains(text, "-> key filter: keeps the rows whose inner join on")) << text;
  EXPECT_TRUE(contains(text, "the left side (pipeline 0) has; adaptive: only when that side has at most 312 rows"))
      << text;
  EXPECT_TRUE(contains(text, "PIPELINE 2 (Join), reads 0, 1")) << text;
  EXPECT_TRUE(contains(text, "sink: whole join: inner join on")) << text;
  const DataFrame out = run(q);
  ASSERT_EQ(out.height(), 10);
  // Every left key's group is whole: sum of v over i % 50 == k for k < 10.
  const DataFrame expected = run(small().join(grouped, {col("k")}), test_options(1));
  EXPECT_TRUE(out.equals(expected));
}

// Polars' row_estimate off: no strategy chosen by estimated sizes (ProbeLeft, key filters);
// the order-keeping left build, with the same rows.
TEST(Lowering, WithoutRowEstimatesJoinsBuildOnTheLeft) {
  exec::ExecOptions no_estimates = test_options();
  no_estimates.row_estimate = false;
  const LazyFrame probe = big().join(small(), {col("k")});
  const std::string text = physical_text(probe, no_estimates);
  EXPECT_FALSE(contains(text, "join probe")) << text;
  EXPECT_TRUE(contains(text, "sink: left-build join: inner join on")) << text;
  EXPECT_TRUE(run(probe, no_estimates).equals(run(probe)));
  const LazyFrame key_filtered = small().join(big().group_by({col("k")}).agg({col("v").sum()}), {col("k")});
  const std::string filtered = physical_text(key_filtered, no_estimates);
  EXPECT_FALSE(contains(filtered, "key filter")) << filtered;
  EXPECT_TRUE(run(key_filtered, no_estimates).equals(run(key_filtered)));
}

// Two phases on any thread count (the sink decides by the source's rows): on one thread too,
// so a big input streams into partial states instead of being held whole (worker memory).
TEST(Lowering, GroupByTwoPhaseOnAnyThreadCount) {
  LazyFrame q = big().group_by({col("k")}).agg({col("v").sum()});
  for (int threads : {1, 2}) {
    const std::string text = physical_text(q, test_options(threads));
    EXPECT_TRUE(contains(text, "adaptive: two-phase (partial states per morsel, combined at finalize) when the source "
                               "has at least 2000 rows at run time"))
        << text;
  }
  LazyFrame sorted = q.sort({col("k")});
  EXPECT_TRUE(run(sorted, test_options(2)).equals(run(sorted, test_options(1))));
}

TEST(Lowering, SortWithSliceIsTopK) {
  LazyFrame q = big().sort({col("v")}, SortArgs{{true}, {false}, false}).head(3);
  const std::string text = physical_text(q);
  EXPECT_TRUE(contains(text, "sink: sort by [col(\"v\")], descending [true]")) << text;
  EXPECT_TRUE(contains(text, "top-k: rows [0, +3), the kernel stops after 3")) << text;
  const DataFrame out = run(q);
  ASSERT_EQ(out.height(), 3);
  EXPECT_EQ(out.column("v").as_array()->values<int64_t>()[0], 4999);
}

// A shared subplan is one pipeline, read by both consumers, computed once.
TEST(Lowering, CacheIsOnePipelineSharedByItsConsumers) {
  LazyFrame shared = big().filter(col("v") > lit(int64_t{3})).with_columns({(col("v") * lit(int64_t{2})).alias("c")});
  LazyFrame q = concat({shared.select({col("k"), col("c")}), shared.select({col("c"), col("k")}).select({col("k"), col("c")})});
  const std::string text = physical_text(q);
  EXPECT_EQ(count(text, "sink: cache "), 1u) << text;
  EXPECT_TRUE(contains(text, "read by 2 consumers")) << text;
  EXPECT_TRUE(contains(text, "sink: union of 2 inputs, in order")) << text;
  exec::ExecStats stats;
  exec::ExecOptions options = test_options();
  options.stats = &stats;
  const DataFrame out = run(q, options);
  EXPECT_EQ(out.height(), 2 * 4996);
  EXPECT_EQ(stats.cache_computations.load(), 1);
  EXPECT_EQ(stats.cache_reuses.load(), 1);
}

// explain_physical is what execute_plan runs, and lowering reads no data: the text is the
// same every time.
TEST(Lowering, ExplainIsDeterministic) {
  LazyFrame q = small().join(big(), {col("k")}).group_by({col("k")}).agg({col("v").sum()}).sort({col("k")});
  OptimizedPlan p(q);
  const std::string a = exec::explain_physical(p.root, p.lp, p.ea, test_options());
  const std::string b = exec::explain_physical(p.root, p.lp, p.ea, test_options());
  EXPECT_EQ(a, b);
  EXPECT_TRUE(contains(a, "sink: sort by [col(\"k\")]")) << a;
}
