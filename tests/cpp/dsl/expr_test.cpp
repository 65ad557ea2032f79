// The DSL: expression text as Polars prints it, registry lookups by name with suggestions,
// and deep expressions built, printed and freed without recursion.
#include "frazil/dsl/expr.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "frazil/core/error.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;

TEST(DslExpr, TextFollowsPolars) {
  EXPECT_EQ((col("a") + lit(int64_t{1})).alias("b").to_string(), "(col(\"a\") + 1).alias(\"b\")");
  EXPECT_EQ(col("a").sum().to_string(), "col(\"a\").sum()");
}

TEST(DslExpr, UnknownFunctionSuggestsTheClosestName) {
  try {
    (void)col("a").function("cum_summ", {}, {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cum_sum"), std::string::npos) << e.what();
  }
}

TEST(DslExpr, DeepChainIsBuiltPrintedAndFreedWithoutRecursion) {
  dsl::Expr e = col("a");
  for (int i = 0; i < 200000; ++i) e = e + lit(int64_t{1});
  const std::string text = e.to_string();
  // Printed within the print budget: the nodes past it read as "…" (a 200,000-node text is
  // not useful), and the brackets still balance.
  EXPECT_NE(text.find("…"), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '('), std::count(text.begin(), text.end(), ')'));
  EXPECT_NE(text.find(" + …)"), std::string::npos);
  e = col("b");  // frees the 200,000-node chain one node at a time
  EXPECT_EQ(e.to_string(), "col(\"b\")");
}
