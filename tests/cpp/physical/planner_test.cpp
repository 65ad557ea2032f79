// The physical planner and evaluation: an expression converted to IR, planned against the
// frame's schema and evaluated per chunk, with broadcasting scalars, nulls and errors.
#include "frazil/physical/planner.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "frazil/frazil.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;

namespace {

// x: 1, null, 3   y: 0.5, NaN, -0.0
DataFrame frame() {
  PrimitiveBuilder<int64_t> x(DataType::int64());
  PrimitiveBuilder<double> y(DataType::float64());
  x.push(1), x.push_null(), x.push(3);
  y.push(0.5), y.push(std::nan("")), y.push(-0.0);
  return DataFrame({Column("x", x.finish()), Column("y", y.finish())});
}

Column evaluate(const dsl::Expr& e, const DataFrame& df) {
  plan::ExprArena arena;
  plan::ExprIR ir = plan::to_expr_ir(e, arena, df.schema());
  physical::PhysicalExprRef p = physical::create_physical_expr(ir, arena, df.schema());
  physical::ExecState state;
  return p->evaluate(df, state);
}

}  // namespace

TEST(PhysicalPlanner, ArithmeticPropagatesNulls) {
  // (Literals take the column's dtype in type coercion, a plan step before planning.)
  Column out = evaluate(col("x") * col("x") + col("x"), frame());
  ASSERT_EQ(out.length(), 3);
  EXPECT_EQ(out.get(0).to_string(), "2");
  EXPECT_TRUE(out.get(1).is_null());
  EXPECT_EQ(out.get(2).to_string(), "12");
}

TEST(PhysicalPlanner, ComparisonsOfNaNAndNegativeZero) {
  Column nan = evaluate(col("y").is_nan(), frame());
  EXPECT_EQ(nan.get(0).to_string(), "false");
  EXPECT_EQ(nan.get(1).to_string(), "true");
  Column zero = evaluate(col("y") == lit(0.0), frame());
  EXPECT_EQ(zero.get(2).to_string(), "true");  // -0.0 == 0.0
}

TEST(PhysicalPlanner, AggregationIsAScalar) {
  Column s = evaluate(col("x").sum(), frame());
  ASSERT_EQ(s.length(), 1);
  EXPECT_EQ(s.get(0).to_string(), "4");
  Column e = evaluate(col("x").sum(), frame().slice(0, 0));
  ASSERT_EQ(e.length(), 1);
  EXPECT_EQ(e.get(0).to_string(), "0");
}

TEST(PhysicalPlanner, RegistryFunctionThroughTheKernel) {
  Column out = evaluate(col("x").function("abs", {}, {}), frame());
  EXPECT_EQ(out.dtype(), DataType::int64());
  EXPECT_EQ(out.get(2).to_string(), "3");
  EXPECT_TRUE(out.get(1).is_null());
}

TEST(PhysicalPlanner, UnknownColumnNamesTheColumn) {
  plan::ExprArena arena;
  try {
    (void)plan::to_expr_ir(col("nope"), arena, frame().schema());
    FAIL() << "expected ColumnNotFoundError";
  } catch (const ColumnNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos) << e.what();
  }
}
