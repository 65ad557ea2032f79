// The passes together, through LazyFrame: results equal the unoptimized plan's, and file
// scans read fewer rows and columns.
#include <filesystem>

#include "pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

LazyFrame df() { return LazyFrame::from_frame(frame()); }

std::string temp_csv(int64_t rows) {
  PrimitiveBuilder<int64_t> a(DataType::int64());
  PrimitiveBuilder<double> b(DataType::float64());
  ViewBuilder s;
  for (int64_t i = 0; i < rows; ++i) {
    a.push(i);
    b.push(i / 3.0);
    s.push("s" + std::to_string(i % 3));
  }
  auto path = std::filesystem::temp_directory_path() / ("frazil_pushdown_" + std::to_string(::getpid()) + ".csv");
  write_csv(DataFrame({Column("a", a.finish()), Column("b", b.finish()), Column("s", s.finish())}), path.string());
  return path.string();
}

// Height and width of what each scan of the optimized plan produces, summed.
std::pair<int64_t, int64_t> scanned(const LazyFrame& lf, const OptFlags& flags) {
  Plan plan(lf);
  plan.root = optimizer::optimize(plan.root, plan.lp, plan.ea, flags);
  int64_t rows = 0, cols = 0;
  for (uint32_t i = 0; i < plan.lp.size(); ++i) {
    const plan::IR& ir = plan.lp.get(plan::Node(i));
    if (ir.kind() != plan::IRKind::Scan) continue;
    DataFrame out = exec::execute_plan(plan::Node(i), plan.lp, plan.ea);
    rows += out.height();
    cols += out.width();
  }
  return {rows, cols};
}

}  // namespace

TEST(PushdownEndToEnd, SameResultsAsUnoptimized) {
  auto r = LazyFrame::from_frame(right_frame());
  JoinArgs left;
  left.how = compute::JoinType::Left;
  for (const LazyFrame& lf : std::vector<LazyFrame>{
           df().join(r, {col("a")}, left).filter(col("f").fill_null(lit(true))),
           df().join(r, {col("a")}, left).filter(col("f").is_null()),
           df().join(r, {col("a")}, left).filter(col("f")),
           df().join(df(), {col("a")}).filter(col("g_right") == lit("x")).select({col("b_right")}),
           df().group_by({(col("a") + 1).alias("a")}, true).agg({col("b").sum()}).filter(col("a") > 2),
           df().with_columns({col("a").sum().over({col("g")}).alias("s"), lit("z").alias("g")}).filter(col("g") == lit("z")),
           concat({df(), df()}).head(3).filter(col("a") > 1),
           df().with_row_index().filter(col("index") == 1),
           df().filter(col("a") == col("a").min()).filter(col("a") > 3),
           concat({df(), df()}).with_columns({dsl::len().over({col("g")}).alias("n")}).filter(col("n") > 2),
           df().sort({col("a")}).filter(col("b") >= 0).head(2).select({col("g")}),
           df().cross_join(df()).filter(col("a") == col("a_right")).select({dsl::len()}),
           df().head(0).filter(col("a") > 1).select({dsl::len()}),
       })
    expect_same_as_unoptimized(lf);
}

TEST(PushdownEndToEnd, FileScanReadsLess) {
  const std::string path = temp_csv(1000);
  const OptFlags none = OptFlags::none();
  // A filter and a projection: 333 rows of one column instead of 1000 rows of three.
  auto q = scan_csv(path).filter(col("a") % 3 == 0).select({col("b")});
  EXPECT_EQ(scanned(q, none), (std::pair<int64_t, int64_t>(1000, 3)));
  EXPECT_EQ(scanned(q, OptFlags()), (std::pair<int64_t, int64_t>(334, 1)));
  // A head: the reader stops after 5 rows.
  auto h = scan_csv(path).with_columns({(col("a") * 2).alias("c")}).head(5);
  EXPECT_EQ(scanned(h, OptFlags()).first, 5);
  // A count reads one column.
  EXPECT_EQ(scanned(scan_csv(path).select({dsl::len()}), OptFlags()), (std::pair<int64_t, int64_t>(1000, 1)));
  for (const LazyFrame& lf : std::vector<LazyFrame>{q, h, scan_csv(path).filter(col("s") == lit("s1")).head(4)}) expect_same_as_unoptimized(lf);
  std::filesystem::remove(path);
}
