// The small plan rules beside the pushdown passes: cross join + equality -> inner join,
// predicate clean-up, the null-rejecting analysis and the expression helpers.
#include "frazil/optimizer/cross_join_to_inner.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/optimizer/pushdown/null_rejecting.hpp"
#include "frazil/optimizer/pushdown/predicate_pushdown.hpp"
#include "frazil/optimizer/simplify_predicates.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

LazyFrame df() { return LazyFrame::from_frame(frame()); }

// Whether `predicate` over frame() rejects rows where every column in `null_columns` is null.
bool rejects(const dsl::Expr& predicate, std::vector<std::string> null_columns) {
  plan::ExprArena ea;
  Schema schema = frame().schema();
  plan::ExprIR e = plan::to_expr_ir(predicate, ea, schema);
  return optimizer::rejects_nulls(e.node(), ea, [&](const std::string& c) {
    return std::find(null_columns.begin(), null_columns.end(), c) != null_columns.end();
  });
}

}  // namespace

TEST(CrossJoinToInner, EqualityBecomesKeys) {
  auto lf = df().cross_join(df()).filter((col("a") == col("a_right")) & (col("b") < col("b_right")));
  Plan plan(lf);
  plan.apply(optimizer::cross_join_to_inner);
  std::string p = plan.explain();
  EXPECT_TRUE(contains(p, "FILTER col(\"b\") < col(\"b_right\")\nFROM\n  INNER JOIN")) << p;
  EXPECT_TRUE(contains(p, "RIGHT PLAN ON: [col(\"a\")]")) << p;
  // Keys in the other order, floats (NaN and -0.0 match as == says).
  Plan floats(df().cross_join(df()).filter(col("b_right") == col("b")));
  floats.apply(optimizer::cross_join_to_inner);
  EXPECT_TRUE(contains(floats.explain(), "INNER JOIN")) << floats.explain();
  EXPECT_FALSE(contains(floats.explain(), "FILTER")) << floats.explain();
  // eq_missing matches null keys, which a join does not.
  Plan missing(df().cross_join(df()).filter(col("a").eq_missing(col("a_right"))));
  missing.apply(optimizer::cross_join_to_inner);
  EXPECT_TRUE(contains(missing.explain(), "CROSS JOIN")) << missing.explain();
}

TEST(SimplifyPredicates, DropsTrueAndRepeatedConjuncts) {
  Plan plan(df().filter(lit(true)).filter(col("a") > 1).filter(col("a") > 1));
  plan.apply(optimizer::predicate_pushdown).apply(optimizer::simplify_predicates);
  EXPECT_TRUE(contains(plan.explain(), "SELECTION: col(\"a\") > 1\n") || plan.explain().ends_with("col(\"a\") > 1"))
      << plan.explain();
  Plan only_true(df().filter(lit(true)));
  only_true.apply(optimizer::simplify_predicates);
  EXPECT_FALSE(contains(only_true.explain(), "FILTER")) << only_true.explain();
  Plan falsy(df().filter(lit(false) & (col("a") > 1)));
  falsy.apply(optimizer::simplify_predicates);
  EXPECT_TRUE(contains(falsy.explain(), "FILTER false")) << falsy.explain();
}

TEST(NullRejecting, Pairs) {
  EXPECT_TRUE(rejects(col("b") > 1, {"b"}));
  EXPECT_TRUE(rejects(col("b").is_not_null(), {"b"}));
  EXPECT_TRUE(rejects(!(col("b") > 1), {"b"}));
  EXPECT_TRUE(rejects((col("b") > 1) & (col("a") > 1), {"b"}));
  EXPECT_TRUE(rejects((col("b") > 1) | (col("b") < -1), {"b"}));
  EXPECT_TRUE(rejects(col("b") + col("a") > 1, {"b"}));
  EXPECT_TRUE(rejects(col("a").is_between(col("b"), 10), {"b"}));
  EXPECT_FALSE(rejects((col("b") > 1) | (col("a") > 1), {"b"}));
  EXPECT_FALSE(rejects(col("b").is_null(), {"b"}));
  EXPECT_FALSE(rejects(col("b").fill_null(1) > 0, {"b"}));
  EXPECT_FALSE(rejects(dsl::coalesce({col("b"), col("a")}) > 0, {"b"}));
  EXPECT_FALSE(rejects(dsl::when(col("b").is_null()).then(lit(true)).otherwise(col("b") > 0), {"b"}));
  EXPECT_FALSE(rejects(col("b").eq_missing(col("a")), {"b"}));
  EXPECT_FALSE(rejects(col("a") > 1, {"b"}));
}

TEST(ExprUtil, SplitRenameEqual) {
  plan::ExprArena ea;
  Schema schema = frame().schema();
  plan::ExprIR e = plan::to_expr_ir((col("a") > 1) & ((col("g") == lit("x")) & col("b").is_nan()), ea, schema);
  std::vector<plan::Node> conj;
  plan::split_conjuncts(e.node(), ea, schema, conj);
  ASSERT_EQ(conj.size(), 3u);
  plan::Node renamed = plan::rename_columns(conj[0], ea, {{"a", "z"}});
  EXPECT_NE(renamed, conj[0]);
  EXPECT_EQ(plan::node_to_expr(renamed, ea).to_string(), "(col(\"z\") > 1)");
  EXPECT_EQ(plan::rename_columns(conj[1], ea, {{"a", "z"}}), conj[1]);  // untouched: shared
  EXPECT_TRUE(plan::expr_equal(conj[2], plan::deep_copy(conj[2], ea), ea));
  EXPECT_FALSE(plan::expr_equal(conj[0], renamed, ea));
  // Integer & is bitwise, not a conjunction.
  plan::ExprIR bits = plan::to_expr_ir((col("a") & col("a")) > 0, ea, schema);
  conj.clear();
  plan::split_conjuncts(bits.node(), ea, schema, conj);
  EXPECT_EQ(conj.size(), 1u);
  EXPECT_TRUE(plan::is_row_local(conj[0], ea));
  EXPECT_FALSE(plan::is_row_local(plan::to_expr_ir(col("a") == col("a").min(), ea, schema).node(), ea));
}
