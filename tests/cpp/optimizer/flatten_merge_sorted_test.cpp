// FlattenMergeSorted and the merge_sorted -> union rewrite: plan text before -> after and
// equal results (Plan::apply runs the plan before and after the pass).
#include "frazil/optimizer/flatten_merge_sorted.hpp"

#include "frazil/optimizer/merge_sorted_to_union.hpp"
#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;

namespace {

// One sorted frame per call, keys i, i + 10, ... (nulls last in none of them).
LazyFrame part(int64_t i) {
  PrimitiveBuilder<int64_t> k(DataType::int64()), v(DataType::int64());
  for (int64_t j = 0; j < 5; ++j) {
    k.push(i + 3 * j);
    v.push(i * 100 + j);
  }
  return LazyFrame::from_frame(DataFrame({Column("k", k.finish()), Column("v", v.finish())}));
}

LazyFrame chain(int n) {
  LazyFrame out = part(0);
  for (int i = 1; i < n; ++i) out = out.merge_sorted(part(i), "k");
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The depth of the deepest MERGE SORTED line (its indentation).
size_t deepest_merge(const std::string& text) {
  size_t deepest = 0;
  for (size_t at = text.find("MERGE SORTED"); at != std::string::npos; at = text.find("MERGE SORTED", at + 1)) {
    const size_t line = text.rfind('\n', at);
    deepest = std::max(deepest, at - (line == std::string::npos ? 0 : line + 1));
  }
  return deepest;
}

}  // namespace

// A chain of 5 (depth 4) becomes ((0 1) (2)) ... balanced: the deepest merge two levels down.
TEST(FlattenMergeSorted, ChainBecomesBalanced) {
  Plan plan(chain(5));
  EXPECT_EQ(deepest_merge(plan.explain()), 6u) << plan.explain();  // 4 merges, each 2 deeper
  plan.apply(optimizer::flatten_merge_sorted);
  const std::string after = plan.explain();
  EXPECT_EQ(count(after, "MERGE SORTED"), 4u) << after;
  EXPECT_EQ(deepest_merge(after), 4u) << after;
}

// A chain and a balanced tree of the same inputs plan alike.
TEST(FlattenMergeSorted, ChainAndBalancedTreeAlike) {
  LazyFrame balanced = part(0).merge_sorted(part(1), "k").merge_sorted(part(2).merge_sorted(part(3), "k"), "k");
  Plan a(chain(4)), b(balanced);
  a.apply(optimizer::flatten_merge_sorted);
  b.apply(optimizer::flatten_merge_sorted);
  EXPECT_EQ(a.explain(), b.explain());
}

// Two inputs, or merges on another key, stay as they are.
TEST(FlattenMergeSorted, OtherKeysAndPairsStay) {
  Plan two(chain(2));
  const std::string before = two.explain();
  two.apply(optimizer::flatten_merge_sorted);
  EXPECT_EQ(two.explain(), before);
  LazyFrame mixed = part(0).merge_sorted(part(1), "k").merge_sorted(part(2), "v");
  Plan m(mixed);
  const std::string mixed_before = m.explain();
  m.apply(optimizer::flatten_merge_sorted);
  EXPECT_EQ(m.explain(), mixed_before);
}

// Nobody reads the order under a unique(): the merge becomes a union.
TEST(MergeSortedToUnion, UnobservedOrder) {
  Plan plan(chain(2).unique().sort({col("k")}));
  plan.apply(optimizer::merge_sorted_to_union);
  EXPECT_TRUE(contains(plan.explain(), "UNION")) << plan.explain();
  EXPECT_FALSE(contains(plan.explain(), "MERGE SORTED"));
  Plan observed(chain(2));
  observed.apply(optimizer::merge_sorted_to_union);
  EXPECT_TRUE(contains(observed.explain(), "MERGE SORTED"));
}

// The whole optimizer with the rules on and off gives the same rows.
TEST(FlattenMergeSorted, SameResultOptimizedOrNot) {
  LazyFrame q = chain(6);
  EXPECT_TRUE(q.collect().equals(q.collect(OptFlags::none())));
}
