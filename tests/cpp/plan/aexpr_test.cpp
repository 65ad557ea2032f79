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
  AExpr f = AExpr::function_call(dsl::FunctionKind::Shift, {Node(0)});
  AExpr g = f;  // shares the out-of-line attributes
  g.function_mut().kind = dsl::FunctionKind::Reverse;
  EXPECT_EQ(f.function().kind, dsl::FunctionKind::Shift);
  EXPECT_EQ(g.function().kind, dsl::FunctionKind::Reverse);
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
