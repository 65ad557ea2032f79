// The join operators alone: each binds to the pipeline it reads when its own pipeline starts,
// and applies its adaptive rule then.
#include "frazil/exec/operators/join_probe.hpp"

#include "../exec_test_util.hpp"
#include "frazil/exec/sinks/join_sinks.hpp"

using namespace frazil;
using namespace frazil::exec_test;
using dsl::col;

namespace {

// A sink holding `df` as a finished pipeline's output.
exec::SinkRef finished(const DataFrame& df) {
  auto sink = std::make_shared<exec::CollectSink>();
  sink->start(exec::PipelineStart{df.height(), 1000});
  auto local = sink->make_local();
  physical::ExecState state;
  sink->sink(df, *local, state);
  sink->combine(*local);
  sink->finalize();
  return sink;
}

std::vector<int64_t> ints(const DataFrame& df, const std::string& name) {
  const ArrayRef a = df.column(name).as_array();
  return std::vector<int64_t>(a->values<int64_t>(), a->values<int64_t>() + a->length());
}

DataFrame small_frame() { return keyed(10, 10, "k", "w"); }
DataFrame big_frame() { return keyed(200, 20); }

}  // namespace

// The key filter is made only when the left side turned out small against the estimate.
TEST(JoinOperators, KeyFilterAppliesItsSixteenthRule) {
  LazyFrame grouped = LazyFrame::from_frame(big_frame()).group_by({col("k")}).agg({col("v").sum()});
  OptimizedPlan p(LazyFrame::from_frame(small_frame()).join(grouped, {col("k")}));
  const plan::Node join_node = p.find(plan::IRKind::Join);
  const plan::IR& join = p.lp.get(join_node);
  const plan::IR& g = p.lp.get(p.find(plan::IRKind::GroupBy));
  const Schema& ls = *p.lp.get(join.inputs[0]).schema;
  const Schema& gs = *p.lp.get(g.inputs[0]).schema;
  physical::ExecState state;

  exec::KeyFilter on(join, p.ea, ls, gs, finished(small_frame()), 0, /*grouped_rows_estimate=*/200);
  EXPECT_FALSE(on.start(exec::PipelineStart{200, 1000}).has_value());
  EXPECT_TRUE(on.active());  // 10 left rows x 16 <= 200
  const DataFrame kept = on.execute(big_frame(), state);
  EXPECT_EQ(kept.height(), 100);  // k in [0, 10) of k = i % 20
  for (int64_t k : ints(kept, "k")) EXPECT_LT(k, 10);

  exec::KeyFilter off(join, p.ea, ls, gs, finished(small_frame()), 0, /*grouped_rows_estimate=*/100);
  off.start(exec::PipelineStart{200, 1000});
  EXPECT_FALSE(off.active());  // 10 x 16 > 100: every row passes
  EXPECT_EQ(off.execute(big_frame(), state).height(), 200);
}

// Built on the left while the right side is the bigger; otherwise it reroutes: the right
// side is gathered, built, and the left side streams through it.
TEST(JoinOperators, UnorderedProbeBuildsOnTheSmallerSideAtRunTime) {
  OptimizedPlan p(LazyFrame::from_frame(small_frame()).join(LazyFrame::from_frame(big_frame()), {col("k")}));
  const plan::IR& join = p.lp.get(p.find(plan::IRKind::Join));
  const Schema& ls = *p.lp.get(join.inputs[0]).schema;
  const Schema& rs = *p.lp.get(join.inputs[1]).schema;
  physical::ExecState state;

  exec::UnorderedJoinProbe left_built(join, p.ea, ls, rs, finished(small_frame()), 0);
  EXPECT_FALSE(left_built.start(exec::PipelineStart{200, 1000}).has_value());
  const DataFrame out = left_built.execute(big_frame(), state);
  EXPECT_EQ(out.height(), 100);
  EXPECT_FALSE(left_built.tail().has_value());  // an inner join has no unmatched rows to add

  exec::UnorderedJoinProbe rerouted(join, p.ea, ls, rs, finished(small_frame()), 0);
  auto reroute = rerouted.start(exec::PipelineStart{5, 1000});  // the right side: 5 rows
  ASSERT_TRUE(reroute.has_value());
  const DataFrame right = big_frame().slice(0, 5);
  auto [source, probe] = reroute->resume(right);
  source->open();
  EXPECT_EQ(source->total_rows(), 10);  // the left side streams now
  DataFrame joined = probe->execute(source->batch(0), state);
  EXPECT_EQ(joined.height(), 5);  // k 0..4 of the right, each matching one left row
}

// The left-build join's rule: the match operator keeps matching right rows when the right
// side is the bigger; otherwise every row passes and the sink joins whole. Same answer.
TEST(JoinOperators, LeftBuildJoinAgreesBothWays) {
  OptimizedPlan p(LazyFrame::from_frame(small_frame()).join(LazyFrame::from_frame(big_frame()), {col("k")}));
  const plan::IR& join = p.lp.get(p.find(plan::IRKind::Join));
  const Schema& ls = *p.lp.get(join.inputs[0]).schema;
  const Schema& rs = *p.lp.get(join.inputs[1]).schema;
  auto run = [&](int64_t right_rows_at_start) {
    auto sink = std::make_shared<exec::LeftBuildJoinSink>(join, p.ea, ls, rs, finished(small_frame()), 0, 1000);
    exec::LeftBuildMatch match(sink);
    match.start(exec::PipelineStart{right_rows_at_start, 1000});
    sink->start(exec::PipelineStart{right_rows_at_start, 1000});
    physical::ExecState state;
    const DataFrame big = big_frame();
    std::vector<std::unique_ptr<exec::LocalSinkState>> locals;
    for (int64_t at = 0; at < big.height(); at += 64) {
      locals.push_back(sink->make_local());
      sink->sink(match.execute(big.slice(at, std::min<int64_t>(64, big.height() - at)), state), *locals.back(), state);
    }
    for (auto& l : locals) sink->combine(*l);
    sink->finalize();
    return sink->output();
  };
  const DataFrame built_left = run(200);
  const DataFrame whole = run(5);
  EXPECT_EQ(built_left.height(), 100);
  EXPECT_TRUE(built_left.equals(whole));
  EXPECT_EQ(ints(built_left, "k").front(), 0);  // left order
}
