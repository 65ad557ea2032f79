#include <gtest/gtest.h>

#include "frazil/frazil.hpp"

using namespace frazil;

namespace {

DataFrame frame() {
  PrimitiveBuilder<int64_t> k(DataType::int64());
  PrimitiveBuilder<double> v(DataType::float64());
  int64_t keys[] = {1, 2, 1, 3, 2, 1};
  for (int i = 0; i < 6; ++i) {
    k.push(keys[i]);
    if (i == 3) v.push_null();
    else v.push(i * 1.5);
  }
  return DataFrame({Column("k", k.finish()), Column("v", v.finish())});
}

}  // namespace

TEST(LazyFrame, FilterSelectCollect) {
  DataFrame out = LazyFrame::from_frame(frame())
                      .filter(col("k") == 1)
                      .select({col("v"), (col("v") * 2).alias("w")})
                      .collect();
  ASSERT_EQ(out.height(), 3);
  EXPECT_EQ(out.column("w").get(2), Scalar::float64(15.0));
}

TEST(LazyFrame, GroupBySumInFirstSeenOrder) {
  DataFrame out = LazyFrame::from_frame(frame())
                      .group_by({col("k")}, true)
                      .agg({col("v").sum().alias("s"), dsl::len()})
                      .collect();
  ASSERT_EQ(out.height(), 3);
  EXPECT_EQ(out.column("k").get(0), Scalar::int64(1));
  EXPECT_EQ(out.column("s").get(0), Scalar::float64(0 + 3.0 + 7.5));
  EXPECT_EQ(out.column("s").get(2), Scalar::float64(0.0));  // only a null: sum is 0
  EXPECT_EQ(out.column("len").get(0), Scalar::uint32(3));
}

TEST(LazyFrame, ManyMorselsKeepOrder) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  for (int i = 0; i < 100000; ++i) b.push(i);
  DataFrame df({Column("x", b.finish())});
  setenv("FRAZIL_MORSEL_SIZE", "777", 1);
  DataFrame out = LazyFrame::from_frame(df).filter(col("x") % 3 == 0).with_columns({(col("x") + 1).alias("y")}).collect();
  unsetenv("FRAZIL_MORSEL_SIZE");
  ASSERT_EQ(out.height(), 33334);
  for (int64_t i = 0; i < out.height(); i += 997) EXPECT_EQ(out.column("x").get(i), Scalar::int64(i * 3));
}

TEST(LazyFrame, RuntimeErrorNamesTheExpression) {
  try {
    LazyFrame::from_frame(frame()).select({col("k").cast(DataType::int8()) * 1000}).collect();
  } catch (const Error& e) {
    // Either a strict-cast failure or success is fine for the value range; what matters is
    // that a failure carries the expression.
    EXPECT_NE(std::string(e.what()).find("col(\"k\")"), std::string::npos) << e.what();
  }
  PrimitiveBuilder<int64_t> b(DataType::int64());
  b.push(1000);
  DataFrame big({Column("k", b.finish())});
  try {
    LazyFrame::from_frame(big).select({col("k").cast(DataType::int8())}).collect();
    FAIL() << "a strict cast of 1000 to Int8 must fail";
  } catch (const InvalidOperationError& e) {
    EXPECT_NE(std::string(e.what()).find("col(\"k\").strict_cast(Int8)"), std::string::npos) << e.what();
  }
}
