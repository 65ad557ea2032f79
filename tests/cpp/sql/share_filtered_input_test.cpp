#include "frazil/sql/share_filtered_input.hpp"

#include <gtest/gtest.h>

#include "sql_rewrite_test_util.hpp"

using namespace frazil;
using namespace frazil::sql_test;
using dsl::col;
using dsl::lit;

namespace {

// t: 400 rows, k over 0..39 with a null, v over 0..100.
LazyFrame t() {
  std::vector<std::optional<int64_t>> k, v;
  for (int64_t i = 0; i < 400; ++i) {
    k.push_back(i == 7 ? std::nullopt : std::optional<int64_t>(i % 40));
    v.push_back((i * 37) % 101);
  }
  return LazyFrame::from_frame(DataFrame({int64s("k", k), int64s("v", v)}));
}

}  // namespace

TEST(ShareFilteredInput, SubqueryReadsTheOuterFilteredRows) {
  const LazyFrame table = t();
  const Expr p = col("k") == lit(int64_t{3});
  const Expr q = col("v") > lit(int64_t{20});
  const LazyFrame outer = table.filter(p);
  // The subquery's conditions hold the outer's, in another order, below an aggregate.
  const LazyFrame sub = table.filter(q & p).select({col("v").mean()});
  auto shared = sql::share_filtered_input(outer, sub);
  ASSERT_TRUE(shared.has_value());
  EXPECT_TRUE(shared->collect().equals(sub.collect()));
  // The outer's filter node itself is the subquery's input now (one subplan for CSE).
  const auto& filter = shared->plan()->inputs[0];
  ASSERT_EQ(filter->kind(), dsl::DslKind::Filter);
  EXPECT_EQ(filter->inputs[0], outer.plan());
  // Exactly the outer's conditions: the outer's filtered rows, no filter of its own.
  auto same = sql::share_filtered_input(outer, table.filter(p).select({col("v").sum()}));
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->plan()->inputs[0], outer.plan());
}

TEST(ShareFilteredInput, NotWhenTheSubqueryReadsRowsTheOuterDrops) {
  const LazyFrame table = t();
  const Expr p = col("k") == lit(int64_t{3});
  const Expr r = col("v") == lit(int64_t{9});
  const LazyFrame outer = table.filter(p & r);
  EXPECT_FALSE(sql::share_filtered_input(outer, table.filter(p).select({col("v").mean()})).has_value());
  // Another table (a distinct frame with the same columns).
  EXPECT_FALSE(sql::share_filtered_input(table.filter(p), t().filter(p).select({col("v").mean()})).has_value());
  // The outer is not a filter.
  EXPECT_FALSE(sql::share_filtered_input(table, table.filter(p)).has_value());
}

TEST(ShareFilteredInput, NotWhenTheOuterFilterKeepsMostRows) {
  const LazyFrame table = t();
  const Expr p = col("k").is_not_null();
  EXPECT_FALSE(sql::share_filtered_input(table.filter(p), table.filter(p).select({col("v").mean()})).has_value());
}
