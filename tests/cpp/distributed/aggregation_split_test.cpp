// The partial/final split against the whole aggregation: the input is cut into N
// contiguous partitions (some empty, one-row, skewed), each runs the partial, the partials
// are concatenated and the final folds them; the result must equal the original's.
#include "frazil/distributed/aggregation_split.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "../exec/exec_test_util.hpp"

namespace frazil::distributed {
namespace {

using dsl::col;
using dsl::lit;
using exec_test::OptimizedPlan;

// Columns i (0..n-1), k (skewed key with nulls), v (Float64 with nulls and NaN), s
// (String), b (Boolean with nulls), x (Int64 with nulls).
DataFrame sample(int64_t n) {
  PrimitiveBuilder<int64_t> ib(DataType::int64()), kb(DataType::int64()), xb(DataType::int64());
  PrimitiveBuilder<double> vb(DataType::float64());
  for (int64_t i = 0; i < n; ++i) {
    ib.push(i);
    if (i % 11 == 5) kb.push_null();
    else kb.push(i % 5 == 0 ? 0 : (i * 7919) % 7);  // key 0 is hot
    if (i % 9 == 4) vb.push_null();
    else if (i % 23 == 7) vb.push(std::nan(""));
    else vb.push(static_cast<double>((i * 31) % 17) - 8.5 + 1e6);
    if (i % 4 == 1) xb.push_null();
    else xb.push((i * 13) % 29 - 14);
  }
  DataFrame df({Column("i", ib.finish()), Column("k", kb.finish()), Column("v", vb.finish()),
                Column("x", xb.finish())});
  return LazyFrame::from_frame(df)
      .with_columns({col("x").cast(DataType::string()).alias("s"),
                     (col("x") > lit(0)).alias("b")})
      .collect();
}

// `df` rounded in its float columns (partial sums and Chan's merge differ in the last bits).
DataFrame rounded(const DataFrame& df) {
  std::vector<dsl::Expr> exprs;
  const Schema schema = df.schema();
  for (const auto& f : schema.fields())
    exprs.push_back(f.dtype.is_float() ? col(f.name).round(6) : col(f.name));
  return LazyFrame::from_frame(df).select(exprs).collect();
}

// The rows of `df` from `bounds[p]` to `bounds[p+1]`, for every p.
std::vector<DataFrame> cut(const DataFrame& df, const std::vector<int64_t>& bounds) {
  std::vector<DataFrame> parts;
  for (size_t p = 0; p + 1 < bounds.size(); ++p) parts.push_back(df.slice(bounds[p], bounds[p + 1] - bounds[p]));
  return parts;
}

plan::Node frame_node(const DataFrame& df, plan::IRArena& lp) {
  auto schema = std::make_shared<const Schema>(df.schema());
  plan::DataFrameScanNode scan{std::make_shared<const DataFrame>(df), schema, std::nullopt, std::nullopt};
  return lp.add(plan::IR(std::move(scan), {}, schema));
}

// Runs the aggregation at the root of `lf` split over `bounds`, and whole.
std::pair<DataFrame, DataFrame> split_and_whole(const LazyFrame& lf, const std::vector<int64_t>& bounds) {
  OptimizedPlan p(lf);
  const DataFrame whole = exec::execute_plan(p.root, p.lp, p.ea, exec_test::test_options());
  plan::Node agg = p.root;
  // The optimizer may put a projection above the aggregation: split the first one below.
  while (!p.lp.get(agg).is<plan::GroupByNode>() && !p.lp.get(agg).is<plan::SelectNode>())
    agg = p.lp.get(agg).inputs.at(0);
  EXPECT_EQ(agg, p.root) << "the test's aggregation should be the root";
  const plan::Node input = p.lp.get(agg).inputs[0];
  const DataFrame input_rows = exec::execute_plan(input, p.lp, p.ea, exec_test::test_options());
  auto split = split_aggregation(agg, p.lp, p.ea);
  if (!split) {
    ADD_FAILURE() << "refused: " << split_refusal(agg, p.lp, p.ea);
    return {whole, whole};
  }
  std::vector<DataFrame> partials;
  for (const DataFrame& part : cut(input_rows, bounds)) {
    plan::IRArena lp = p.lp;
    plan::ExprArena ea = p.ea;
    const plan::Node leaf = frame_node(part, lp);
    plan::IR partial = lp.get(split->partial);
    partial.inputs[0] = leaf;
    const plan::Node top = lp.add(std::move(partial));
    partials.push_back(exec::execute_plan(top, lp, ea, exec_test::test_options()));
    EXPECT_EQ(partials.back().schema(), *split->partial_schema);
  }
  plan::Node final_top = add_final(*split, frame_node(concat_frames(partials), p.lp), p.lp, p.ea);
  DataFrame out = exec::execute_plan(final_top, p.lp, p.ea, exec_test::test_options());
  return {out, whole};
}

void expect_split_equal(const LazyFrame& lf, int64_t n) {
  const std::vector<std::vector<int64_t>> layouts = {
      {0, n},                                    // one partition
      {0, n / 3, 2 * n / 3, n},                  // three
      {0, 0, 1, 1, n / 2, n - 1, n, n},          // empty and one-row partitions
      {0, n - 2, n - 1, n},                      // skewed: nearly all rows in one
  };
  for (const auto& bounds : layouts) {
    auto [split, whole] = split_and_whole(lf, bounds);
    EXPECT_TRUE(rounded(split).equals(rounded(whole))) << "partitions of " << bounds.size() - 1 << "\nsplit:\n"
                                                        << split.to_string() << "\nwhole:\n"
                                                        << whole.to_string();
  }
}

TEST(AggregationSplit, GroupByEveryDecomposableAggregation) {
  const int64_t n = 500;
  LazyFrame lf = LazyFrame::from_frame(sample(n))
                     .group_by({col("k")}, true)
                     .agg({col("x").sum().alias("sum"), col("v").sum().alias("fsum"), col("x").count().alias("count"),
                           dsl::len().alias("len"), col("x").min().alias("min"), col("s").max().alias("smax"),
                           col("v").mean().alias("mean"), col("x").mean().alias("imean"), col("x").first().alias("first"),
                           col("s").last().alias("last"), col("x").std().alias("std"), col("x").var(0).alias("var0"),
                           col("x").n_unique().alias("nu"), col("s").n_unique().alias("snu"),
                           col("b").any().alias("any"), col("b").all(false).alias("all_kleene"),
                           col("b").sum().alias("bsum"), col("x").agg(compute::AggKind::NullCount).alias("nulls"),
                           (col("x").sum() * lit(2) + col("x").max()).alias("above"),
                           (col("x") + col("i")).max().alias("rowwise_input")});
  expect_split_equal(lf, n);
}

TEST(AggregationSplit, SelectOfAggregations) {
  const int64_t n = 200;
  LazyFrame lf = LazyFrame::from_frame(sample(n))
                     .select({col("x").sum(), col("v").mean().alias("mean"), col("x").first().alias("first"),
                              col("x").last().alias("last"), col("v").std().alias("std"), dsl::len(),
                              col("s").n_unique().alias("nu"), col("b").all().alias("all"),
                              (col("x").max() - col("x").min()).alias("range")});
  expect_split_equal(lf, n);
}

TEST(AggregationSplit, TwoKeysUnordered) {
  const int64_t n = 300;
  LazyFrame lf = LazyFrame::from_frame(sample(n))
                     .group_by({col("k"), col("b")})
                     .agg({col("x").sum(), col("v").var().alias("var"), col("s").first()})
                     .sort({col("k"), col("b")}, SortArgs{{false}, {false}, false});
  // The sort above the group_by: split the group_by under it by hand.
  OptimizedPlan p(lf);
  plan::Node gb = p.find(plan::IRKind::GroupBy);
  auto split = split_aggregation(gb, p.lp, p.ea);
  ASSERT_TRUE(split);
  plan::Node final_top = add_final(*split, split->partial, p.lp, p.ea);  // one partition: the input itself
  plan::IR sort = p.lp.get(p.root);
  sort.inputs[0] = final_top;
  plan::Node root = p.lp.add(std::move(sort));
  DataFrame whole = lf.collect();
  DataFrame out = exec::execute_plan(root, p.lp, p.ea, exec_test::test_options());
  EXPECT_TRUE(rounded(out).equals(rounded(whole))) << out.to_string() << whole.to_string();
}

TEST(AggregationSplit, RefusesWhatDoesNotDecompose) {
  auto refusal = [](const LazyFrame& lf) {
    OptimizedPlan p(lf);
    plan::Node node = p.root;
    EXPECT_FALSE(split_aggregation(node, p.lp, p.ea).has_value());
    return split_refusal(node, p.lp, p.ea);
  };
  LazyFrame base = LazyFrame::from_frame(sample(20));
  EXPECT_NE(refusal(base.group_by({col("k")}).agg({col("x").median()})).find("median"), std::string::npos);
  EXPECT_NE(refusal(base.group_by({col("k")}).agg({col("x").quantile(0.3)})), "");
  EXPECT_NE(refusal(base.group_by({col("k")}).agg({col("x")})).find("column"), std::string::npos);
  EXPECT_NE(refusal(base.group_by({col("k")}).agg({col("x").cum_sum().sum()})).find("other rows"),
            std::string::npos);
  EXPECT_NE(refusal(base.group_by({col("k").cum_sum()}).agg({col("x").sum()})).find("key"), std::string::npos);
  EXPECT_NE(refusal(base.select({col("x") + lit(1)})), "");
  EXPECT_NE(refusal(base.filter(col("x") > lit(0))), "");
}

}  // namespace
}  // namespace frazil::distributed
