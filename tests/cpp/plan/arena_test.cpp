#include <gtest/gtest.h>

#include "frazil/core/builder.hpp"
#include "frazil/plan/arena.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"

using namespace frazil;
using namespace frazil::plan;

TEST(Arena, AddGetReplaceDuplicateTake) {
  Arena<int> a;
  Node x = a.add(1);
  Node y = a.add(2);
  EXPECT_EQ(x.idx, 0u);
  EXPECT_EQ(y.idx, 1u);
  EXPECT_EQ(a.get(y), 2);
  a.replace(x, 10);
  EXPECT_EQ(a.get(x), 10);
  Node d = a.duplicate(x);
  EXPECT_EQ(a.get(d), 10);
  EXPECT_NE(d, x);
  EXPECT_EQ(a.take(d), 10);
  EXPECT_EQ(a.get(d), 0);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_THROW(a.get(Node(99)), InternalError);
}

TEST(Arena, ClearBumpsVersion) {
  Arena<int> a;
  a.add(1);
  uint32_t v = a.version();
  a.clear();
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.version(), v + 1);
}

TEST(Arena, ConversionIsPostOrder) {
  // (col("a") + 1) * col("b"): children are pushed before their parent.
  Schema schema({{"a", DataType::int64()}, {"b", DataType::int64()}});
  ExprArena arena;
  ExprIR ir = to_expr_ir((dsl::col("a") + 1) * dsl::col("b"), arena, schema);
  ASSERT_EQ(arena.size(), 5u);
  EXPECT_EQ(ir.node(), arena.last_node());  // the root is last
  EXPECT_EQ(arena.get(Node(0)).kind, AExprKind::Column);
  EXPECT_EQ(arena.get(Node(1)).kind, AExprKind::Literal);
  EXPECT_EQ(arena.get(Node(2)).kind, AExprKind::BinaryExpr);
  EXPECT_EQ(arena.get(Node(3)).kind, AExprKind::Column);
  EXPECT_EQ(arena.get(Node(4)).kind, AExprKind::BinaryExpr);
  for (uint32_t i = 0; i < arena.size(); ++i)
    for (Node in : arena.get(Node(i)).inputs) EXPECT_LT(in.idx, i);
  EXPECT_EQ(ir.output_name(), "a");
}

TEST(Arena, CopyingAnExprIRSharesTheSubtree) {
  Schema schema({{"a", DataType::int64()}});
  ExprArena arena;
  ExprIR ir = to_expr_ir(dsl::col("a").sum().alias("s"), arena, schema);
  size_t before = arena.size();
  ExprIR copy = ir;
  EXPECT_EQ(copy.node(), ir.node());
  EXPECT_EQ(arena.size(), before);
  EXPECT_EQ(copy.output_name(), "s");
  EXPECT_EQ(copy.dtype(schema, arena), DataType::int64());
}

TEST(Arena, ShallowHashIgnoresChildren) {
  ExprArena arena;
  Node a = arena.add(AExpr::column("a"));
  Node b = arena.add(AExpr::column("b"));
  AExpr x = AExpr::binary(a, dsl::Operator::Plus, a);
  AExpr y = AExpr::binary(b, dsl::Operator::Plus, b);
  EXPECT_EQ(x.hash_shallow(), y.hash_shallow());
  EXPECT_TRUE(x.equal_shallow(y));
  AExpr z = AExpr::binary(a, dsl::Operator::Minus, a);
  EXPECT_FALSE(x.equal_shallow(z));
}

TEST(Arena, NodeToExprRoundTrip) {
  Schema schema({{"a", DataType::int64()}, {"s", DataType::string()}});
  ExprArena arena;
  ExprIR ir = to_expr_ir((dsl::col("a") * 2).sum(), arena, schema);
  EXPECT_EQ(node_to_expr(ir.node(), arena).to_string(), "(col(\"a\") * 2).sum()");
}
