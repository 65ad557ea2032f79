// PrePartitionHive: a group-by or join on hive keys becomes a union of one per partition
// chunk; without the split, a join of two hive scans reads only the partitions it can match.
#include "frazil/optimizer/pre_partition_hive.hpp"

#include <filesystem>
#include <unistd.h>

#include "../compute/elementwise_test_util.hpp"
#include "frazil/api/io.hpp"
#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;
namespace fs = std::filesystem;

namespace {

struct Dataset {
  fs::path dir;
  Dataset() {
    dir = fs::temp_directory_path() / ("frazil_pre_partition_hive_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    // left/foo=1..3 (x with a null), right/bar=1,2 (y).
    for (int64_t foo = 1; foo <= 3; ++foo) {
      fs::create_directories(dir / "left" / ("foo=" + std::to_string(foo)));
      write_parquet(DataFrame({Column("x", test::i64({foo * 10, std::nullopt, foo}))}),
                    (dir / "left" / ("foo=" + std::to_string(foo)) / "0.parquet").string());
    }
    for (int64_t bar = 1; bar <= 2; ++bar) {
      fs::create_directories(dir / "right" / ("bar=" + std::to_string(bar)));
      write_parquet(DataFrame({Column("y", test::f64({bar * 100.0, -0.0}))}),
                    (dir / "right" / ("bar=" + std::to_string(bar)) / "0.parquet").string());
    }
  }
  ~Dataset() { fs::remove_all(dir); }
  LazyFrame left() const { return scan_parquet((dir / "left").string()); }
  LazyFrame right() const { return scan_parquet((dir / "right").string()); }
};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string rewritten(const LazyFrame& lf, bool split) {
  Plan plan(lf);
  plan.root = optimizer::pre_partition_hive(plan.root, plan.lp, plan.ea, split);
  return plan.explain();
}

OptFlags without_split() {
  OptFlags f;
  f.pre_partition_hive = false;
  return f;
}

DataFrame sorted(const LazyFrame& lf, const OptFlags& flags, std::vector<Expr> by) {
  return lf.sort(std::move(by), SortArgs{}).collect(flags);
}

}  // namespace

TEST(PrePartitionHive, GroupByOnAHiveKeyBecomesAUnionPerPartition) {
  Dataset d;
  const LazyFrame q = d.left().group_by({col("foo")}).agg({col("x").sum(), dsl::len()});
  const std::string text = rewritten(q, true);
  EXPECT_EQ(text.rfind("UNION", 0), 0u) << text;
  EXPECT_EQ(count(text, "AGGREGATE"), 3u) << text;
  EXPECT_EQ(count(text, "is_in"), 3u) << text;
  EXPECT_EQ(count(rewritten(q, false), "UNION"), 0u);
  const DataFrame on = sorted(q, OptFlags(), {col("foo")});
  EXPECT_TRUE(on.equals(sorted(q, without_split(), {col("foo")}))) << on.to_string();
  EXPECT_TRUE(on.equals(sorted(q, OptFlags::none(), {col("foo")}))) << on.to_string();
  // maintain_order keeps one group-by.
  EXPECT_EQ(count(rewritten(d.left().group_by({col("foo")}, true).agg({col("x").sum()}), true), "UNION"), 0u);
}

TEST(PrePartitionHive, JoinsOnHiveKeysSplitPerMatchingPartition) {
  Dataset d;
  struct Case {
    compute::JoinType how;
    size_t branches;
  };
  for (const Case c : {Case{compute::JoinType::Inner, 2}, Case{compute::JoinType::Left, 3},
                       Case{compute::JoinType::Right, 2}, Case{compute::JoinType::Semi, 2}}) {
    JoinArgs args;
    args.how = c.how;
    const LazyFrame q = d.left().join(d.right(), {col("foo")}, {col("bar")}, args);
    const std::string text = rewritten(q, true);
    EXPECT_EQ(count(text, "PLAN " + std::to_string(c.branches - 1) + ":"), 1u) << text;
    EXPECT_EQ(count(text, "PLAN " + std::to_string(c.branches) + ":"), 0u) << text;
    // The union keeps the join's row order: each partition's files are consecutive.
    const DataFrame on = q.collect(), off = q.collect(without_split()), none = q.collect(OptFlags::none());
    EXPECT_TRUE(on.equals(off)) << on.to_string() << "\n" << off.to_string() << "\n" << q.explain();
    EXPECT_TRUE(on.equals(none)) << on.to_string() << "\n" << none.to_string();
  }
}

TEST(PrePartitionHive, WithoutTheSplitAJoinOnlyPrunesPartitions) {
  Dataset d;
  const LazyFrame q = d.left().join(d.right(), {col("foo")}, {col("bar")});
  const std::string text = rewritten(q, false);
  EXPECT_EQ(count(text, "UNION"), 0u) << text;
  // Only the left side has a partition (foo=3) the join cannot match.
  EXPECT_EQ(count(text, "is_in"), 1u) << text;
  // A key that is not a hive key, or a full join, is not touched.
  EXPECT_EQ(rewritten(d.left().join(d.right(), {col("x")}, {col("bar")}), true),
            Plan(d.left().join(d.right(), {col("x")}, {col("bar")})).explain());
  JoinArgs full;
  full.how = compute::JoinType::Full;
  const LazyFrame f = d.left().join(d.right(), {col("foo")}, {col("bar")}, full);
  EXPECT_EQ(rewritten(f, true), Plan(f).explain());
}
