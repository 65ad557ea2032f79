#include "frazil/dsl/expr_meta.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::dsl;

TEST(ExprMeta, StructuralEqualityAndHash) {
  Expr a = (col("a") + lit(int64_t{1})).sum();
  Expr b = (col("a") + lit(int64_t{1})).sum();
  EXPECT_TRUE(same_expr(a, b));
  EXPECT_EQ(expr_hash(a), expr_hash(b));
  EXPECT_FALSE(same_expr(a, (col("a") + lit(int64_t{2})).sum()));
  EXPECT_FALSE(same_expr(a, (col("a") + lit(int64_t{1})).mean()));
  EXPECT_FALSE(same_expr(col("a").round(1), col("a").round(2)));
  EXPECT_TRUE(same_expr(lit(std::nan("")), lit(std::nan(""))));
  EXPECT_EQ(expr_hash(lit(std::nan(""))), expr_hash(lit(std::nan(""))));
}

TEST(ExprMeta, WithInputsAndLabels) {
  Expr e = col("a") * col("b");
  Expr swapped = with_inputs(e, {col("b"), col("a")});
  EXPECT_EQ(swapped.to_string(), "(col(\"b\") * col(\"a\"))");
  EXPECT_THROW(with_inputs(e, {col("a")}), InvalidOperationError);
  EXPECT_EQ(node_label(e), "binary: *");
  EXPECT_EQ(node_label(col("x").sum()), "sum");
  EXPECT_FALSE(apply_rename(col("x"), "x").has_value());
}
