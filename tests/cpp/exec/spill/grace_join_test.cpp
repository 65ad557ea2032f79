// The grace hash join's partitioned pieces on their own: the build side spilled by key
// hash, the partitions that fit kept in memory, the probe side split the same way and the
// spilled pairs joined one at a time (split again when too big) find exactly the pairs an
// in-memory join finds, and leave no file behind.
#include "frazil/exec/spill/grace_join.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <tuple>

#include "frazil/compute/hash.hpp"
#include "frazil/compute/join.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/builder.hpp"
#include "spill_test_util.hpp"

using namespace frazil;
using namespace frazil::exec;
using namespace frazil::exec::spill;

namespace {

// `n` rows from `start`: string key i % keys (null every 31st row; key "hot" for a share
// `hot` of the rows), and the row number.
DataFrame keyed(int64_t n, int64_t keys, int64_t start, double hot = 0.0) {
  ViewBuilder k;
  PrimitiveBuilder<int64_t> row(DataType::int64());
  for (int64_t i = start; i < start + n; ++i) {
    if (i % 31 == 0) k.push_null();
    else if (static_cast<double>(i % 1000) < hot * 1000) k.push("hot");
    else k.push("key" + std::to_string((i * 7919) % keys));
    row.push(i);
  }
  return DataFrame({Column("k", k.finish()), Column("row", row.finish())});
}

GraceJoin::KeyHashes hashes(const DataFrame& df) {
  GraceJoin::KeyHashes k;
  const ArrayRef a = df.column("k").as_array();
  k.hashes = compute::hash_rows({a});
  if (a->null_count() > 0)
    for (int64_t i = 0; i < a->length(); ++i) k.null_key.push_back(a->is_null(i));
  return k;
}

using Pairs = std::multiset<std::pair<int64_t, int64_t>>;  // (probe row, build row)

// An inner join of a probe morsel with `build`: one (probe row, build row) pair per match.
class PairsProbe final : public Operator {
 public:
  explicit PairsProbe(DataFrame build) : build_(build.rechunk()) {}
  std::string describe() const override { return "pairs"; }
  DataFrame execute(const DataFrame& morsel, physical::ExecState&) const override {
    const DataFrame m = morsel.rechunk();
    const compute::JoinIndices idx =
        compute::hash_join({m.column("k").as_array()}, {build_.column("k").as_array()}, compute::JoinType::Inner);
    return DataFrame({Column("probe", compute::take(*m.column("row").as_array(), idx.left_index)),
                      Column("build", compute::take(*build_.column("row").as_array(), idx.right_index))});
  }

 private:
  DataFrame build_;
};

void add_pairs(const DataFrame& out, Pairs& pairs) {
  const DataFrame o = out.rechunk();
  for (int64_t i = 0; i < o.height(); ++i)
    pairs.emplace(o.column("probe").get(i).as_int64(), o.column("build").get(i).as_int64());
}

struct GraceRun {
  Pairs pairs;
  size_t resident = 0, parts = 0;
  size_t tail_batches = 0;
};

// The build side in pieces of `piece` rows, the probe side in morsels of 1000 rows.
GraceRun grace(const DataFrame& build, const DataFrame& probe, size_t parts, int64_t resident_budget,
          int64_t pair_budget, int64_t piece = 5000) {
  GraceJoin::Options options;
  options.parts = parts;
  options.pair_budget = pair_budget;
  options.tail_batch_rows = 1500;  // a pair's probe batches joined a few at a time
  auto join = std::make_shared<GraceJoin>(
      options, hashes, hashes, [](const DataFrame& b) { return std::make_shared<PairsProbe>(b); }, build.schema());
  for (int64_t at = 0; at < build.height(); at += piece) join->spill_build({build.slice(at, piece)});
  EXPECT_EQ(join->spilled_build_rows(), build.height());
  GraceRun run;
  OperatorRef op = join->start_probe(resident_budget);
  physical::ExecState state;
  for (int64_t at = 0; at < probe.height(); at += 1000) add_pairs(op->execute(probe.slice(at, 1000), state), run.pairs);
  SourceRef tail = join->tail();
  tail->open();
  run.tail_batches = tail->num_batches();
  for (size_t b = 0; b < tail->num_batches(); ++b) add_pairs(tail->batch(b), run.pairs);
  run.resident = join->resident_parts();
  run.parts = join->parts();
  return run;
}

Pairs in_memory(const DataFrame& build, const DataFrame& probe) {
  Pairs pairs;
  physical::ExecState state;
  add_pairs(PairsProbe(build).execute(probe, state), pairs);
  return pairs;
}

}  // namespace

TEST(GraceJoin, SpilledPairsEqualTheInMemoryJoinAndFilesGo) {
  TempDirEnv env;
  const DataFrame build = keyed(40'000, 3000, 0), probe = keyed(30'000, 4000, 100'000);
  const Pairs want = in_memory(build, probe);
  ASSERT_GT(want.size(), 10'000u);
  // Everything spilled, some partitions in memory, all in memory.
  for (int64_t resident : {int64_t{0}, int64_t{1} << 20, int64_t{1} << 40}) {
    const GraceRun run = grace(build, probe, 8, resident, int64_t{1} << 40);
    EXPECT_EQ(run.pairs, want) << "resident budget " << resident;
    if (resident == 0) EXPECT_EQ(run.resident, 0u);
    if (resident == (int64_t{1} << 20)) {
      EXPECT_GT(run.resident, 0u);
      EXPECT_LT(run.resident, 8u);
    }
    if (resident == (int64_t{1} << 40)) EXPECT_EQ(run.tail_batches, 0u);
    EXPECT_EQ(env.files(), 0u);
  }
}

TEST(GraceJoin, APairTooBigIsSplitAgainAndASkewedKeyStillJoins) {
  TempDirEnv env;
  // A third of both sides' rows have one key: its pair cannot be split below that key.
  const DataFrame build = keyed(30'000, 5000, 0, 0.33), probe = keyed(3000, 6000, 50'000, 0.01);
  const Pairs want = in_memory(build, probe);
  const GraceRun unsplit = grace(build, probe, 4, 0, int64_t{1} << 40);
  const GraceRun split = grace(build, probe, 4, 0, 64 << 10);
  EXPECT_EQ(unsplit.pairs, want);
  EXPECT_EQ(split.pairs, want);
  EXPECT_GT(split.tail_batches, unsplit.tail_batches) << "the pairs were split into finer ones";
  EXPECT_EQ(env.files(), 0u);
}

TEST(GraceJoin, NoFileIsLeftWhenJoiningAPairFails) {
  TempDirEnv env;
  const DataFrame build = keyed(20'000, 1000, 0), probe = keyed(20'000, 1000, 40'000);
  {
    GraceJoin::Options options;
    options.parts = 8;
    options.pair_budget = int64_t{1} << 40;
    auto join = std::make_shared<GraceJoin>(
        options, hashes, hashes,
        [calls = std::make_shared<int>(0)](const DataFrame& b) -> OperatorRef {
          if ((*calls)++ > 0) throw std::runtime_error("a pair failed");  // the first call: the resident table
          return std::make_shared<PairsProbe>(b);
        },
        build.schema());
    join->spill_build({build});
    OperatorRef op = join->start_probe(0);
    physical::ExecState state;
    op->execute(probe, state);
    SourceRef tail = join->tail();
    tail->open();
    ASSERT_GT(tail->num_batches(), 0u);
    EXPECT_GT(env.files(), 0u);
    EXPECT_THROW(tail->batch(0), std::runtime_error);
  }
  EXPECT_EQ(env.files(), 0u);
}
