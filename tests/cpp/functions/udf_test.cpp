// User-defined functions (functions/udf.hpp): a C++ callable registered and called through
// the map_batches / map_elements rows of a query, the planned dtype, errors, and the
// optimizer leaving the call alone (a filter above it is not pushed below it).
#include "frazil/functions/udf.hpp"

#include <gtest/gtest.h>

#include <atomic>

#include "frazil/frazil.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;

namespace {

DataFrame frame() {
  PrimitiveBuilder<int64_t> x(DataType::int64());
  for (int64_t v : {1, 2, 3, 4}) x.push(v);
  x.push_null();
  return DataFrame({Column("x", x.finish())});
}

}  // namespace

TEST(Udf, MapBatchesCallsTheCallableOnTheColumn) {
  std::atomic<int64_t> seen{-1};
  const int64_t id = functions::register_udf([&](std::span<const ArrayRef> in) {
    seen = in[0]->length();
    return in[0]->slice(0, 2);  // any length
  });
  DataFrame out = LazyFrame::from_frame(frame()).select({col("x").function("map_batches", {}, {{"function", id}})}).collect();
  EXPECT_EQ(seen.load(), 5);
  ASSERT_EQ(out.height(), 2);
  EXPECT_EQ(out.column(0).get(1).to_string(), "2");
}

TEST(Udf, ResultIsCastToThePlannedDtype) {
  const int64_t id = functions::register_udf([](std::span<const ArrayRef> in) { return in[0]; });
  DataFrame out = LazyFrame::from_frame(frame())
                      .select({col("x").function("map_elements", {}, {{"function", id}, {"return_dtype", DataType::float64()}})})
                      .collect();
  EXPECT_EQ(out.column(0).dtype(), DataType::float64());
  EXPECT_EQ(out.height(), 5);
}

TEST(Udf, UnknownIdAndCallableErrorsAreComputeErrors) {
  EXPECT_THROW(LazyFrame::from_frame(frame()).select({col("x").function("map_batches", {}, {{"function", int64_t{-5}}})}).collect(),
               ComputeError);
  const int64_t id = functions::register_udf([](std::span<const ArrayRef>) -> ArrayRef { throw ComputeError("boom"); });
  EXPECT_THROW(LazyFrame::from_frame(frame()).select({col("x").function("map_batches", {}, {{"function", id}})}).collect(),
               ComputeError);
}

TEST(Udf, FilterAboveIsNotPushedBelowTheCall) {
  // The callable sees every row although only some are kept after it.
  std::atomic<int64_t> seen{-1};
  const int64_t id = functions::register_udf([&](std::span<const ArrayRef> in) {
    seen = in[0]->length();
    return in[0];
  });
  DataFrame out = LazyFrame::from_frame(frame())
                      .with_columns({col("x").function("map_batches", {}, {{"function", id}}).alias("y")})
                      .filter(col("x") > lit(int64_t{2}))
                      .collect();
  EXPECT_EQ(seen.load(), 5);
  EXPECT_EQ(out.height(), 2);
}
