#include "frazil/plan/canonical/canonical_expr_map.hpp"

#include <gtest/gtest.h>

#include "frazil/frazil.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"

using namespace frazil;
using plan::CanonicalExprId;
using plan::CanonicalExprMap;
using plan::Node;

namespace {

Schema schema() {
  return Schema({Field{"a", DataType::int64()}, Field{"b", DataType::int64()}, Field{"x", DataType::float64()}});
}

struct Exprs {
  plan::ExprArena arena;
  Schema s = schema();
  Node add(const dsl::Expr& e) { return plan::to_expr_ir(e, arena, s).node(); }
};

uint64_t colliding(const plan::AExpr&) { return 42; }
bool shift_is_random(const plan::AExpr& e) {
  return e.is_function("shift");
}

}  // namespace

TEST(CanonicalExprMap, SameStructureSameIdOtherwiseNot) {
  Exprs x;
  Node n1 = x.add((col("a") + col("b")) * 2);
  Node n2 = x.add((col("a") + col("b")) * 2);
  Node n3 = x.add((col("b") + col("a")) * 2);  // no reordering of operands
  Node n4 = x.add((col("a") + col("b")) * 3);
  ASSERT_NE(n1, n2);
  CanonicalExprMap map;
  EXPECT_EQ(map.resolve(n1, x.arena), map.resolve(n2, x.arena));
  EXPECT_NE(map.resolve(n1, x.arena), map.resolve(n3, x.arena));
  EXPECT_NE(map.resolve(n1, x.arena), map.resolve(n4, x.arena));
  // The shared subtree col("a") + col("b") got one id in n1 and n4.
  EXPECT_EQ(map.lookup(x.arena.get(n1).inputs[0]), map.lookup(x.arena.get(n4).inputs[0]));
}

TEST(CanonicalExprMap, DenseIdsComputedBottomUpAndMemoized) {
  Exprs x;
  Node n = x.add((col("a") + 1) * (col("a") + 1));
  CanonicalExprMap map;
  CanonicalExprId root = map.resolve(n, x.arena);
  // col("a"), 1, col("a") + 1, the product: four classes, ids 0..3, parents after children.
  EXPECT_EQ(map.num_classes(), 4u);
  EXPECT_EQ(root.value, 3u);
  for (uint32_t child : map.children(root)) EXPECT_LT(child, root.value);
  const plan::AExpr& mul = x.arena.get(n);
  EXPECT_EQ(map.lookup(mul.inputs[0]), map.lookup(mul.inputs[1]));
  EXPECT_EQ(map.representative(map.lookup(mul.inputs[1])), mul.inputs[0]);
  // Resolving again creates nothing and compares nothing.
  const uint64_t comparisons = map.comparisons();
  EXPECT_EQ(map.resolve(n, x.arena), root);
  EXPECT_EQ(map.num_classes(), 4u);
  EXPECT_EQ(map.comparisons(), comparisons);
}

TEST(CanonicalExprMap, CollidingHashCostsComparisonsNeverMerges) {
  Exprs x;
  std::vector<dsl::Expr> exprs = {col("a") + 1,       col("a") + 1,        col("a") * 1,  col("b") + 1,
                                  col("a").quantile(0.25), col("a").quantile(0.75), col("a").quantile(0.25),
                                  lit(1.5) + col("x"), lit(2.5) + col("x"), col("a").shift(1), col("a").shift(2)};
  std::vector<Node> nodes;
  for (const auto& e : exprs) nodes.push_back(x.add(e));
  CanonicalExprMap normal;
  CanonicalExprMap colliding_map(CanonicalExprMap::Hooks{colliding, nullptr});
  for (size_t i = 0; i < nodes.size(); ++i)
    for (size_t j = 0; j < nodes.size(); ++j) {
      bool same = normal.resolve(nodes[i], x.arena) == normal.resolve(nodes[j], x.arena);
      bool same_colliding = colliding_map.resolve(nodes[i], x.arena) == colliding_map.resolve(nodes[j], x.arena);
      EXPECT_EQ(same, same_colliding) << exprs[i].to_string() << " vs " << exprs[j].to_string();
    }
  EXPECT_EQ(normal.num_classes(), colliding_map.num_classes());
  EXPECT_GT(colliding_map.comparisons(), normal.comparisons());
  EXPECT_EQ(normal.resolve(nodes[0], x.arena), normal.resolve(nodes[1], x.arena));
  EXPECT_EQ(normal.resolve(nodes[4], x.arena), normal.resolve(nodes[6], x.arena));
  EXPECT_NE(normal.resolve(nodes[4], x.arena), normal.resolve(nodes[5], x.arena));  // quantile 0.25 vs 0.75
  EXPECT_NE(normal.resolve(nodes[9], x.arena), normal.resolve(nodes[10], x.arena));  // shift 1 vs 2
}

TEST(CanonicalExprMap, NegativeZeroIsNotZero) {
  Exprs x;
  Node pos = x.add(lit(1.0) / lit(0.0));
  Node neg = x.add(lit(1.0) / lit(-0.0));
  CanonicalExprMap map;
  EXPECT_NE(map.resolve(pos, x.arena), map.resolve(neg, x.arena));
}

TEST(CanonicalExprMap, NonDeterminismFlowsToAncestorsOnly) {
  Exprs x;
  Node shifted = x.add(col("a").shift(1) + 1);
  Node plain = x.add(col("a") + 1);
  CanonicalExprMap normal;
  EXPECT_FALSE(normal.is_nondeterministic(normal.resolve(shifted, x.arena)));
  CanonicalExprMap map(CanonicalExprMap::Hooks{nullptr, shift_is_random});
  CanonicalExprId s = map.resolve(shifted, x.arena);
  EXPECT_TRUE(map.is_nondeterministic(s));
  EXPECT_TRUE(map.is_nondeterministic(map.lookup(x.arena.get(shifted).inputs[0])));  // the shift
  EXPECT_FALSE(map.is_nondeterministic(map.lookup(x.arena.get(x.arena.get(shifted).inputs[0]).inputs[0])));
  EXPECT_FALSE(map.is_nondeterministic(map.resolve(plain, x.arena)));
}

TEST(CanonicalExprMap, ManyDistinctNodesGrowTheTable) {
  Exprs x;
  CanonicalExprMap map;
  std::vector<CanonicalExprId> ids;
  for (int i = 0; i < 3000; ++i) ids.push_back(map.resolve(x.add(col("a") + i), x.arena));
  for (int i = 0; i < 3000; ++i) EXPECT_EQ(map.resolve(x.add(col("a") + i), x.arena), ids[i]);
  // col("a"), 3000 literals, 3000 sums.
  EXPECT_EQ(map.num_classes(), 6001u);
}
