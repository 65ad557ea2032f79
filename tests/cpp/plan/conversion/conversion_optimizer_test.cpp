// ConversionOptimizer without type coercion (OptFlags::type_coercion off): no cast is
// inserted, and an expression or join that needs one is an error naming it.
#include "frazil/plan/conversion/conversion_optimizer.hpp"

#include <gtest/gtest.h>

#include "../../compute/elementwise_test_util.hpp"
#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using dsl::col;

namespace {

LazyFrame frame() {
  return LazyFrame::from_frame(DataFrame({Column("i", test::i32({1, std::nullopt, 3})),
                                          Column("f", test::f64({0.5, std::nan(""), -0.0}))}));
}

OptFlags no_coercion() {
  OptFlags f;
  f.type_coercion = false;
  return f;
}

std::string error_of(const LazyFrame& lf) {
  try {
    lf.collect(no_coercion());
  } catch (const InvalidOperationError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ConversionOptimizer, WithoutCoercionAMixedExpressionIsAnErrorNamingIt) {
  const std::string msg = error_of(frame().select({(col("i") + col("f")).alias("s")}));
  EXPECT_NE(msg.find("type coercion is off"), std::string::npos) << msg;
  EXPECT_NE(msg.find("col(\"i\")"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Float64"), std::string::npos) << msg;
  // With coercion the same plan runs.
  EXPECT_EQ(frame().select({(col("i") + col("f")).alias("s")}).collect().height(), 3);
}

TEST(ConversionOptimizer, WithoutCoercionWellTypedPlansRunUnchanged) {
  const LazyFrame lf = frame().select({(col("f") * col("f")).alias("g"), col("i")});
  EXPECT_TRUE(lf.collect(no_coercion()).equals(lf.collect()));
  EXPECT_EQ(lf.explain(true, no_coercion()), lf.explain());
}

TEST(ConversionOptimizer, WithoutCoercionJoinKeysOfTwoDtypesAreAnError) {
  const LazyFrame other = LazyFrame::from_frame(DataFrame({Column("i", test::i64({1, 3}))}));
  const std::string msg = error_of(frame().join(other, {col("i")}));
  EXPECT_NE(msg.find("join keys"), std::string::npos) << msg;
  EXPECT_EQ(frame().join(other, {col("i")}).collect().height(), 2);
}
