// The stage planner through run_local (stages in process, partitions as Arrow IPC bytes)
// against the single-node executor, with 1, 3 and 7 partitions.
#include "frazil/distributed/stage_planner.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "../exec/exec_test_util.hpp"
#include "frame_order.hpp"

namespace frazil::distributed {
namespace {

using dsl::col;
using dsl::lit;
using exec_test::OptimizedPlan;

DataFrame facts(int64_t n) {
  PrimitiveBuilder<int64_t> kb(DataType::int64()), vb(DataType::int64());
  for (int64_t i = 0; i < n; ++i) {
    if (i % 13 == 4) kb.push_null();
    else kb.push(i % 3 == 0 ? 1 : (i * 17) % 11);  // key 1 is hot
    if (i % 7 == 2) vb.push_null();
    else vb.push((i * 29) % 101 - 50);
  }
  return DataFrame({Column("k", kb.finish()), Column("v", vb.finish())});
}

DataFrame dims() {
  PrimitiveBuilder<int64_t> kb(DataType::int64()), wb(DataType::int64());
  for (int64_t i = 0; i < 9; ++i) {
    kb.push(i);
    wb.push(i * 100);
  }
  return DataFrame({Column("k", kb.finish()), Column("w", wb.finish())});
}

DataFrame rounded(const DataFrame& df) {
  std::vector<dsl::Expr> exprs;
  const Schema s = df.schema();
  for (const auto& f : s.fields()) exprs.push_back(f.dtype.is_float() ? col(f.name).round(6) : col(f.name));
  return LazyFrame::from_frame(df).select(exprs).collect();
}

// Returns the stage graph of the last partition count, for the plan checks.
std::string expect_distributed_equal(const LazyFrame& lf, DistOptions options = {}) {
  OptimizedPlan p(lf);
  const DataFrame whole = exec::execute_plan(p.root, p.lp, p.ea, exec_test::test_options());
  std::string text;
  for (size_t n : {1, 3, 7}) {
    options.partitions = n;
    StageGraph g = plan_stages(p.root, p.lp, p.ea, options);
    text = format_stage_graph(g);
    DataFrame out = run_local(g, exec_test::test_options());
    DataFrame a = rounded(out), b = rounded(whole);
    if (!g.ordered) {
      a = test::sorted_rows(a);
      b = test::sorted_rows(b);
    }
    EXPECT_TRUE(a.equals(b)) << n << " partitions\n" << text << "\ndistributed:\n" << out.to_string() << "\nsingle:\n"
                             << whole.to_string();
  }
  return text;
}

const LazyFrame kFacts = LazyFrame::from_frame(facts(400));
const LazyFrame kDims = LazyFrame::from_frame(dims());

TEST(StagePlanner, RowWiseStaysInOneStage) {
  std::string g = expect_distributed_equal(kFacts.filter(col("v") > lit(0)).with_columns({(col("v") * lit(2)).alias("w")}));
  EXPECT_EQ(g.find("Stage 1"), std::string::npos) << g;
  EXPECT_NE(g.find("7 tasks"), std::string::npos) << g;
}

TEST(StagePlanner, GroupByPartialHashFinal) {
  std::string g = expect_distributed_equal(
      kFacts.group_by({col("k")}).agg({col("v").sum(), col("v").mean().alias("m"), col("v").std().alias("s"),
                                       col("v").n_unique().alias("nu"), dsl::len()}));
  EXPECT_NE(g.find("hash(k) into 7"), std::string::npos) << g;
  expect_distributed_equal(kFacts.group_by({col("k")}, true).agg({col("v").first(), col("v").last().alias("l")}));
  // Not decomposable: the raw rows hashed by the key.
  g = expect_distributed_equal(kFacts.group_by({col("k")}).agg({col("v").median()}));
  EXPECT_NE(g.find("hash(k)"), std::string::npos) << g;
}

TEST(StagePlanner, WholeTableAggregatesGatherToOneTask) {
  std::string g = expect_distributed_equal(kFacts.select({col("v").sum(), col("v").max().alias("mx"), dsl::len()}));
  EXPECT_NE(g.find("(1 task) -> result"), std::string::npos) << g;
  expect_distributed_equal(kFacts.select({col("v").median()}));
  expect_distributed_equal(kFacts.filter(col("v") > col("v").mean()));
}

TEST(StagePlanner, Joins) {
  DistOptions broadcast;
  broadcast.broadcast_factor = 1e9;
  DistOptions shuffle;
  shuffle.allow_broadcast = false;
  for (auto how : {compute::JoinType::Inner, compute::JoinType::Left, compute::JoinType::Semi, compute::JoinType::Anti,
                   compute::JoinType::Full, compute::JoinType::Right}) {
    JoinArgs args;
    args.how = how;
    LazyFrame q = kFacts.join(kDims, {col("k")}, args);
    std::string b = expect_distributed_equal(q, broadcast);
    std::string s = expect_distributed_equal(q, shuffle);
    if (how != compute::JoinType::Full && how != compute::JoinType::Right)
      EXPECT_EQ(b.find("hash("), std::string::npos) << b;
    EXPECT_NE(s.find("hash(k)"), std::string::npos) << s;
  }
  // The group_by over the join's key reuses the join's partitioning.
  JoinArgs inner;
  std::string g = expect_distributed_equal(kFacts.join(kFacts.select({col("k"), col("v").alias("v2")}), {col("k")}, inner)
                                               .group_by({col("k")})
                                               .agg({col("v2").sum()}),
                                           shuffle);
  EXPECT_EQ(g.find("Stage 3"), std::string::npos) << g;  // no exchange between the join and the group_by
  if (getenv("FRAZIL_SHOW_STAGES")) std::cout << g;
  expect_distributed_equal(kDims.cross_join(kDims.select({col("w").alias("w2")})));
}

TEST(StagePlanner, RecomputedKeysLoseTheirPartitioning) {
  // After a join hashed by k, k is recomputed: the group_by over it must shuffle again.
  DistOptions shuffle;
  shuffle.allow_broadcast = false;
  const LazyFrame joined = kFacts.join(kFacts.select({col("k"), col("v").alias("v2")}), {col("k")}, JoinArgs{});
  for (const LazyFrame& q : {joined.with_columns({(col("k") % lit(3)).alias("k")}),
                             joined.select({(col("k") + lit(1)).alias("k"), col("v")}),
                             joined.select({col("v").alias("k"), col("k").alias("v")})}) {
    std::string g = expect_distributed_equal(q.group_by({col("k")}).agg({col("v").sum()}), shuffle);
    EXPECT_NE(g.find("Stage 3"), std::string::npos) << g;  // a hash exchange after the join
  }
}

TEST(StagePlanner, WindowsOverKeysHashByThem) {
  // Where nothing after the window sees the row order (a group_by): hashed by its keys.
  const auto grouped = [](const LazyFrame& q) { return q.group_by({col("k")}).agg({col("v").sum(), dsl::len()}); };
  std::string g = expect_distributed_equal(
      kFacts.with_columns({col("v").sum().over({col("k")}).alias("s"), col("v").shift().over({col("k")}).alias("r")})
          .group_by({col("k")})
          .agg({col("s").max(), col("r").sum()}));
  EXPECT_NE(g.find("hash(k)"), std::string::npos) << g;
  g = expect_distributed_equal(grouped(kFacts.filter(col("v") == col("v").max().over({col("k")}))));
  EXPECT_NE(g.find("hash(k)"), std::string::npos) << g;
  g = expect_distributed_equal(kFacts.with_columns({(col("k") % lit(2)).alias("p")})
                                   .select({col("k"), col("v").cum_sum().over({col("k"), col("p")}).alias("c"),
                                            col("v").mean().over({col("p")}).alias("m")})
                                   .group_by({col("m")})
                                   .agg({col("c").sum()}));
  EXPECT_NE(g.find("hash(p)"), std::string::npos) << g;  // the key both windows share
  // A window whose rows are the result keeps their order: gathered, not hashed.
  g = expect_distributed_equal(kFacts.with_columns({col("v").sum().over({col("k")}).alias("s")}));
  EXPECT_EQ(g.find("hash("), std::string::npos) << g;
  // A window over the whole frame (no keys) is gathered.
  g = expect_distributed_equal(kFacts.with_columns({col("v").cum_sum().alias("c")}));
  EXPECT_EQ(g.find("hash("), std::string::npos) << g;
}

TEST(StagePlanner, TopKSliceDistinctUnion) {
  SortArgs desc;
  desc.descending = {true};
  desc.nulls_last = {true};
  expect_distributed_equal(kFacts.sort({col("v"), col("k")}, desc).head(5));
  expect_distributed_equal(kFacts.sort({col("v"), col("k")}, desc));
  expect_distributed_equal(kFacts.head(17));
  expect_distributed_equal(kFacts.slice(-3, 2));
  expect_distributed_equal(kFacts.unique({"k"}));
  expect_distributed_equal(kFacts.unique());
  expect_distributed_equal(kFacts.unique({"k"}, "first", true));
  expect_distributed_equal(kFacts.with_row_index("i"));
}

TEST(StagePlanner, EmptyAndOneRowInputs) {
  LazyFrame empty = LazyFrame::from_frame(facts(0));
  LazyFrame one = LazyFrame::from_frame(facts(1));
  for (const LazyFrame& lf : {empty, one}) {
    expect_distributed_equal(lf.group_by({col("k")}).agg({col("v").sum(), col("v").first().alias("f")}));
    expect_distributed_equal(lf.select({col("v").mean(), col("v").first().alias("f"), dsl::len()}));
    expect_distributed_equal(lf.join(kDims, {col("k")}));
  }
}

TEST(StagePlanner, FragmentErrors) {
  OptimizedPlan p(kFacts.filter(col("v") > lit(0)));
  StageGraph g = plan_stages(p.root, p.lp, p.ea, DistOptions{});
  const Stage& s = g.stages.at(0);
  EXPECT_THROW(execute_fragment(s.fragments[0], {}), ComputeError);  // the input is not given
  std::map<std::string, DataFrame> wrong{{s.inputs[0].name, dims()}};
  EXPECT_THROW(execute_fragment(s.fragments[0], wrong), SchemaError);
  EXPECT_THROW(execute_fragment("FRZFRAG\x09", {}), ComputeError);  // a newer version
  EXPECT_THROW(execute_fragment("nonsense", {}), ComputeError);
  EXPECT_THROW(execute_fragment(s.fragments[0].substr(0, s.fragments[0].size() / 2), {}), ComputeError);
}

}  // namespace
}  // namespace frazil::distributed
