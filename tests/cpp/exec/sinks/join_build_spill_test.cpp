// The join build sink past the memory limit: a join whose output order nobody observes
// becomes a grace hash join (its rows spill by key hash; the probe's stream and its tail
// give the in-memory join's rows, in another order), one whose order is observed raises
// MemoryError naming why; nothing is left counted or on disk afterwards.
#include <map>

#include "../exec_test_util.hpp"
#include "../spill/spill_test_util.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"
#include "frazil/exec/operators/join_probe.hpp"
#include "frazil/exec/sinks/join_build_sink.hpp"

using namespace frazil;
using namespace frazil::exec_test;
using dsl::col;

namespace {

std::vector<DataFrame> morsels_of(const DataFrame& df, int64_t size) {
  std::vector<DataFrame> out;
  for (int64_t at = 0; at < df.height(); at += size) out.push_back(df.slice(at, std::min(size, df.height() - at)));
  return out;
}

// Sunk and combined in order, as one pipeline would; then finalized.
void feed(exec::Sink& sink, const std::vector<DataFrame>& morsels) {
  int64_t rows = 0;
  for (const auto& m : morsels) rows += m.height();
  sink.start(exec::PipelineStart{rows, 1000});
  for (const auto& m : morsels) {
    physical::ExecState state;
    auto local = sink.make_local();
    sink.sink(m, *local, state);
    sink.combine(*local);
  }
  sink.finalize();
}

// (v, w) pairs of the output, counted.
std::map<std::pair<int64_t, int64_t>, int> pairs(const DataFrame& out) {
  std::map<std::pair<int64_t, int64_t>, int> m;
  const DataFrame o = out.rechunk();
  const bool has_w = o.schema().contains("w");
  for (int64_t i = 0; i < o.height(); ++i)
    ++m[{o.column("v").get(i).as_int64(), has_w && !o.column("w").get(i).is_null() ? o.column("w").get(i).as_int64() : -1}];
  return m;
}

// Runs the join with the build side through a JoinBuildSink and the probe side through its
// JoinProbe (and the tail, when it spilled).
DataFrame run(const plan::IR& j, const plan::ExprArena& ea, const Schema& ls, const Schema& rs, const DataFrame& left,
              const DataFrame& right, bool unordered, bool* spilled) {
  auto build = std::make_shared<exec::JoinBuildSink>(j, ea, ls, rs, unordered);
  feed(*build, morsels_of(right, 2000));
  exec::JoinProbe probe(exec::join_label(j, ea), build, 0);
  EXPECT_FALSE(probe.start(exec::PipelineStart{left.height(), 1000}).has_value());
  std::vector<DataFrame> out;
  physical::ExecState state;
  for (const auto& m : morsels_of(left, 1000)) out.push_back(probe.execute(m, state));
  if (exec::SourceRef tail = probe.tail_source()) {
    tail->open();
    for (size_t b = 0; b < tail->num_batches(); ++b) out.push_back(tail->batch(b));
  }
  *spilled = build->spilled();
  build->release();
  return concat_frames(out);
}

struct LimitGuard {
  explicit LimitGuard(int64_t bytes) { set_memory_limit(bytes); }
  ~LimitGuard() { set_memory_limit(0); }
};

}  // namespace

TEST(JoinBuildSpill, EveryJoinTypeSpillsToTheInMemoryRowsAndLeavesNothing) {
  exec::spill::TempDirEnv env;
  const DataFrame left = keyed(30'000, 20'000), right = keyed(400'000, 100'000, "k", "w");
  for (auto how : {compute::JoinType::Inner, compute::JoinType::Left, compute::JoinType::Semi, compute::JoinType::Anti}) {
    JoinArgs args;
    args.how = how;
    OptimizedPlan p(LazyFrame::from_frame(left).join(LazyFrame::from_frame(right), {col("k")}, {col("k")}, args));
    const plan::IR& j = p.lp.get(p.find(plan::IRKind::Join));
    const Schema& ls = *p.lp.get(j.inputs[0]).schema;
    const Schema& rs = *p.lp.get(j.inputs[1]).schema;
    bool spilled = false;
    const DataFrame want = run(j, p.ea, ls, rs, left, right, true, &spilled);
    EXPECT_FALSE(spilled);
    const int64_t before = memory_in_use();
    DataFrame got;
    {
      LimitGuard limit(before + (12 << 20));  // the right side is ~6 MiB, its table ~19 MiB
      got = run(j, p.ea, ls, rs, left, right, true, &spilled);
    }
    EXPECT_TRUE(spilled) << compute::join_type_name(how);
    EXPECT_EQ(got.height(), want.height()) << compute::join_type_name(how);
    EXPECT_EQ(pairs(got), pairs(want)) << compute::join_type_name(how);
    EXPECT_EQ(env.files(), 0u);
  }
}

TEST(JoinBuildSpill, AnObservedOrderCannotSpillAndSaysWhy) {
  exec::spill::TempDirEnv env;
  const DataFrame left = keyed(1000, 500), right = keyed(200'000, 50'000, "k", "w");
  OptimizedPlan p(LazyFrame::from_frame(left).join(LazyFrame::from_frame(right), {col("k")}));
  const plan::IR& j = p.lp.get(p.find(plan::IRKind::Join));
  const Schema& ls = *p.lp.get(j.inputs[0]).schema;
  const Schema& rs = *p.lp.get(j.inputs[1]).schema;
  const int64_t before = memory_in_use();
  bool spilled = false;
  try {
    LimitGuard limit(before + (4 << 20));
    run(j, p.ea, ls, rs, left, right, false, &spilled);
    ADD_FAILURE() << "no MemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_TRUE(contains(e.what(), "cannot spill")) << e.what();
    EXPECT_TRUE(contains(e.what(), "output order")) << e.what();
  }
  EXPECT_EQ(env.files(), 0u);
  EXPECT_LE(memory_in_use(), before);
}
