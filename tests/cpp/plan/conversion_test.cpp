#include <gtest/gtest.h>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;

namespace {

DataFrame sample() {
  PrimitiveBuilder<int8_t> a(DataType::int8());
  PrimitiveBuilder<int64_t> b(DataType::int64());
  PrimitiveBuilder<float> f(DataType::float32());
  ViewBuilder s;
  for (int i = 0; i < 3; ++i) {
    a.push(static_cast<int8_t>(i));
    b.push(i * 10);
    f.push(i * 0.5f);
    s.push(i == 1 ? "x" : "y");
  }
  return DataFrame({Column("a", a.finish()), Column("b", b.finish()), Column("f", f.finish()), Column("s", s.finish())});
}

Schema schema_of(const LazyFrame& lf) { return lf.collect_schema(); }

}  // namespace

TEST(Conversion, OutputNamesFollowPolars) {
  auto lf = LazyFrame::from_frame(sample());
  Schema s = schema_of(lf.select({col("a") + col("b"), lit(1), dsl::len(), col("b").sum().alias("total"),
                                  dsl::when(col("a") > 1).then(col("b")).otherwise(0)}));
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s.field(0).name, "a");
  EXPECT_EQ(s.field(1).name, "literal");
  EXPECT_EQ(s.field(2).name, "len");
  EXPECT_EQ(s.field(3).name, "total");
  EXPECT_EQ(s.field(4).name, "b");  // a ternary is named after its `then` branch
}

TEST(Conversion, DtypesFollowPolars) {
  auto lf = LazyFrame::from_frame(sample());
  Schema s = schema_of(lf.select({
      (col("a") + 1).alias("small"),      // a literal that fits keeps Int8
      (col("a") + 300).alias("wide"),     // 300 needs Int16
      (col("f") * 2.5).alias("f32"),      // a float literal adapts to Float32
      (col("b") / 2).alias("div"),        // true division is Float64
      lit(1).alias("lit"),                // a Python int literal is Int32
      col("b").mean().alias("mean"),      // mean is Float64
      dsl::len().alias("n"),              // len is UInt32
      col("a").sum().alias("sum8"),       // small ints sum to Int64
  }));
  EXPECT_EQ(s.dtype_of("small"), DataType::int8());
  EXPECT_EQ(s.dtype_of("wide"), DataType::int16());
  EXPECT_EQ(s.dtype_of("f32"), DataType::float32());
  EXPECT_EQ(s.dtype_of("div"), DataType::float64());
  EXPECT_EQ(s.dtype_of("lit"), DataType::int32());
  EXPECT_EQ(s.dtype_of("mean"), DataType::float64());
  EXPECT_EQ(s.dtype_of("n"), DataType::uint32());
  EXPECT_EQ(s.dtype_of("sum8"), DataType::int64());
}

TEST(Conversion, WildcardExpands) {
  auto lf = LazyFrame::from_frame(sample());
  Schema s = schema_of(lf.select({dsl::all().exclude({"s", "f"})}));
  EXPECT_EQ(s.names(), (std::vector<std::string>{"a", "b"}));
}

TEST(Conversion, ErrorsNameTheProblem) {
  auto lf = LazyFrame::from_frame(sample());
  try {
    schema_of(lf.select({col("nope") + 1}));
    FAIL();
  } catch (const ColumnNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos);
  }
  EXPECT_THROW(schema_of(lf.select({col("a"), col("a")})), DuplicateError);
  EXPECT_THROW(schema_of(lf.filter(col("b"))), InvalidOperationError);
  EXPECT_THROW(schema_of(lf.select({col("s") > 1})), ComputeError);  // Polars: ComputeError
  EXPECT_THROW(schema_of(lf.select({col("s").sum()})), InvalidOperationError);
}

TEST(Conversion, CollectSchemaThenCollectConvertsOnce) {
  auto lf = LazyFrame::from_frame(sample()).filter(col("a") > 0);
  EXPECT_EQ(lf.conversions(), 0);
  lf.collect_schema();
  EXPECT_EQ(lf.conversions(), 1);
  lf.collect();
  EXPECT_EQ(lf.conversions(), 1);
  lf.explain();
  EXPECT_EQ(lf.conversions(), 1);
  // Without simplification the plan is different, so it is converted again.
  lf.collect(plan::OptFlags::none());
  EXPECT_EQ(lf.conversions(), 2);
}
