#include "frazil/optimizer/pushdown/slice_pushdown.hpp"

#include "pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;
using optimizer::slice_pushdown;

namespace {

std::string sliced(const LazyFrame& lf) { return Plan(lf).apply(slice_pushdown).explain(); }

LazyFrame df() { return LazyFrame::from_frame(frame()); }

}  // namespace

TEST(SlicePushdown, SortBecomesTopK) {
  EXPECT_TRUE(contains(sliced(df().sort({col("a")}).head(2)), "SORT BY [slice: (0, 2)]"));
  EXPECT_TRUE(contains(sliced(df().sort({col("a")}).tail(2)), "SORT BY [slice: (-2, 2)]"));
  EXPECT_TRUE(contains(sliced(df().sort({col("a")}).slice(1, 3).slice(1, 5)), "SORT BY [slice: (2, 2)]"));
  // An unbounded slice is no top-k.
  EXPECT_TRUE(contains(sliced(df().sort({col("a")}).slice(2)), "SLICE[offset: 2"));
}

TEST(SlicePushdown, MergesSlices) {
  std::string p = sliced(df().slice(1, 4).slice(2, 10));
  EXPECT_TRUE(contains(p, "SLICE[offset: 3, len: 2]")) << p;
  EXPECT_EQ(p.find("SLICE"), p.rfind("SLICE")) << p;
  p = sliced(df().tail(4).tail(2));
  EXPECT_TRUE(contains(p, "SLICE[offset: -2, len: 2]")) << p;
  p = sliced(df().head(4).tail(2));  // depends on the height: stays two slices
  EXPECT_NE(p.find("SLICE"), p.rfind("SLICE")) << p;
}

TEST(SlicePushdown, ThroughRowWiseProjectionsOnly) {
  EXPECT_TRUE(contains(sliced(df().with_columns({(col("a") * 2).alias("c")}).head(2)),
                       "WITH_COLUMNS:\n[(col(\"a\") * 2).alias(\"c\")]\n  SLICE"));
  EXPECT_TRUE(contains(sliced(df().with_columns({col("a").sum().over({col("g")}).alias("s")}).head(2)),
                       "SLICE[offset: 0, len: 2]\n  WITH_COLUMNS"));
  EXPECT_TRUE(contains(sliced(df().select({col("a").sum()}).head(2)), "SLICE[offset: 0, len: 2]\n  SELECT"));
}

TEST(SlicePushdown, RowIndexOffsetShifts) {
  Plan plan(df().with_row_index("i").slice(2, 3));
  plan.apply(slice_pushdown);
  DataFrame out = plan.run();
  ASSERT_EQ(out.height(), 3);
  EXPECT_EQ(out.column("i").get(0), Scalar::uint32(2));
  EXPECT_TRUE(contains(plan.explain(), "ROW_INDEX i\n  SLICE[offset: 2, len: 3]"));
}

TEST(SlicePushdown, UnionKeepsTheSliceAbove) {
  for (int64_t n : {0, 1, 5, 20}) {
    std::string p = sliced(concat({df(), df(), df()}).slice(2, n));
    EXPECT_TRUE(contains(p, "SLICE[offset: 2, len: " + std::to_string(n) + "]\n  UNION")) << p;
    EXPECT_TRUE(contains(p, "SLICE[offset: 0, len: " + std::to_string(2 + n) + "]")) << p;
    sliced(concat({df(), df(), df()}).tail(n));
  }
}

TEST(SlicePushdown, StopsAtFiltersJoinsAndGroupBys) {
  EXPECT_TRUE(contains(sliced(df().filter(col("a") > 1).head(2)), "SLICE[offset: 0, len: 2]\n  FILTER"));
  EXPECT_TRUE(contains(sliced(df().group_by({col("g")}, true).agg({col("a").sum()}).head(1)), "SLICE[offset: 0, len: 1]\n  AGGREGATE"));
}
