#include "frazil/sql/share_subquery_input.hpp"

#include <gtest/gtest.h>

#include "sql_rewrite_test_util.hpp"

using namespace frazil;
using namespace frazil::sql_test;
using dsl::col;
using dsl::lit;

namespace {

// t: 400 rows over keys 0..39 (and a null key); r: 4 of those keys, one twice, one absent.
LazyFrame t() {
  std::vector<std::optional<int64_t>> k, v;
  for (int64_t i = 0; i < 400; ++i) {
    k.push_back(i == 7 ? std::nullopt : std::optional<int64_t>(i % 40));
    v.push_back((i * 37) % 101);
  }
  return LazyFrame::from_frame(DataFrame({int64s("k", k), int64s("v", v)}));
}

LazyFrame r() { return LazyFrame::from_frame(DataFrame({int64s("y", {3, 5, 5, 9, 1000})})); }

}  // namespace

TEST(ShareSubqueryInput, OuterJoinReadsTheSemiJoinedTableWithTheSameRows) {
  const LazyFrame table = t();
  const LazyFrame outer = table.join(r(), {col("k")}, {col("y")}).filter(col("v") > lit(int64_t{-1}));
  auto shared = sql::share_subquery_input(outer, table, {col("k")}, {col("y")});
  ASSERT_TRUE(shared.has_value());
  EXPECT_TRUE(sorted(shared->outer).equals(sorted(outer)));
  // X holds every row of t whose key r has, once each.
  const LazyFrame expected = table.join(r().unique(), {col("k")}, {col("y")}, JoinArgs{compute::JoinType::Semi});
  EXPECT_TRUE(sorted(shared->inner).equals(sorted(expected)));
  EXPECT_EQ(shared->inner.collect().height(), 30u);
}

TEST(ShareSubqueryInput, NotWhereAGroupWouldMissRows) {
  const LazyFrame table = t();
  // The outer reads a filtered t: another relation than the subquery's.
  const LazyFrame filtered = table.filter(col("v") > lit(int64_t{10})).join(r(), {col("k")}, {col("y")});
  EXPECT_FALSE(sql::share_subquery_input(filtered, table, {col("k")}, {col("y")}).has_value());
  // The correlation is on another column than the join's.
  const LazyFrame outer = table.join(r(), {col("k")}, {col("y")});
  EXPECT_FALSE(sql::share_subquery_input(outer, table, {col("v")}, {col("y")}).has_value());
  // A left join keeps t's rows without a partner.
  const LazyFrame left = table.join(r(), {col("k")}, {col("y")}, JoinArgs{compute::JoinType::Left});
  EXPECT_FALSE(sql::share_subquery_input(left, table, {col("k")}, {col("y")}).has_value());
}

TEST(ShareSubqueryInput, NotWhenTheSemiJoinKeepsMostRows) {
  const LazyFrame table = t();
  std::vector<std::optional<int64_t>> every;
  for (int64_t i = 0; i < 40; ++i) every.push_back(i);
  const LazyFrame all_keys = LazyFrame::from_frame(DataFrame({int64s("y", every)}));
  EXPECT_FALSE(sql::share_subquery_input(table.join(all_keys, {col("k")}, {col("y")}), table, {col("k")}, {col("y")})
                   .has_value());
}
