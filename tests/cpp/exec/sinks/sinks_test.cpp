// Each sink alone on small frames: several local states (one per morsel) sunk in any order,
// combined in source order, finalized.
#include "frazil/exec/sinks/sink.hpp"

#include "../exec_test_util.hpp"
#include "frazil/exec/operators/join_probe.hpp"
#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/sinks/cache_sink.hpp"
#include "frazil/exec/sinks/consumer_sink.hpp"
#include "frazil/exec/sinks/distinct_sink.hpp"
#include "frazil/exec/sinks/group_by_sink.hpp"
#include "frazil/exec/sinks/join_build_sink.hpp"
#include "frazil/exec/sinks/row_index_sink.hpp"
#include "frazil/exec/sinks/scalar_aggregate_sink.hpp"
#include "frazil/exec/sinks/slice_sink.hpp"
#include "frazil/exec/sinks/sort_sink.hpp"
#include "frazil/exec/sinks/union_sink.hpp"

using namespace frazil;
using namespace frazil::exec_test;
using dsl::col;
using dsl::lit;

namespace {

// The morsels of `df`, `size` rows each.
std::vector<DataFrame> morsels_of(const DataFrame& df, int64_t size) {
  std::vector<DataFrame> out;
  for (int64_t at = 0; at < df.height(); at += size) out.push_back(df.slice(at, std::min(size, df.height() - at)));
  return out;
}

// Feeds `morsels` to the sink as one pipeline would: started, each morsel sunk into a
// local state of its own (last morsel first, as workers may finish in any order), the
// local states combined in source order. `finalize`: the last pipeline into the sink.
void feed(exec::Sink& sink, const std::vector<DataFrame>& morsels, bool finalize = true, int64_t morsel_size = 4) {
  int64_t rows = 0;
  for (const auto& m : morsels) rows += m.height();
  sink.start(exec::PipelineStart{rows, morsel_size});
  std::vector<std::unique_ptr<exec::LocalSinkState>> locals(morsels.size());
  for (size_t i = morsels.size(); i-- > 0;) {
    physical::ExecState state;
    locals[i] = sink.make_local();
    sink.sink(morsels[i], *locals[i], state);
  }
  for (auto& l : locals) sink.combine(*l);
  if (finalize) sink.finalize();
}

std::vector<int64_t> ints(const DataFrame& df, const std::string& name) {
  const ArrayRef a = df.column(name).as_array();
  std::vector<int64_t> out;
  for (int64_t i = 0; i < a->length(); ++i) out.push_back(a->values<int64_t>()[i]);
  return out;
}

}  // namespace

TEST(Sinks, CollectKeepsSourceOrder) {
  exec::CollectSink sink;
  const DataFrame df = keyed(10, 3);
  feed(sink, morsels_of(df, 3));
  EXPECT_TRUE(sink.output().equals(df));
  EXPECT_EQ(sink.output_rows(), 10);
  sink.release();
  EXPECT_EQ(sink.output().height(), 0);
}

TEST(Sinks, SliceCountsNegativeOffsetsFromTheEnd) {
  const DataFrame df = keyed(10, 3);
  exec::SliceSink tail(-3, 2);
  feed(tail, morsels_of(df, 4));
  EXPECT_EQ(ints(tail.output(), "v"), (std::vector<int64_t>{7, 8}));
  exec::SliceSink past(8, 100);
  feed(past, morsels_of(df, 4));
  EXPECT_EQ(ints(past.output(), "v"), (std::vector<int64_t>{8, 9}));
  exec::SliceSink empty(0, 0);
  feed(empty, morsels_of(df, 4));
  EXPECT_EQ(empty.output().height(), 0);
}

TEST(Sinks, RowIndexNumbersRowsAcrossMorsels) {
  plan::RowIndexNode index{"nr", 5};
  exec::RowIndexSink sink(index);
  feed(sink, morsels_of(keyed(7, 2), 3));
  const DataFrame out = sink.output();
  ASSERT_EQ(out.names().front(), "nr");
  const ArrayRef nr = out.column("nr").as_array();
  for (int64_t i = 0; i < 7; ++i) EXPECT_EQ(nr->values<uint32_t>()[i], static_cast<uint32_t>(5 + i));
  EXPECT_EQ(ints(out, "v"), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(Sinks, RowIndexOverflowIsAnError) {
  plan::RowIndexNode index{"nr", int64_t{UINT32_MAX} - 2};
  exec::RowIndexSink sink(index);
  EXPECT_THROW(feed(sink, morsels_of(keyed(7, 2), 3)), ComputeError);
}

TEST(Sinks, DistinctKeepsFirstInOrder) {
  plan::DistinctNode distinct{{"k"}, "first", true};
  exec::DistinctSink sink(distinct);
  feed(sink, morsels_of(keyed(10, 3), 2));
  EXPECT_EQ(ints(sink.output(), "k"), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(ints(sink.output(), "v"), (std::vector<int64_t>{0, 1, 2}));
}

TEST(Sinks, UnionTakesEveryPipelineInOrderAndFinalizesOnce) {
  exec::UnionSink sink(2, /*rechunk=*/false);
  feed(sink, morsels_of(keyed(3, 3), 2), /*finalize=*/false);
  feed(sink, morsels_of(keyed(2, 3), 1));
  EXPECT_EQ(ints(sink.output(), "v"), (std::vector<int64_t>{0, 1, 2, 0, 1}));
  EXPECT_GT(sink.output().column("v").num_chunks(), 1u);
}

TEST(Sinks, RechunkedUnionGivesOneChunkPerColumn) {
  exec::UnionSink sink(2, /*rechunk=*/true);
  feed(sink, morsels_of(keyed(3, 3), 2), /*finalize=*/false);
  feed(sink, morsels_of(keyed(2, 3), 1));
  EXPECT_EQ(ints(sink.output(), "v"), (std::vector<int64_t>{0, 1, 2, 0, 1}));
  for (const auto& c : sink.output().columns()) EXPECT_EQ(c.num_chunks(), 1u) << c.name();
  EXPECT_TRUE(sink.describe().find("rechunked") != std::string::npos);
}

TEST(Sinks, CacheCountsItsComputationAndReuses) {
  exec::ExecStats stats;
  exec::CacheSink sink(7, 1, &stats);
  sink.add_consumer();
  EXPECT_EQ(sink.describe(), "cache 7, read by 2 consumers");
  feed(sink, morsels_of(keyed(6, 3), 4));
  EXPECT_EQ(sink.output().height(), 6);
  EXPECT_EQ(sink.output().height(), 6);
  EXPECT_EQ(stats.cache_computations.load(), 1);
  EXPECT_EQ(stats.cache_reuses.load(), 1);
}

TEST(Sinks, ConsumerHandsRowsOverInOrder) {
  std::vector<int64_t> seen;
  exec::ConsumerSink sink([&](const DataFrame& df) {
    for (int64_t v : ints(df, "v")) seen.push_back(v);
  }, 2);
  feed(sink, morsels_of(keyed(7, 3), 2));
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(sink.output_rows(), 7);
  EXPECT_EQ(sink.wave(), 2u);
}

TEST(Sinks, SortAndTopK) {
  OptimizedPlan p(LazyFrame::from_frame(keyed(10, 3)).sort({col("k"), col("v")}, SortArgs{{true, false}, {false}, false}));
  const plan::IR& sort = p.lp.get(p.find(plan::IRKind::Sort));
  exec::SortSink sink(sort.as<plan::SortNode>(), p.ea, *p.lp.get(sort.inputs[0]).schema);
  feed(sink, morsels_of(keyed(10, 3), 3));
  EXPECT_EQ(ints(sink.output(), "v"), (std::vector<int64_t>{2, 5, 8, 1, 4, 7, 0, 3, 6, 9}));

  OptimizedPlan top(LazyFrame::from_frame(keyed(10, 3)).sort({col("v")}, SortArgs{{true}, {false}, false}).slice(1, 2));
  const plan::IR& top_sort = top.lp.get(top.find(plan::IRKind::Sort));
  ASSERT_TRUE(top_sort.as<plan::SortNode>().slice.has_value());
  exec::SortSink top_sink(top_sort.as<plan::SortNode>(), top.ea, *top.lp.get(top_sort.inputs[0]).schema);
  feed(top_sink, morsels_of(keyed(10, 3), 3));
  EXPECT_EQ(ints(top_sink.output(), "v"), (std::vector<int64_t>{8, 7}));
}

// The two-phase rule: on (source of at least two morsels) or off, the same groups in order
// of first appearance.
TEST(Sinks, GroupByTwoPhaseAndWholeAgree) {
  OptimizedPlan p(LazyFrame::from_frame(keyed(12, 4)).group_by({col("k")}, true).agg({col("v").sum()}));
  const plan::IR& g = p.lp.get(p.find(plan::IRKind::GroupBy));
  const Schema& in = *p.lp.get(g.inputs[0]).schema;
  auto two_phase = exec::plan_partial_group_by(g, p.ea, in);
  ASSERT_TRUE(two_phase.has_value());
  const DataFrame df = keyed(12, 4);
  exec::GroupBySink split(g, p.ea, two_phase, /*morsel_size=*/4);
  feed(split, morsels_of(df, 4), true, 4);  // 12 rows >= 2 morsels: two phases
  EXPECT_TRUE(split.splits_morsels());
  exec::GroupBySink whole(g, p.ea, std::nullopt, 4);
  feed(whole, morsels_of(df, 4), true, 4);
  EXPECT_FALSE(whole.splits_morsels());
  EXPECT_EQ(ints(split.output(), "k"), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(ints(split.output(), "v"), (std::vector<int64_t>{12, 15, 18, 21}));
  EXPECT_TRUE(split.output().equals(whole.output()));
  exec::GroupBySink small_input(g, p.ea, two_phase, 100);
  feed(small_input, morsels_of(df, 4), true, 100);  // fewer rows than two morsels: whole
  EXPECT_FALSE(small_input.splits_morsels());
  EXPECT_TRUE(small_input.output().equals(whole.output()));
}

TEST(Sinks, ScalarAggregateFoldsPartialStates) {
  OptimizedPlan p(LazyFrame::from_frame(keyed(10, 3)).select({col("v").sum(), col("v").max().alias("m")}));
  const plan::IR& s = p.lp.get(p.find(plan::IRKind::Select));
  auto partial = exec::plan_partial_select(s, p.ea, *p.lp.get(s.inputs[0]).schema);
  ASSERT_TRUE(partial.has_value());
  exec::ScalarAggregateSink sink("[sum, max]", std::move(*partial));
  feed(sink, morsels_of(keyed(10, 3), 3));
  EXPECT_EQ(ints(sink.output(), "v"), (std::vector<int64_t>{45}));
  EXPECT_EQ(ints(sink.output(), "m"), (std::vector<int64_t>{9}));
}

// The build side gathers the right rows and builds at finalize; the probe of the next
// pipeline binds to it when that pipeline starts.
TEST(Sinks, JoinBuildFeedsTheProbe) {
  OptimizedPlan p(LazyFrame::from_frame(keyed(20, 5)).join(LazyFrame::from_frame(keyed(3, 3, "k", "w")), {col("k")}));
  const plan::IR& j = p.lp.get(p.find(plan::IRKind::Join));
  const Schema& ls = *p.lp.get(j.inputs[0]).schema;
  const Schema& rs = *p.lp.get(j.inputs[1]).schema;
  auto build = std::make_shared<exec::JoinBuildSink>(j, p.ea, ls, rs);
  feed(*build, morsels_of(keyed(3, 3, "k", "w"), 1));
  EXPECT_EQ(build->output_rows(), 3);
  exec::JoinProbe probe(exec::join_label(j, p.ea), build, 0);
  EXPECT_FALSE(probe.start(exec::PipelineStart{20, 4}).has_value());
  physical::ExecState state;
  const DataFrame out = probe.execute(keyed(20, 5), state);
  EXPECT_EQ(out.height(), 12);  // k in {0, 1, 2}: 4 left rows each
  EXPECT_EQ(ints(out, "v"), (std::vector<int64_t>{0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17}));
}
