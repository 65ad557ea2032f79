#include "frazil/plan/aexpr.hpp"

#include <gtest/gtest.h>

using namespace frazil;
using namespace frazil::plan;

// The node is small: arenas are copied (one per prepared plan) and grown node by node.
TEST(AExpr, CommonNodeIsSmall) { EXPECT_LE(sizeof(AExpr), 96u); }

TEST(AExpr, NodesWithoutAttributesReadDefaults) {
  AExpr c = AExpr::column("a");
  EXPECT_EQ(c.dtype(), DataType());
  EXPECT_FALSE(c.literal().is_series());
  EXPECT_FALSE(c.sort().descending);
}

TEST(AExpr, ChangingACopyLeavesTheOriginal) {
  AExpr f = AExpr::function_call("shift", {Node(0)});
  AExpr g = f;  // shares the out-of-line attributes
  g.function_mut() = functions::FunctionCall("reverse");
  EXPECT_TRUE(f.is_function("shift"));
  EXPECT_TRUE(g.is_function("reverse"));
  EXPECT_FALSE(f.equal_shallow(g));
  AExpr h = f;
  EXPECT_TRUE(f.equal_shallow(h));
  EXPECT_EQ(f.hash_shallow(), h.hash_shallow());

  AExpr cast = AExpr::cast(Node(1), DataType::int64(), true);
  AExpr other = cast;
  other.dtype_mut() = DataType::float64();
  EXPECT_EQ(cast.dtype(), DataType::int64());
  EXPECT_FALSE(cast.equal_shallow(other));
}

TEST(AExpr, DtypeMemoDerivesEachNodeOnce) {
  // A deep unshared chain: ((a + a) cast f64) + ... ; asking for every node's dtype with
  // one memo fills one entry per inner node, and later questions read the memo.
  ExprArena arena;
  const Schema schema({Field{"a", DataType::int64()}});
  Node n = arena.add(AExpr::column("a"));
  std::vector<Node> inner;
  for (int i = 0; i < 100; ++i) {
    n = arena.add(AExpr::binary(n, dsl::Operator::Plus, arena.add(AExpr::column("a"))));
    inner.push_back(n);
  }
  n = arena.add(AExpr::cast(n, DataType::float64(), true));
  inner.push_back(n);
  DtypeMemo memo;
  for (Node x : inner) EXPECT_EQ(node_dtype(x, arena, schema, memo), x == n ? DataType::float64() : DataType::int64());
  EXPECT_EQ(memo.size(), inner.size());
  // The memo is what is read: a (deliberately wrong) entry below shows through above it.
  memo[inner[50].idx] = DataType::int8();
  memo.erase(inner[51].idx);
  EXPECT_EQ(node_dtype(inner[51], arena, schema, memo), DataType::int64());  // Int8 + Int64
  memo[inner[50].idx] = DataType::float32();
  memo.erase(inner[51].idx);
  EXPECT_EQ(node_dtype(inner[51], arena, schema, memo), DataType::float64());
  EXPECT_EQ(node_dtype(inner[51], arena, schema), DataType::int64());  // without: derived afresh
}
