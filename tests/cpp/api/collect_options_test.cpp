// CollectOptions: a cancellation token, a timeout and verify mode.
#include <gtest/gtest.h>

#include <thread>

#include "frazil/frazil.hpp"

using namespace frazil;
using namespace std::chrono_literals;

namespace {

// A query that takes seconds: a sort of many rows by two keys.
LazyFrame long_query() {
  const int64_t n = 8'000'000;
  PrimitiveBuilder<int64_t> a(DataType::int64());
  PrimitiveBuilder<double> b(DataType::float64());
  uint64_t x = 88172645463325252ull;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    a.push(static_cast<int64_t>(x % 1000));
    b.push(static_cast<double>(x >> 11));
  }
  DataFrame df({Column("a", a.finish()), Column("b", b.finish())});
  return LazyFrame::from_frame(df).sort({col("b"), col("a")}).select({col("a").sum()});
}

}  // namespace

TEST(CollectOptions, TokenFromAnotherThreadStopsTheQuery) {
  LazyFrame q = long_query();
  CollectOptions o;
  o.cancel = std::make_shared<CancelToken>();
  std::thread canceller([token = o.cancel] {
    std::this_thread::sleep_for(50ms);
    token->cancel();
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(q.collect(o), CancelledError);
  canceller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  // The frame is usable again with a fresh token.
  o.cancel = std::make_shared<CancelToken>();
  EXPECT_EQ(LazyFrame::from_frame(DataFrame({Column::scalar("x", Scalar::int64(1), 3)}))
                .select({dsl::len()})
                .collect(o)
                .column(0)
                .get(0),
            Scalar::uint32(3));
}

TEST(CollectOptions, ACancelledTokenStopsAtOnce) {
  CollectOptions o;
  o.cancel = std::make_shared<CancelToken>();
  o.cancel->cancel();
  EXPECT_THROW(long_query().collect(o), CancelledError);
}

TEST(CollectOptions, Timeout) {
  CollectOptions o;
  o.timeout = 30ms;
  try {
    long_query().collect(o);
    FAIL() << "no timeout";
  } catch (const CancelledError& e) {
    EXPECT_NE(std::string(e.what()).find("timeout of 30 ms"), std::string::npos) << e.what();
  }
  o.timeout = 60s;
  EXPECT_EQ(LazyFrame::from_frame(DataFrame::empty_with_height(4)).select({dsl::len()}).collect(o).height(), 1);
}

TEST(CollectOptions, VerifyRunsUnoptimizedAndAgrees) {
  PrimitiveBuilder<int64_t> k(DataType::int64());
  for (int64_t v : {3, 1, 3, 2, 1}) k.push(v);
  DataFrame df({Column("k", k.finish())});
  CollectOptions o;
  o.verify = VerifyMode::EachPass;
  DataFrame out = LazyFrame::from_frame(df)
                      .filter(col("k") > 1)
                      .group_by({col("k")})
                      .agg({dsl::len().alias("n")})
                      .collect(o);
  EXPECT_EQ(out.height(), 2);
}

TEST(Verify, ResultDifferenceFollowsTheOrderThePlanDefines) {
  auto frame = [](std::vector<int64_t> a, std::vector<double> b) {
    PrimitiveBuilder<int64_t> x(DataType::int64());
    PrimitiveBuilder<double> y(DataType::float64());
    for (auto v : a) x.push(v);
    for (auto v : b) y.push(v);
    return DataFrame({Column("a", x.finish()), Column("b", y.finish())});
  };
  const DataFrame base = frame({1, 2, 3}, {0.1, 0.2, 0.3});
  const DataFrame swapped = frame({2, 1, 3}, {0.2, 0.1, 0.3});
  const DataFrame rounded = frame({1, 2, 3}, {0.1, 0.2, 0.1 + 0.2});  // 0.30000000000000004
  const DataFrame other = frame({1, 2, 4}, {0.1, 0.2, 0.3});
  EXPECT_FALSE(result_difference(base, rounded, ResultOrder::Defined));
  EXPECT_TRUE(result_difference(base, swapped, ResultOrder::Defined));
  EXPECT_FALSE(result_difference(base, swapped, ResultOrder::Rows));
  EXPECT_TRUE(result_difference(base, other, ResultOrder::Rows));
  EXPECT_FALSE(result_difference(base, other, ResultOrder::Count));
  EXPECT_TRUE(result_difference(base, base.slice(0, 2), ResultOrder::Count));
  auto diff = result_difference(base, other, ResultOrder::Defined);
  ASSERT_TRUE(diff);
  EXPECT_EQ(*diff, "row 2 of column 'a': 3 vs 4");
}
