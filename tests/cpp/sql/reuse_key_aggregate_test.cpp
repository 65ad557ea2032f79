#include "frazil/sql/reuse_key_aggregate.hpp"

#include <gtest/gtest.h>

#include "sql_rewrite_test_util.hpp"

using namespace frazil;
using namespace frazil::sql_test;
using dsl::col;
using dsl::lit;

namespace {

// t: 300 rows over keys 0..29 with an integer and a float value; o: keys of t (one twice),
// one t lacks, and a label.
LazyFrame t() {
  std::vector<std::optional<int64_t>> k, q;
  std::vector<double> f;
  for (int64_t i = 0; i < 300; ++i) {
    k.push_back(i % 30);
    q.push_back((i * 37) % 11);
    f.push_back(static_cast<double>(i) / 7.0);
  }
  return LazyFrame::from_frame(DataFrame({int64s("k", k), int64s("q", q), float64s("f", f)}));
}

LazyFrame o() {
  return LazyFrame::from_frame(
      DataFrame({int64s("ok", {1, 2, 2, 5, 8, 13, 99}), int64s("a", {0, 1, 1, 0, 1, 0, 1})}));
}

struct Query {
  LazyFrame input;  // the group-by's input
  std::vector<Expr> keys;
};

// o's rows whose key t's per-key sum of q passes 40, joined with t.
Query q18_like(const LazyFrame& table, const std::vector<Expr>& key_aggs) {
  const LazyFrame per_key = table.group_by({col("k")}).agg(key_aggs);
  const LazyFrame large = per_key.filter(col("sq") > lit(int64_t{40})).select({col("k").alias("in_k")});
  const LazyFrame orders = o().join(large, {col("ok")}, {col("in_k")}, JoinArgs{compute::JoinType::Semi});
  return {table.join(orders, {col("k")}, {col("ok")}), {col("a")}};
}

}  // namespace

TEST(ReuseKeyAggregate, SumsMinAndMaxOfTheKeyAggregate) {
  const LazyFrame table = t();
  Query q = q18_like(table, {col("q").sum().alias("sq"), col("q").max().alias("mq")});
  const std::vector<Expr> aggs = {col("q").sum().alias("s"), col("q").max().alias("m")};
  auto reused = sql::reuse_key_aggregate(q.input, q.keys, aggs);
  ASSERT_TRUE(reused.has_value());
  const std::string plan = reused->explain(false);
  EXPECT_NE(plan.find("col(\"sq\").sum().alias(\"s\")"), std::string::npos) << plan;
  EXPECT_NE(plan.find("col(\"mq\").max().alias(\"m\")"), std::string::npos) << plan;
  EXPECT_TRUE(sorted(*reused).equals(sorted(q.input.group_by(q.keys).agg(aggs))));
}

TEST(ReuseKeyAggregate, NotForFloatSumsOrAggregationsItLacks) {
  const LazyFrame table = t();
  Query q = q18_like(table, {col("q").sum().alias("sq"), col("f").sum().alias("sf")});
  EXPECT_FALSE(sql::reuse_key_aggregate(q.input, q.keys, {col("f").sum().alias("s")}).has_value());
  EXPECT_FALSE(sql::reuse_key_aggregate(q.input, q.keys, {col("q").min().alias("s")}).has_value());
}

TEST(ReuseKeyAggregate, NotWhenAKeyOrFilterReadsTheTablesOtherColumns) {
  const LazyFrame table = t();
  Query q = q18_like(table, {col("q").sum().alias("sq")});
  const std::vector<Expr> aggs = {col("q").sum().alias("s")};
  EXPECT_FALSE(sql::reuse_key_aggregate(q.input, {col("q")}, aggs).has_value());
  EXPECT_FALSE(sql::reuse_key_aggregate(q.input.filter(col("q") > lit(int64_t{3})), q.keys, aggs).has_value());
  // A filter on the other side's columns keeps or drops a key's joined rows together.
  auto kept = sql::reuse_key_aggregate(q.input.filter(col("a") == lit(int64_t{1})), q.keys, aggs);
  ASSERT_TRUE(kept.has_value());
  EXPECT_TRUE(sorted(*kept).equals(sorted(q.input.filter(col("a") == lit(int64_t{1})).group_by(q.keys).agg(aggs))));
}
