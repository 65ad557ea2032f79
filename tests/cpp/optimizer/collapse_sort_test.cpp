// CollapseSort: rewrite pairs (plan text before -> after) and equal results.
#include "frazil/optimizer/collapse_sort.hpp"

#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

LazyFrame df() { return LazyFrame::from_frame(frame()); }
// "a" without its repeated 2: a sort by it has no ties, so dropping the sort below it
// changes nothing (with ties, an unstable sort may order them either way).
LazyFrame unique_a() { return df().filter(col("a") != lit(2)); }

std::string rewritten(const LazyFrame& lf) {
  Plan plan(lf);
  plan.apply(optimizer::collapse_sort);
  return plan.explain();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(CollapseSort, UnstableOuterSortDropsTheInnerOne) {
  const LazyFrame lf = unique_a().sort({col("b")}).sort({col("a")});
  EXPECT_EQ(count(Plan(lf).explain(), "SORT BY"), 2u);
  const std::string text = rewritten(lf);
  EXPECT_EQ(count(text, "SORT BY"), 1u) << text;
  EXPECT_TRUE(contains(text, "SORT BY [col(\"a\")]")) << text;
}

TEST(CollapseSort, StableOuterSortTakesTheInnerKeysAsTieBreakers) {
  SortArgs inner;
  inner.descending = {true, false};
  inner.maintain_order = true;
  SortArgs outer;
  outer.maintain_order = true;
  const std::string text = rewritten(df().sort({col("g"), col("b")}, inner).sort({col("b")}, outer));
  EXPECT_EQ(count(text, "SORT BY"), 1u) << text;
  // "b" is already a key; "g" follows, descending as it was; the inner sort's stability.
  EXPECT_TRUE(contains(text, "SORT BY [maintain_order: true, descending: [false, true], nulls_last: [false, false]] "
                             "[col(\"b\"), col(\"g\")]") ||
              contains(text, "SORT BY [maintain_order: true, descending: [false, true]] [col(\"b\"), col(\"g\")]"))
      << text;
}

TEST(CollapseSort, ThreeSortsBecomeOne) {
  const std::string text = rewritten(unique_a().sort({col("g")}).sort({col("b")}).sort({col("a")}));
  EXPECT_EQ(count(text, "SORT BY"), 1u) << text;
}

TEST(CollapseSort, TopKInnerSortAndOrderDependentKeysStay) {
  EXPECT_EQ(count(rewritten(df().sort({col("b")}).head(3).sort({col("a")})), "SORT BY"), 2u);
  // cum_sum over the inner sort's order is not cum_sum over the input's.
  EXPECT_EQ(count(rewritten(df().sort({col("b")}).sort({col("a").cum_sum()})), "SORT BY"), 2u);
}

TEST(CollapseSort, SameResultsAsUnoptimized) {
  SortArgs stable;
  stable.maintain_order = true;
  SortArgs desc_nulls_last;
  desc_nulls_last.descending = {true};
  desc_nulls_last.nulls_last = {true};
  desc_nulls_last.maintain_order = true;
  for (const LazyFrame& lf : {df().sort({col("b")}, stable).sort({col("g")}, stable),
                              df().sort({col("a"), col("b")}, desc_nulls_last).sort({col("g")}, stable),
                              df().sort({col("g")}, desc_nulls_last).sort({col("g"), col("a")}, stable),
                              df().head(0).sort({col("a")}).sort({col("b")}, stable),
                              df().head(1).sort({col("a")}).sort({col("b")}, stable)}) {
    expect_same_as_unoptimized(lf);
  }
}
