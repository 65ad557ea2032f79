// The C++ list() namespace and list().eval: each method reaches its registry function, and
// eval plans its expression over the elements.
#include <gtest/gtest.h>

#include "frazil/frazil.hpp"

using namespace frazil;
using dsl::element;

namespace {

// a: [[1, 2, null], [3], null, []]
DataFrame lists() {
  PrimitiveBuilder<int64_t> v(DataType::int64());
  v.push(1), v.push(2), v.push_null(), v.push(3);
  Buffer off = Buffer::allocate(5 * sizeof(int64_t));
  int64_t* o = off.mutable_as<int64_t>();
  o[0] = 0, o[1] = 3, o[2] = 4, o[3] = 4, o[4] = 4;
  Buffer valid = Buffer::zeroed(1);
  valid.mutable_data()[0] = 0b1011;
  return DataFrame({Column("a", Array::make(DataType::list(DataType::int64()), 4, valid, {off}, {v.finish()}))});
}

}  // namespace

TEST(ListNameSpace, ElementsReductionsAndSearch) {
  DataFrame out = LazyFrame::from_frame(lists())
                      .select({col("a").list().len().alias("len"), col("a").list().first().alias("first"),
                               col("a").list().sum().alias("sum"), col("a").list().max().alias("max"),
                               col("a").list().contains(lit(int64_t{3})).alias("has3"),
                               col("a").list().reverse().list().first().alias("rev0")})
                      .collect();
  ASSERT_EQ(out.height(), 4);
  EXPECT_EQ(out.column("len").get(0), Scalar::uint32(3));
  EXPECT_EQ(out.column("len").get(3), Scalar::uint32(0));
  EXPECT_TRUE(out.column("len").get(2).is_null());
  EXPECT_EQ(out.column("first").get(1), Scalar::int64(3));
  EXPECT_TRUE(out.column("first").get(3).is_null());
  EXPECT_EQ(out.column("sum").get(0), Scalar::int64(3));
  EXPECT_EQ(out.column("sum").get(3), Scalar::int64(0));
  EXPECT_EQ(out.column("max").get(0), Scalar::int64(2));
  EXPECT_EQ(out.column("has3").get(1), Scalar::boolean(true));
  EXPECT_EQ(out.column("has3").get(0), Scalar::boolean(false));
  EXPECT_TRUE(out.column("rev0").get(0).is_null());  // the null element, now first
}

TEST(ListNameSpace, EvalOverTheElements) {
  DataFrame out = LazyFrame::from_frame(lists())
                      .select({col("a").list().eval(element() * 2).alias("x2"),
                               col("a").list().eval(element().sum()).alias("sum"),
                               col("a").list().agg(element().max()).alias("max")})
                      .collect();
  EXPECT_EQ(out.column("x2").dtype(), DataType::list(DataType::int64()));
  EXPECT_EQ(out.column("x2").get(0).to_string(), "[2, 4, null]");
  EXPECT_TRUE(out.column("x2").get(2).is_null());
  EXPECT_EQ(out.column("sum").get(1).to_string(), "[3]");
  EXPECT_EQ(out.column("sum").get(3).to_string(), "[0]");
  EXPECT_EQ(out.column("max").dtype(), DataType::int64());
  EXPECT_EQ(out.column("max").get(0), Scalar::int64(2));
  EXPECT_TRUE(out.column("max").get(3).is_null());
}
