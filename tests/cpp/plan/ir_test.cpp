#include "frazil/plan/ir.hpp"

#include <gtest/gtest.h>

#include "frazil/plan/canonical/ir_hash.hpp"

using namespace frazil;
using namespace frazil::plan;

// Plan nodes hold their payload out of line: arenas are copied per prepared plan.
TEST(IR, NodeKeepsItsPayloadOutOfLine) { EXPECT_LE(sizeof(IR), 64u); }

TEST(IR, KindFollowsThePayload) {
  IR sort(SortNode{}, {Node(0)}, nullptr);
  EXPECT_EQ(sort.kind(), IRKind::Sort);
  EXPECT_TRUE(sort.is<SortNode>());
  EXPECT_EQ(sort.get_if<JoinNode>(), nullptr);
  EXPECT_THROW(sort.as<JoinNode>(), InternalError);
  EXPECT_EQ(IR().kind(), IRKind::Invalid);
  EXPECT_STREQ(ir_kind_name(IRKind::RowIndex), "RowIndex");
}

TEST(IR, ChangingACopyLeavesTheOriginal) {
  SortNode payload;
  payload.options.descending = {true};
  IR sort(payload, {Node(0)}, nullptr);
  IR copy = sort;  // shares the payload
  copy.as_mut<SortNode>().slice = std::make_pair(int64_t{0}, int64_t{5});
  copy.as_mut<SortNode>().options.descending = {false};
  EXPECT_FALSE(sort.as<SortNode>().slice.has_value());
  EXPECT_EQ(sort.as<SortNode>().options.descending, std::vector<bool>{true});
  EXPECT_EQ(copy.as<SortNode>().options.descending, std::vector<bool>{false});
  EXPECT_EQ(copy.as<SortNode>().slice->second, 5);
}

TEST(IR, AllExprsVisitsEveryExpressionField) {
  JoinNode j;
  j.left_on = {ExprIR(Node(1), {}), ExprIR(Node(2), {})};
  j.right_on = {ExprIR(Node(3), {})};
  IR join(j, {Node(0), Node(0)}, nullptr);
  std::vector<uint32_t> nodes;
  for (const ExprIR* e : join.all_exprs()) nodes.push_back(e->node().idx);
  EXPECT_EQ(nodes, (std::vector<uint32_t>{1, 2, 3}));
  IR scan(ScanNode{}, {}, nullptr);
  EXPECT_TRUE(scan.all_exprs().empty());
  scan.as_mut<ScanNode>().predicate = ExprIR(Node(7), {});
  ASSERT_EQ(scan.all_exprs().size(), 1u);
  EXPECT_EQ(predicate_of(scan)->node().idx, 7u);
}

namespace {
// Expressions compare by their node index (the canonical id stand-in).
struct ByNode final : ExprIRHasher {
  uint64_t hash(const ExprIR& e) override { return e.node().idx; }
  bool equal(const ExprIR& a, const ExprIR& b) override { return a.node() == b.node(); }
};
}  // namespace

// Hashing and equality follow the payload's fields: every field of every kind counts.
TEST(IR, EqualityComparesEveryPayloadField) {
  ByNode h;
  IR a(SliceNode{0, 10}, {Node(0)}, nullptr), b(SliceNode{0, 10}, {Node(1)}, nullptr), c(SliceNode{1, 10}, {Node(0)}, nullptr);
  EXPECT_TRUE(ir_equal_shallow(a, b, h));  // inputs are not compared
  EXPECT_EQ(hash_excluding_inputs(a, h), hash_excluding_inputs(b, h));
  EXPECT_FALSE(ir_equal_shallow(a, c, h));
  IR d(DistinctNode{{"x"}, "first", false}, {Node(0)}, nullptr);
  IR e(DistinctNode{{"x"}, "last", false}, {Node(0)}, nullptr);
  EXPECT_FALSE(ir_equal_shallow(d, e, h));
  IR r(RowIndexNode{"i", 0}, {Node(0)}, nullptr), s(RowIndexNode{"i", 1}, {Node(0)}, nullptr);
  EXPECT_FALSE(ir_equal_shallow(r, s, h));
  EXPECT_FALSE(ir_equal_shallow(a, r, h));  // different kinds
  JoinNode j1, j2;
  j1.left_on = j2.left_on = {ExprIR(Node(1), {})};
  j2.options.suffix = "_other";
  EXPECT_FALSE(ir_equal_shallow(IR(j1, {}, nullptr), IR(j2, {}, nullptr), h));
}
