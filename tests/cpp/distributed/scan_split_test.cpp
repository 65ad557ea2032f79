// Parquet scans split by row groups: the splits, and plans over split scans run through
// run_local against the single-node executor.
#include "frazil/distributed/scan_split.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "../exec/exec_test_util.hpp"
#include "frazil/api/io.hpp"
#include "frazil/distributed/stage_planner.hpp"
#include "frame_order.hpp"

namespace frazil::distributed {
namespace {

using dsl::col;
using dsl::lit;
using exec_test::OptimizedPlan;

class ScanSplitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("frazil_scan_split_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    io::parquet::ParquetWriteOptions w;
    w.row_group_size = 100;
    // a: 10 groups of 100 rows (v = 0..999), b: 3 groups (250 rows), c: 1 group
    frazil::write_parquet(exec_test::keyed(1000, 7), path("a"), w);
    frazil::write_parquet(exec_test::keyed(250, 3), path("b"), w);
    frazil::write_parquet(exec_test::keyed(40, 5), path("c"), w);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / (name + ".parquet")).string(); }

  std::vector<ScanSplit> splits_of(const LazyFrame& lf, size_t n) {
    OptimizedPlan p(lf);
    return split_scan(p.lp.get(p.find(plan::IRKind::Scan)).as<plan::ScanNode>(), p.ea, n);
  }

  std::filesystem::path dir_;
};

int64_t rows_of(const std::vector<ScanSplit>& splits) {
  int64_t n = 0;
  for (const auto& s : splits) n += s.rows;
  return n;
}

TEST_F(ScanSplitTest, OneFileIntoBalancedRunsOfRowGroups) {
  std::vector<ScanSplit> s = splits_of(scan_parquet(path("a")), 3);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(rows_of(s), 1000);
  for (const auto& split : s) {
    EXPECT_GE(split.row_groups, 3u);
    EXPECT_LE(split.row_groups, 4u);
  }
  EXPECT_EQ(splits_of(scan_parquet(path("a")), 50).size(), 10u);  // at most one split per group
  EXPECT_TRUE(splits_of(scan_parquet(path("a")), 1).empty());
  EXPECT_TRUE(splits_of(scan_parquet(path("c")), 4).empty());  // one row group
  EXPECT_NE(describe_splits(s).find("split into 3 tasks: "), std::string::npos) << describe_splits(s);
}

TEST_F(ScanSplitTest, PrunedGroupsAreLeftOut) {
  // v > 849 keeps groups 8 and 9 only (statistics), so two splits of one group each.
  std::vector<ScanSplit> s = splits_of(scan_parquet(path("a")).filter(col("v") > lit(849)), 4);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(rows_of(s), 200);
  EXPECT_TRUE(splits_of(scan_parquet(path("a")).filter(col("v") > lit(949)), 4).empty());
}

TEST_F(ScanSplitTest, NotSplit) {
  EXPECT_TRUE(splits_of(scan_parquet(path("a")).head(5), 4).empty());  // a row limit
  io::FileScanArgs indexed;  // the scan's own row index counts the rows of earlier groups
  indexed.paths = {path("a")};
  indexed.row_index_name = "i";
  EXPECT_TRUE(splits_of(scan_parquet(indexed), 4).empty());
  frazil::write_csv(exec_test::keyed(10, 3), (dir_ / "a.csv").string());
  EXPECT_TRUE(splits_of(scan_csv((dir_ / "a.csv").string()), 4).empty());
}

// run_local over split scans equals the single-node result, rows in order where kept.
void expect_equal(const LazyFrame& lf, bool ordered_expected, bool split_expected = true) {
  OptimizedPlan p(lf);
  const DataFrame whole = exec::execute_plan(p.root, p.lp, p.ea, exec_test::test_options());
  for (size_t n : {2, 3, 7}) {
    DistOptions o;
    o.partitions = n;
    StageGraph g = plan_stages(p.root, p.lp, p.ea, o);
    const std::string text = format_stage_graph(g);
    EXPECT_EQ(text.find("parquet scan split into") != std::string::npos, split_expected) << text;
    DataFrame out = run_local(g, exec_test::test_options());
    if (ordered_expected) EXPECT_TRUE(g.ordered) << text;
    if (!g.ordered) {
      out = test::sorted_rows(out);
      EXPECT_TRUE(out.equals(test::sorted_rows(whole))) << n << "\n" << text << out.to_string();
    } else {
      EXPECT_TRUE(out.equals(whole)) << n << "\n" << text << out.to_string();
    }
  }
}

TEST_F(ScanSplitTest, PlansOverSplitScansEqualOneTask) {
  const LazyFrame a = scan_parquet(path("a"));
  expect_equal(a.filter(col("k") != lit(3)).with_columns({(col("v") * lit(2)).alias("w")}), true);
  expect_equal(a.group_by({col("k")}).agg({col("v").sum(), col("v").mean().alias("m"), dsl::len()}), false);
  expect_equal(a.select({col("v").sum(), col("v").min().alias("lo")}), true);
  expect_equal(a.head(150), true, false);  // the limit went into the scan: one task reads it
  expect_equal(a.with_row_index("i").filter(col("k") == lit(2)), true);  // the index above the split scan
  expect_equal(a.filter(col("v") > lit(420)).head(150), true, false);  // the limit went into the scan
  // Several files: the runs cross file boundaries.
  io::FileScanArgs args;
  args.paths = {path("a"), path("b"), path("c")};
  const LazyFrame abc = scan_parquet(args);
  expect_equal(abc, true);
  expect_equal(abc.join(scan_parquet(path("b")).select({col("k"), col("v").alias("v2")}), {col("k")}, JoinArgs{})
                   .group_by({col("k")})
                   .agg({col("v2").sum()}),
               false);
  expect_equal(concat({a, scan_parquet(path("b"))}), false);  // aligned splits: each task's part of both
}

// A frame read from Parquet (plain pages: string views into the page, each value followed
// by the next one's length prefix) round-trips as a partition; values of 64 bytes once
// made the UTF-8 check read that prefix (fixed on wip/io, 9fd7453).
TEST_F(ScanSplitTest, ParquetStringsRoundTripAsPartitions) {
  ViewBuilder sb;
  for (int i = 0; i < 3000; ++i) {
    std::string v = "comment " + std::to_string(i * 7919 % 10007) + " ";
    v.resize(i % 2 ? 64 : 160, 'x');  // 160 = 0xa0: a UTF-8 continuation byte
    sb.push(v);
  }
  const DataFrame df({Column("s", sb.finish())});
  io::parquet::ParquetWriteOptions w;
  w.dictionary = false;
  frazil::write_parquet(df, path("s"), w);
  EXPECT_TRUE(decode_partition(encode_partition(read_parquet(path("s")))).equals(df));
}

}  // namespace
}  // namespace frazil::distributed
