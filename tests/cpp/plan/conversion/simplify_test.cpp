// Pairs of (expression, simplified expression), in and out of a filter predicate.
#include <gtest/gtest.h>

#include <cmath>

#include "frazil/plan/conversion/conversion_optimizer.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"

using namespace frazil;
using namespace frazil::plan;
using dsl::col;
using dsl::Expr;
using dsl::lit;

namespace {

const Schema& schema() {
  static Schema s({{"a", DataType::int64()}, {"b", DataType::boolean()}, {"c", DataType::boolean()},
                   {"f", DataType::float64()}});
  return s;
}

std::string simplified(const Expr& e, bool in_filter) {
  ExprArena arena;
  ExprIR ir = to_expr_ir(e, arena, schema());
  ConversionOptimizer opt(true, true);
  opt.optimize(arena, ir.node(), schema(), in_filter);
  return node_to_expr(ir.node(), arena).to_string();
}

void expect_rewrite(const Expr& in, bool in_filter, const std::string& out) {
  EXPECT_EQ(simplified(in, in_filter), out) << in.to_string() << (in_filter ? " (filter)" : " (select)");
}

}  // namespace

TEST(SimplifyAnd, TrueOnTheRightEverywhere) {
  expect_rewrite(col("b") & lit(true), false, "col(\"b\")");
  expect_rewrite(col("b") & lit(true), true, "col(\"b\")");
}

TEST(SimplifyAnd, TrueOnTheLeftOnlyInAFilter) {
  expect_rewrite(lit(true) & col("b"), true, "col(\"b\")");
  expect_rewrite(lit(true) & col("b"), false, "(true & col(\"b\"))");
}

TEST(SimplifyAnd, FalseOnlyWhereTheLengthDoesNotMatter) {
  expect_rewrite(col("b") & lit(false), true, "false");
  expect_rewrite(col("b") & lit(false), false, "(col(\"b\") & false)");
  // A scalar left side keeps its length either way.
  expect_rewrite(col("b").any() & lit(false), false, "false");
}

TEST(SimplifyAnd, SelfNegationOnlyInAFilter) {
  // Under nulls `b & ~b` is null, not false: only a filter may treat them alike.
  expect_rewrite(col("b") & col("b").not_(), true, "false");
  expect_rewrite(col("b").not_() & col("b"), true, "false");
  expect_rewrite(col("b") & col("b").not_(), false, "(col(\"b\") & col(\"b\").not())");
  expect_rewrite((col("a") > 1) & (col("a") > 1).not_(), true, "false");
}

TEST(SimplifyAnd, ContradictingComparisons) {
  expect_rewrite((col("a") > 5) & (col("a") <= 5), true, "false");
  expect_rewrite((col("a") < 5) & (col("a") > 5), true, "false");
  expect_rewrite((col("a") == 5) & (col("a") != 5), true, "false");
  // Operands swapped in the second comparison: a > 5 and 5 >= a.
  expect_rewrite((col("a") > 5) & (lit(5) >= col("a")), true, "false");
  // Compatible comparisons are kept.
  expect_rewrite((col("a") >= 5) & (col("a") <= 5), true, "((col(\"a\") >= 5) & (col(\"a\") <= 5))");
  // Outside a filter, null a gives null: no rewrite.
  expect_rewrite((col("a") > 5) & (col("a") <= 5), false, "((col(\"a\") > 5) & (col(\"a\") <= 5))");
}

TEST(SimplifyOr, Duals) {
  expect_rewrite(col("b") | lit(false), false, "col(\"b\")");
  expect_rewrite(lit(false) | col("b"), true, "col(\"b\")");
  expect_rewrite(lit(false) | col("b"), false, "(false | col(\"b\"))");
  expect_rewrite(col("b") | lit(true), true, "true");
  expect_rewrite(col("b") | lit(true), false, "(col(\"b\") | true)");
}

TEST(SimplifyOr, NoRuleForSelfNegation) {
  // `b | ~b` is null when b is null, and a filter drops that row: never rewrite to true.
  expect_rewrite(col("b") | col("b").not_(), true, "(col(\"b\") | col(\"b\").not())");
  expect_rewrite((col("a") > 5) | (col("a") <= 5), true, "((col(\"a\") > 5) | (col(\"a\") <= 5))");
}

TEST(SimplifyAnd, NotOnIntegersWhichAreBitwise) {
  expect_rewrite(col("a") & col("a"), false, "(col(\"a\") & col(\"a\"))");
}

TEST(SimplifyNot, DoubleNegationDeMorganAndComparisons) {
  expect_rewrite(col("b").not_().not_(), false, "col(\"b\")");
  expect_rewrite((col("b") & col("c")).not_(), false, "(col(\"b\").not() | col(\"c\").not())");
  expect_rewrite((col("b") | col("c")).not_(), false, "(col(\"b\").not() & col(\"c\").not())");
  expect_rewrite((col("a") == 1).not_(), false, "(col(\"a\") != 1)");
  expect_rewrite((col("a") < 1).not_(), false, "(col(\"a\") >= 1)");
  expect_rewrite((col("f") > 1.5).not_(), false, "(col(\"f\") <= 1.5)");
}

TEST(ConstantFolding, SameTypeOnly) {
  expect_rewrite(lit(1) + lit(2), false, "dyn int: 3");
  expect_rewrite(lit(Scalar::int64(7)) * lit(Scalar::int64(6)), false, "42");
  // Integer division by zero folds to null, as the kernel computes it.
  expect_rewrite(dsl::floor_div(lit(Scalar::int64(1)), lit(Scalar::int64(0))), false, "null");
  // Float comparisons use the total order: NaN is greater than everything.
  expect_rewrite(lit(Scalar::float64(1.5)) < lit(Scalar::float64(NAN)), false, "true");
  expect_rewrite(lit(Scalar::float64(NAN)) == lit(Scalar::float64(NAN)), false, "true");
  expect_rewrite(lit(Scalar::float64(-0.0)) == lit(Scalar::float64(0.0)), false, "true");
}

TEST(ConstantFolding, DynamicIntsAreExact) {
  // Python ints do not wrap: not in Int32 (their materialized dtype), nor in Int64.
  expect_rewrite(lit(100000) * lit(100000), false, "dyn int: 10000000000");
  expect_rewrite(lit(3) * lit(int64_t{1} << 40), false, "dyn int: 3298534883328");
  expect_rewrite(lit(int64_t{1} << 62) + lit(int64_t{1} << 62), false, "9223372036854775808");
  // Past UInt64: Float64 (Polars' Int128 is missing here).
  expect_rewrite(lit(INT64_MIN) - lit(1), false, "-9.2234e18");
  expect_rewrite(lit(int64_t{1} << 31) * lit(int64_t{1} << 40), false, "2.3612e21");
}

TEST(ConstantFolding, NoArithmeticIdentities) {
  // x + 0 is not x for -0.0; 0 * x is not 0 for NaN or inf; x * 1 could change the dtype.
  expect_rewrite(col("f") + lit(Scalar::float64(0.0)), false, "(col(\"f\") + 0.0)");
  expect_rewrite(lit(Scalar::float64(0.0)) * col("f"), false, "(0.0 * col(\"f\"))");
  expect_rewrite(col("a") * lit(Scalar::int64(1)), false, "(col(\"a\") * 1)");
}

TEST(TernaryFolding, OnlyWhenLengthsAgree) {
  expect_rewrite(dsl::when(lit(true)).then(col("a")).otherwise(col("a") + lit(Scalar::int64(1))), false, "col(\"a\")");
  expect_rewrite(dsl::when(lit(false)).then(col("a")).otherwise(col("a") + lit(Scalar::int64(1))), false,
                 "(col(\"a\") + 1)");
  expect_rewrite(dsl::when(lit(true)).then(col("a").sum()).otherwise(lit(Scalar::int64(0))), false, "col(\"a\").sum()");
  // A column and a scalar differ in length: no fold.
  EXPECT_NE(simplified(dsl::when(lit(true)).then(col("a")).otherwise(lit(Scalar::int64(0))), false), "col(\"a\")");
}

TEST(FunctionRules, IsNullAnyIsNullCount) {
  // is_null().any() -> null_count() > 0, which the count rule turns into has_nulls().
  expect_rewrite(col("a").is_null().any(), false, "col(\"a\").has_nulls()");
  expect_rewrite(col("a").is_not_null().any(), false, "(col(\"a\").count() > 0)");
  expect_rewrite(col("a").drop_nulls().len(), false, "col(\"a\").count()");
}

TEST(CountComparisons, NullCountAndLenAgainstSmallIntegers) {
  const Expr nc = col("a").null_count();
  expect_rewrite(nc > lit(0), false, "col(\"a\").has_nulls()");
  expect_rewrite(nc >= lit(1), false, "col(\"a\").has_nulls()");
  expect_rewrite(nc == lit(0), false, "col(\"a\").has_nulls().not()");
  expect_rewrite(lit(1) > nc, false, "col(\"a\").has_nulls().not()");
  expect_rewrite(nc >= lit(0), false, "true");
  expect_rewrite(nc == lit(-1), false, "false");
  expect_rewrite(nc > lit(1), false, "(col(\"a\").null_count() > 1)");  // not a zero test
  const Expr n = col("a").len();
  expect_rewrite(n == lit(0), false, "col(\"a\").is_empty()");
  expect_rewrite(lit(0) < n, false, "col(\"a\").is_empty().not()");
  expect_rewrite(n != lit(-1), false, "true");
}

TEST(FunctionRules, SortReverseFlipsFlags) {
  expect_rewrite(col("a").sort().reverse(), false, "col(\"a\").sort(desc)");
  // A stable sort reversed is not a sort with flipped flags.
  expect_rewrite(col("a").sort(false, false, true).reverse(), false, "col(\"a\").sort(asc).reverse()");
}
