// The expression arena is a DAG: a DSL subtree the user shares (`c = (c + c) / 2`) is
// converted once, so conversion, optimization, explain and evaluation are linear in the
// number of distinct nodes, not in the size of the unfolded tree.
#include <gtest/gtest.h>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/plan/conversion/conversion_optimizer.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/format.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;
using plan::ExprArena;
using plan::ExprIR;

namespace {

dsl::Expr nested(dsl::Expr c, int levels) {
  for (int i = 0; i < levels; ++i) c = (c + c) / 2;
  return c;
}

Schema float_schema() { return Schema({Field{"c", DataType::float64()}, Field{"g", DataType::int64()}}); }

DataFrame frame() {
  PrimitiveBuilder<double> c(DataType::float64());
  PrimitiveBuilder<int64_t> g(DataType::int64());
  for (int i = 0; i < 6; ++i) {
    c.push(i * 0.5);
    g.push(i % 2);
  }
  return DataFrame({Column("c", c.finish()), Column("g", g.finish())});
}

}  // namespace

TEST(DagConversion, NestedSharingIsLinearInLevels) {
  const Schema schema = float_schema();
  for (int levels : {5, 10, 20, 40}) {
    ExprArena arena;
    ExprIR ir = plan::to_expr_ir(nested(col("c"), levels), arena, schema);
    // Per level: the sum, the literal 2 and the division; plus the column.
    EXPECT_EQ(arena.size(), static_cast<size_t>(3 * levels + 1)) << levels;
    EXPECT_EQ(ir.output_name(), "c");
    EXPECT_EQ(plan::node_dtype(ir.node(), arena, schema), DataType::float64());
  }
}

TEST(DagConversion, SharedNodeHasSeveralParents) {
  const Schema schema = float_schema();
  ExprArena arena;
  dsl::Expr s = col("c") * 2;
  ExprIR ir = plan::to_expr_ir(s + s, arena, schema);
  const plan::AExpr& root = arena.get(ir.node());
  ASSERT_EQ(root.inputs.size(), 2u);
  EXPECT_EQ(root.inputs[0], root.inputs[1]);
  // Structurally equal but separately built subtrees are distinct nodes (CSE finds them).
  ExprArena arena2;
  ExprIR ir2 = plan::to_expr_ir(col("c") * 2 + col("c") * 2, arena2, schema);
  EXPECT_NE(arena2.get(ir2.node()).inputs[0], arena2.get(ir2.node()).inputs[1]);
}

TEST(DagConversion, ContextIsPartOfTheMemo) {
  // p is read as a filter predicate (through |) and as a value (under is_null): the two
  // uses are separate nodes, so a predicate-only rewrite cannot change the other.
  const Schema schema({Field{"a", DataType::int64()}, Field{"b", DataType::boolean()}});
  dsl::Expr p = col("b") & (col("a") > 1);
  dsl::Expr e = p.is_null() | p;
  ExprArena arena;
  ExprIR ir = plan::to_expr_ir(e, arena, schema, plan::ConversionContext{true, false});
  const plan::AExpr& root = arena.get(ir.node());
  const plan::AExpr& is_null = arena.get(root.inputs[0]);
  EXPECT_NE(is_null.inputs[0], root.inputs[1]);
  ExprArena arena2;
  ExprIR ir2 = plan::to_expr_ir(e, arena2, schema);  // not a predicate: one shared node
  EXPECT_EQ(arena2.get(arena2.get(ir2.node()).inputs[0]).inputs[0], arena2.get(ir2.node()).inputs[1]);
}

TEST(DagConversion, OptimizerVisitsSharedNodesOnce) {
  const Schema schema = float_schema();
  ExprArena arena;
  ExprIR ir = plan::to_expr_ir(nested(col("c"), 30), arena, schema);
  const size_t before = arena.size();
  plan::ConversionOptimizer opt(true, true);
  opt.optimize(arena, ir.node(), schema, false);
  // Coercion may add a few casts/literals, never a copy per path.
  EXPECT_LT(arena.size(), before * 2);
}

TEST(DagConversion, NodeToExprKeepsSharing) {
  const Schema schema = float_schema();
  ExprArena arena;
  ExprIR ir = plan::to_expr_ir(nested(col("c"), 3), arena, schema);
  dsl::Expr back = plan::node_to_expr(ir.node(), arena);
  const dsl::Expr& sum = back.inputs()[0];
  EXPECT_EQ(&sum.inputs()[0].node(), &sum.inputs()[1].node());
  EXPECT_EQ(back.to_string(), nested(col("c"), 3).to_string());
}

TEST(DagConversion, DeepNestingExplainsAndRunsQuickly) {
  auto lf = LazyFrame::from_frame(frame());
  dsl::Expr n = nested(col("c"), 40);  // 2^41 nodes unfolded
  auto q = lf.select({n.alias("out")});
  std::string text = q.explain(true, plan::OptFlags::none());
  EXPECT_LT(text.size(), 20000u);
  EXPECT_NE(text.find("_shared_"), std::string::npos) << text;
  std::string cse = q.explain();
  EXPECT_LT(cse.size(), 20000u);
  EXPECT_NE(cse.find("__FRAZIL_CSER"), std::string::npos) << cse;
  for (auto flags : {plan::OptFlags(), plan::OptFlags::none()}) {
    DataFrame out = q.collect(flags);
    ASSERT_EQ(out.height(), 6);
    for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(out.column(0).get(i).as_double(), i * 0.5);
  }
  // In a filter and a group_by().agg() too.
  DataFrame f = lf.filter(n > 1.2).collect();
  EXPECT_EQ(f.height(), 3);
  DataFrame g = lf.group_by({col("g")}).agg({n.sum().alias("s")}).sort({col("g")}).collect();
  ASSERT_EQ(g.height(), 2);
  EXPECT_DOUBLE_EQ(g.column(1).get(0).as_double(), 0.0 + 1.0 + 2.0);
}
