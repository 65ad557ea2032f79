#include "frazil/compute/partition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {
namespace {

using dsl::col;

DataFrame frame(int64_t n) {
  PrimitiveBuilder<int64_t> kb(DataType::int64()), ib(DataType::int64());
  PrimitiveBuilder<double> fb(DataType::float64());
  const double specials[] = {0.0, -0.0, std::nan(""), -std::nan(""), 1.5};
  for (int64_t i = 0; i < n; ++i) {
    if (i % 7 == 3) kb.push_null();
    else kb.push(i % 10 == 0 ? 4 : (i * 37) % 13);  // 4 is hot
    ib.push(i);
    if (i % 6 == 0) fb.push_null();
    else fb.push(specials[i % 5]);
  }
  DataFrame df({Column("k", kb.finish()), Column("i", ib.finish()), Column("f", fb.finish())});
  return LazyFrame::from_frame(df).with_columns({col("k").cast(DataType::string()).alias("s")}).collect();
}

// The key's partition in `parts`, by looking where each value went: it must be one.
std::map<std::string, size_t> where(const std::vector<DataFrame>& parts, const std::string& key) {
  std::map<std::string, size_t> seen;
  for (size_t p = 0; p < parts.size(); ++p) {
    const Column& c = parts[p].column(key);
    for (int64_t r = 0; r < c.length(); ++r) {
      std::string v = c.get(r).to_string();
      auto [it, fresh] = seen.emplace(v, p);
      EXPECT_EQ(it->second, p) << key << " = " << v << " is in two partitions";
    }
  }
  return seen;
}

TEST(Partition, EveryRowOnceInOrderEqualKeysTogether) {
  const DataFrame df = frame(1000);
  for (size_t n : {1, 2, 3, 7}) {
    auto parts = partition_frame(df, {"k"}, n);
    ASSERT_EQ(parts.size(), n);
    int64_t rows = 0;
    for (const auto& p : parts) {
      EXPECT_EQ(p.schema(), df.schema());
      rows += p.height();
      const Column& idx = p.column("i");
      for (int64_t r = 1; r < idx.length(); ++r) EXPECT_LT(idx.get(r - 1).as_int64(), idx.get(r).as_int64());
    }
    EXPECT_EQ(rows, df.height());
    where(parts, "k");
    where(partition_frame(df, {"f"}, n), "f");  // one partition per float value
  }
  // -0.0 and 0.0, and the two NaNs, share a partition.
  auto parts = partition_frame(df, {"f"}, 7);
  std::map<std::string, size_t> by_value;
  for (size_t p = 0; p < parts.size(); ++p)
    for (int64_t r = 0; r < parts[p].height(); ++r) {
      Scalar v = parts[p].column("f").get(r);
      std::string key = v.is_null() ? "null" : std::isnan(v.as_double()) ? "nan" : v.as_double() == 0 ? "zero" : "other";
      auto [it, fresh] = by_value.emplace(key, p);
      EXPECT_EQ(it->second, p) << key;
    }
}

TEST(Partition, CoPartitionedAcrossFrames) {
  // The same key values in another frame, another order and another column name land in
  // the same partition numbers (what a shuffled join relies on).
  const DataFrame a = frame(500);
  const DataFrame b = LazyFrame::from_frame(a)
                          .sort({col("i")}, SortArgs{{true}, {false}, false})
                          .select({col("k").alias("key"), col("s").alias("skey")})
                          .collect();
  for (size_t n : {2, 3, 7}) {
    auto pa = where(partition_frame(a, {"k", "s"}, n), "k");
    auto pb = where(partition_frame(b, {"key", "skey"}, n), "key");
    EXPECT_EQ(pa, pb);
  }
}

TEST(Partition, EmptyOneRowAndErrors) {
  const DataFrame df = frame(1);
  auto parts = partition_frame(df.slice(0, 0), {"k"}, 3);
  ASSERT_EQ(parts.size(), 3u);
  for (const auto& p : parts) {
    EXPECT_EQ(p.height(), 0);
    EXPECT_EQ(p.schema(), df.schema());
  }
  parts = partition_frame(df, {"k"}, 7);
  int64_t rows = 0;
  for (const auto& p : parts) rows += p.height();
  EXPECT_EQ(rows, 1);
  EXPECT_THROW(partition_frame(df, {"nope"}, 2), ColumnNotFoundError);
  EXPECT_THROW(partition_frame(df, {}, 2), InvalidOperationError);
  EXPECT_THROW(partition_frame(df, {"k"}, 0), InvalidOperationError);
}

}  // namespace
}  // namespace frazil::compute
