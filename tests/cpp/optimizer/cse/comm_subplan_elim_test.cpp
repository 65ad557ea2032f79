#include "frazil/optimizer/cse/comm_subplan_elim.hpp"

#include "cse_test_util.hpp"
#include "frazil/optimizer/cse/cache_states.hpp"
#include "frazil/plan/optimization_rule.hpp"

using namespace frazil;
using namespace frazil::cse_test;
using optimizer::cse::comm_subplan_elim;
using optimizer::cse::CspeOptions;
using plan::IRKind;
using plan::Node;

namespace {

// The Cache nodes reachable from the root, by cache id.
std::map<uint64_t, std::vector<Node>> caches(const Plan& p) {
  std::map<uint64_t, std::vector<Node>> out;
  std::vector<Node> stack{p.root};
  std::set<uint32_t> seen;
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    if (!seen.insert(n.idx).second) continue;
    const plan::IR& ir = p.lp.get(n);
    if (ir.kind() == IRKind::Cache) out[ir.as<plan::CacheNode>().id].push_back(n);
    for (Node in : ir.inputs) stack.push_back(in);
  }
  return out;
}

bool shift_is_random(const plan::AExpr& e) {
  return e.is_function("shift");
}

}  // namespace

TEST(CommSubplanElim, CachesTheTopmostSharedNode) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame shared = lf.filter(col("a") > 3).with_columns({(col("a") * 2).alias("c")});
  Plan p(concat({shared.select({col("a"), col("c")}), shared.select({col("c"), col("a")}).select({col("a"), col("c")})}));
  size_t inserted = 0;
  comm_subplan_elim(p.root, p.lp, p.ea, {}, &inserted);
  EXPECT_EQ(inserted, 1u);
  auto c = caches(p);
  ASSERT_EQ(c.size(), 1u);
  ASSERT_EQ(c.begin()->second.size(), 2u);
  // The cache holds the with_columns (hit twice, under parents hit once), not its filter.
  for (Node n : c.begin()->second) EXPECT_EQ(p.lp.get(p.lp.get(n).inputs[0]).kind(), IRKind::HStack);
  EXPECT_EQ(p.count("CACHE[id: 0]"), 2u);
}

TEST(CommSubplanElim, PlainScansOnlyWhenAllowed) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame q = lf.join(lf, {col("a")});
  {
    Plan p(q);
    size_t inserted = 1;
    comm_subplan_elim(p.root, p.lp, p.ea, {}, &inserted);
    EXPECT_EQ(inserted, 0u);
  }
  {
    Plan p(q);
    CspeOptions o;
    o.cache_plain_scans = true;
    size_t inserted = 0;
    comm_subplan_elim(p.root, p.lp, p.ea, o, &inserted);
    EXPECT_EQ(inserted, 1u);
    EXPECT_EQ(p.count("CACHE"), 2u);
    EXPECT_TRUE(p.run().equals(q.collect(OptFlags::none())));
  }
}

TEST(CommSubplanElim, NothingWithoutDuplicateScans) {
  LazyFrame one = LazyFrame::from_frame(frame());
  LazyFrame two = LazyFrame::from_frame(frame());
  Plan p(concat({one.filter(col("a") > 1), two.filter(col("a") > 1)}));
  size_t inserted = 1;
  comm_subplan_elim(p.root, p.lp, p.ea, {}, &inserted);
  EXPECT_EQ(inserted, 0u);
}

TEST(CommSubplanElim, NonDeterministicSubplansAreNotShared) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame shifted = lf.with_columns({col("a").shift(1).alias("s")}).filter(col("a") > 1);
  LazyFrame q = concat({shifted, shifted});
  CspeOptions random;
  random.hooks.expr.nondeterministic = shift_is_random;
  Plan p(q);
  size_t inserted = 1;
  comm_subplan_elim(p.root, p.lp, p.ea, random, &inserted);
  EXPECT_EQ(inserted, 0u);
  // Its deterministic parts below may still be: with a filter under the shift.
  LazyFrame below = lf.filter(col("a") > 1).with_columns({col("a").shift(1).alias("s")});
  Plan p2(concat({below, below}));
  comm_subplan_elim(p2.root, p2.lp, p2.ea, random, &inserted);
  EXPECT_EQ(inserted, 1u);
  for (const auto& [id, nodes] : caches(p2))
    for (Node n : nodes) EXPECT_EQ(p2.lp.get(p2.lp.get(n).inputs[0]).kind(), IRKind::Filter);
  // Deterministic by default: the whole arm is shared.
  Plan p3(q);
  comm_subplan_elim(p3.root, p3.lp, p3.ea, {}, &inserted);
  EXPECT_EQ(inserted, 1u);
}

TEST(CommSubplanElim, TraceRecordsTheCache) {
  plan::RewriteTrace::set_enabled(true);
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame g = lf.group_by({col("k")}, true).agg({col("a").sum()});
  Plan p(g.join(g, {col("k")}));
  plan::RewriteTrace::take();  // the conversion's timing
  comm_subplan_elim(p.root, p.lp, p.ea);
  auto events = plan::RewriteTrace::take();
  plan::RewriteTrace::set_enabled(false);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].rule, "comm_subplan_elim");
  EXPECT_NE(events[0].before.find("AGGREGATE"), std::string::npos) << events[0].before;
  EXPECT_NE(events[0].after.find("CACHE[id: 0] over 2"), std::string::npos) << events[0].after;
}

TEST(CommSubplanElim, SelfJoinAfterGroupByComputesTheGroupByOnce) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame g = lf.group_by({col("k")}, true).agg({col("a").sum().alias("s"), col("b").max().alias("m")});
  LazyFrame q = g.join(g.select({col("k"), col("s").alias("s2")}), {col("k")}).sort({col("k")});

  Plan shared(q);
  shared.optimize();
  EXPECT_EQ(shared.count("CACHE[id: 0]"), 2u) << shared.explain();
  exec::ExecStats with_cache;
  DataFrame got = shared.run(&with_cache);
  EXPECT_EQ(with_cache.runs(IRKind::GroupBy), 1);
  EXPECT_EQ(with_cache.cache_computations.load(), 1);
  EXPECT_EQ(with_cache.cache_reuses.load(), 1);

  Plan separate(q);
  separate.optimize(no_cse());
  EXPECT_EQ(separate.count("CACHE"), 0u);
  exec::ExecStats without;
  DataFrame want = separate.run(&without);
  EXPECT_EQ(without.runs(IRKind::GroupBy), 2);
  EXPECT_TRUE(got.equals(want)) << got.to_string() << "\n" << want.to_string();
  EXPECT_TRUE(got.equals(q.collect(OptFlags::none())));
}

TEST(CommSubplanElim, NestedSharingStaysCorrect) {
  // `inner` is used three times: twice inside `outer` (itself used twice) and once alone.
  LazyFrame lf = LazyFrame::from_frame(frame());
  LazyFrame inner = lf.filter(col("b").is_not_null()).with_columns({(col("a") + col("b")).alias("c")});
  LazyFrame outer = inner.group_by({col("k")}, true).agg({col("c").sum()});
  LazyFrame q = concat({outer, outer, inner.group_by({col("k")}, true).agg({col("c").max()})});
  Plan p(q);
  size_t inserted = 0;
  comm_subplan_elim(p.root, p.lp, p.ea, {}, &inserted);
  EXPECT_EQ(inserted, 2u) << p.explain();
  EXPECT_TRUE(p.run().equals(q.collect(OptFlags::none())));
  expect_same_as_unoptimized(q);
  Plan full(q);
  full.optimize();
  exec::ExecStats stats;
  EXPECT_TRUE(full.run(&stats).equals(q.collect(OptFlags::none())));
  EXPECT_EQ(stats.runs(IRKind::GroupBy), 2);  // outer once, the other aggregation once
}
