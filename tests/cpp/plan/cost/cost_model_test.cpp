#include "frazil/plan/cost/cost_model.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "frazil/frazil.hpp"
#include "frazil/io/parquet/writer.hpp"
#include "frazil/optimizer/pushdown/predicate_pushdown.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

using namespace frazil;
using plan::estimate_cost;
using plan::predicate_selectivity;

namespace {

// k: 1..4 cycling, a: 0..n-1, b: a * 10 (every 7th null).
DataFrame frame(int64_t n = 40) {
  PrimitiveBuilder<int64_t> k(DataType::int64()), a(DataType::int64()), b(DataType::int64());
  for (int64_t i = 0; i < n; ++i) {
    k.push(i % 4 + 1);
    a.push(i);
    if (i % 7 == 3) b.push_null();
    else b.push(i * 10);
  }
  return DataFrame({Column("k", k.finish()), Column("a", a.finish()), Column("b", b.finish())});
}

// A plan converted into its own arenas, unoptimized.
struct Plan {
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root;
  Plan(const LazyFrame& lf, const OptFlags& flags) { root = plan::to_alp(lf.plan(), lp, ea, flags); }
};

double selectivity(const dsl::Expr& predicate) {
  Plan p(LazyFrame::from_frame(frame()).filter(predicate), OptFlags::none());
  return predicate_selectivity(p.lp.get(p.root).as<plan::FilterNode>().predicate.node(), p.ea);
}

std::filesystem::path temp_dir() {
  auto dir = std::filesystem::temp_directory_path() / ("frazil_cost_model_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST(CostModel, Selectivities) {
  EXPECT_DOUBLE_EQ(selectivity(col("a") == 3), 0.1);
  EXPECT_DOUBLE_EQ(selectivity(col("a") < 3), 1.0 / 3);
  EXPECT_DOUBLE_EQ(selectivity((col("a") == 3) & (col("k") < 2)), 0.1 / 3);
  EXPECT_DOUBLE_EQ(selectivity((col("a") == 3) | (col("a") == 4)), 0.19);
  EXPECT_DOUBLE_EQ(selectivity((col("a") == 3).not_()), 0.9);
  EXPECT_DOUBLE_EQ(selectivity(col("b").is_null()), 0.05);
}

TEST(CostModel, RowsAndWorkThroughAPlan) {
  LazyFrame lf = LazyFrame::from_frame(frame(1000));
  auto cost = [](const LazyFrame& q) {
    Plan p(q, OptFlags::none());
    auto c = estimate_cost(p.root, p.lp, p.ea);
    EXPECT_TRUE(c.has_value());
    return c.value_or(plan::PlanCost{});
  };
  auto scan = cost(lf);
  EXPECT_DOUBLE_EQ(scan.rows, 1000);
  EXPECT_DOUBLE_EQ(scan.work, 1000);
  auto filtered = cost(lf.filter(col("a") == 1));
  EXPECT_DOUBLE_EQ(filtered.rows, 100);
  EXPECT_DOUBLE_EQ(filtered.work, 2000);
  // Pushed into the scan, the predicate still passes over every row read.
  Plan pushed(lf.filter(col("a") == 1), OptFlags::none());
  pushed.root = optimizer::predicate_pushdown(pushed.root, pushed.lp, pushed.ea);
  ASSERT_EQ(pushed.lp.get(pushed.root).kind(), plan::IRKind::DataFrameScan);
  auto pushed_cost = estimate_cost(pushed.root, pushed.lp, pushed.ea);
  ASSERT_TRUE(pushed_cost.has_value());
  EXPECT_DOUBLE_EQ(pushed_cost->rows, 100);
  EXPECT_DOUBLE_EQ(pushed_cost->work, filtered.work);
  auto grouped = cost(lf.group_by({col("k")}).agg({col("a").sum()}));
  EXPECT_DOUBLE_EQ(grouped.rows, 100);
  EXPECT_DOUBLE_EQ(grouped.work, 2000);
  // A key/foreign-key join keeps the larger side's rows whose keys survive the other
  // side's filters: 1000 rows x the tenth the filter kept.
  auto joined = cost(lf.join(lf.filter(col("a") == 1), {col("a")}));
  EXPECT_DOUBLE_EQ(joined.rows, 100);
  EXPECT_DOUBLE_EQ(joined.kept, 0.1);
  EXPECT_DOUBLE_EQ(joined.work, 1000 + 2000 + 1000 + 100 + 100);
  // Which side comes first does not matter; the fact side is the one larger unfiltered.
  auto swapped = cost(lf.filter(col("a") == 1).join(lf, {col("a")}));
  EXPECT_DOUBLE_EQ(swapped.rows, 100);
  auto facts = cost(lf.filter(col("a") == 1).join(lf.head(10), {col("a")}));
  EXPECT_DOUBLE_EQ(facts.rows, 100);  // the filtered 1000 rows match the 10 unfiltered ones
  auto semi = cost(lf.join(lf.filter(col("a") == 1), {col("a")}, JoinArgs{compute::JoinType::Semi}));
  EXPECT_DOUBLE_EQ(semi.rows, 100);
  auto scalar = cost(lf.select({col("a").sum()}));
  EXPECT_DOUBLE_EQ(scalar.rows, 1);
  auto sliced = cost(lf.slice(990, 50));
  EXPECT_DOUBLE_EQ(sliced.rows, 10);
  auto both = cost(concat({lf, lf.head(5)}));
  EXPECT_DOUBLE_EQ(both.rows, 1005);
}

TEST(CostModel, FileSources) {
  auto dir = temp_dir();
  DataFrame df = frame(5000);
  const std::string pq = (dir / "t.parquet").string();
  io::parquet::write_parquet(df, pq);
  {
    Plan p(scan_parquet(pq), OptFlags::none());
    auto c = estimate_cost(p.root, p.lp, p.ea);
    ASSERT_TRUE(c.has_value());
    EXPECT_DOUBLE_EQ(c->rows, 5000);  // the footer's row count
  }
  const std::string csv = (dir / "t.csv").string();
  write_csv(df, csv);
  {
    Plan p(scan_csv(csv), OptFlags::none());
    auto c = estimate_cost(p.root, p.lp, p.ea);
    ASSERT_TRUE(c.has_value());
    // From the file size: within a factor of three of the truth is all it needs.
    EXPECT_GT(c->rows, 5000 / 3.0);
    EXPECT_LT(c->rows, 5000 * 3.0);
  }
  std::filesystem::remove_all(dir);
}
