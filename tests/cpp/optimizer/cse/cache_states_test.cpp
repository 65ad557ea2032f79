#include "frazil/optimizer/cse/cache_states.hpp"

#include "cse_test_util.hpp"
#include "frazil/optimizer/cse/comm_subplan_elim.hpp"
#include "frazil/plan/optimization_rule.hpp"

using namespace frazil;
using namespace frazil::cse_test;
using optimizer::cse::CacheStateOptions;
using optimizer::cse::comm_subplan_elim;
using optimizer::cse::set_cache_states;
using plan::IRKind;
using plan::Node;

namespace {

// Runs the pass with tracing on and returns its events.
std::vector<plan::RewriteEvent> traced(const std::function<void()>& f) {
  plan::RewriteTrace::set_enabled(true);
  plan::RewriteTrace::take();
  f();
  auto events = plan::RewriteTrace::take();
  plan::RewriteTrace::set_enabled(false);
  std::vector<plan::RewriteEvent> out;
  for (auto& e : events)
    if (e.rule == "cache_states") out.push_back(std::move(e));
  return out;
}

std::string all_text(const std::vector<plan::RewriteEvent>& events) {
  std::string s;
  for (const auto& e : events) s += e.before + " => " + e.after + "\n";
  return s;
}

}  // namespace

TEST(CacheStates, UnionArmsWithDifferentFiltersGetTheirOwnRows) {
  LazyFrame lf = LazyFrame::from_frame(frame(200));
  LazyFrame g = lf.group_by({col("a") % 20}, true).agg({col("b").sum().alias("s"), col("k").max().alias("m")});
  LazyFrame q = concat({g.filter(col("s") > 500), g.filter(col("m") == 2), g.filter(col("s") < 300)});
  Plan p(q, no_cse());
  comm_subplan_elim(p.root, p.lp, p.ea);
  auto events = traced([&] { set_cache_states(p.root, p.lp, p.ea); });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].after, "kept") << all_text(events);
  EXPECT_NE(events[0].before.find("3 consumers"), std::string::npos) << events[0].before;
  EXPECT_NE(events[0].before.find("OR of the consumers' filters below"), std::string::npos) << events[0].before;
  EXPECT_NE(events[0].before.find("removal"), std::string::npos);
  // Each arm keeps its own filter above the cache; below it, the OR of them.
  const std::string plan = p.explain();
  EXPECT_EQ(p.count("CACHE[id: 0]"), 3u) << plan;
  EXPECT_EQ(p.count("FILTER col(\"s\") > 500\n"), 1u) << plan;
  EXPECT_EQ(p.count("FILTER col(\"m\") == 2\n"), 1u) << plan;
  EXPECT_EQ(p.count("FILTER ((col(\"s\") > 500) | (col(\"m\") == 2)) | (col(\"s\") < 300)"), 3u) << plan;
  DataFrame got = p.run();
  EXPECT_TRUE(got.equals(q.collect(OptFlags::none()))) << got.to_string() << "\n" << plan;
  expect_same_as_unoptimized(q);
}

TEST(CacheStates, ConjunctsSharedByEveryConsumerMoveBelow) {
  LazyFrame lf = LazyFrame::from_frame(frame(200));
  LazyFrame g = lf.group_by({col("k")}, true).agg({col("a").sum().alias("s"), col("b").count().alias("n")});
  LazyFrame q = concat({g.filter((col("s") > 100) & (col("k") != 2)), g.filter((col("k") != 2) & (col("n") > 3))});
  Plan p(q, no_cse());
  comm_subplan_elim(p.root, p.lp, p.ea);
  auto events = traced([&] { set_cache_states(p.root, p.lp, p.ea); });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].before.find("1 shared conjunct(s) below"), std::string::npos) << events[0].before;
  // The shared conjunct is under the caches once; each arm keeps only its own.
  const std::string plan = p.explain();
  EXPECT_EQ(p.count("FILTER col(\"k\") != 2"), 2u) << plan;  // once per (identical) printed cache input
  EXPECT_EQ(p.count("FILTER col(\"s\") > 100\n"), 1u) << plan;
  EXPECT_EQ(p.count("FILTER col(\"n\") > 3\n"), 1u) << plan;
  EXPECT_TRUE(p.run().equals(q.collect(OptFlags::none()))) << plan;
  expect_same_as_unoptimized(q);
}

TEST(CacheStates, ConsumersReadTheUnionOfTheirColumns) {
  LazyFrame lf = LazyFrame::from_frame(frame(200));
  LazyFrame sub = lf.filter(col("a") > 10).with_columns({(col("a") * 3).alias("c"), (col("b") + 1).alias("d")})
                      .group_by({col("k")}, true)
                      .agg({col("a").sum(), col("b").sum(), col("c").sum(), col("d").sum()});
  LazyFrame q = sub.select({col("k"), col("a")}).join(sub.select({col("k"), col("c")}), {col("k")}).sort({col("k")});
  Plan p(q, no_cse());
  comm_subplan_elim(p.root, p.lp, p.ea);
  auto events = traced([&] { set_cache_states(p.root, p.lp, p.ea); });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].before.find("3/5 columns"), std::string::npos) << events[0].before;
  EXPECT_EQ(events[0].after, "kept");
  EXPECT_TRUE(p.run().equals(q.collect(OptFlags::none()))) << p.explain();
  expect_same_as_unoptimized(q);
  // With the pushdown passes the subplan itself gets narrower (d is never computed).
  Plan full(q);
  full.optimize();
  EXPECT_EQ(full.count("CACHE"), 2u) << full.explain();
  EXPECT_TRUE(full.run().equals(q.collect(OptFlags::none()))) << full.explain();
}

TEST(CacheStates, CheapSubplansAreRecomputed) {
  LazyFrame lf = LazyFrame::from_frame(frame(200));
  LazyFrame cheap = lf.with_columns({(col("a") * 2).alias("c")});
  LazyFrame q = concat({cheap, cheap});
  Plan p(q, no_cse());
  comm_subplan_elim(p.root, p.lp, p.ea);
  EXPECT_EQ(p.count("CACHE"), 2u);
  auto events = traced([&] { set_cache_states(p.root, p.lp, p.ea); });
  ASSERT_EQ(events.size(), 1u);
  // 2 x (200 read + 200 computed) against 400 + 2 x 200 read back: a tie goes to removal.
  EXPECT_NE(events[0].before.find("removal 800 rows, keep 800 rows"), std::string::npos) << events[0].before;
  EXPECT_EQ(events[0].after, "removed: recomputing is not more expensive");
  EXPECT_EQ(p.count("CACHE"), 0u) << p.explain();
  EXPECT_TRUE(p.run().equals(q.collect(OptFlags::none())));
  // Without the cost model it stays.
  Plan kept(q, no_cse());
  comm_subplan_elim(kept.root, kept.lp, kept.ea);
  CacheStateOptions off;
  off.use_cost_model = false;
  set_cache_states(kept.root, kept.lp, kept.ea, off);
  EXPECT_EQ(kept.count("CACHE"), 2u);
  EXPECT_TRUE(kept.run().equals(q.collect(OptFlags::none())));
}

TEST(CacheStates, UnknownSizesKeepTheCache) {
  auto schema = std::make_shared<const Schema>(Schema({Field{"a", DataType::int64()}}));
  dsl::ScanSource s;
  s.format = dsl::ScanFormat::Csv;
  s.paths = {"/nonexistent/frazil_cse_test.csv"};
  s.file_schema = schema;
  LazyFrame sub = LazyFrame::from_scan(s).group_by({col("a")}).agg({dsl::len()});
  Plan p(concat({sub, sub}), no_cse());
  comm_subplan_elim(p.root, p.lp, p.ea);
  auto events = traced([&] { set_cache_states(p.root, p.lp, p.ea); });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].before.find("no row estimate"), std::string::npos) << events[0].before;
  EXPECT_EQ(events[0].after, "kept");
  EXPECT_EQ(p.count("CACHE"), 2u);
}

TEST(CacheStates, DivergedCopiesLoseTheirCache) {
  LazyFrame lf = LazyFrame::from_frame(frame(200));
  LazyFrame g = lf.group_by({col("k")}, true).agg({col("a").sum()});
  LazyFrame q = concat({g, g});
  Plan p(q, no_cse());
  comm_subplan_elim(p.root, p.lp, p.ea);
  // A pass that did not stop at the cache changed one copy only.
  Node second_cache = p.lp.get(p.root).inputs[1];
  ASSERT_EQ(p.lp.get(second_cache).kind(), IRKind::Cache);
  Node copy = p.lp.get(second_cache).inputs[0];
  const Node below = p.lp.get(copy).inputs[0];
  plan::ExprIR predicate(p.ea.add(plan::AExpr::binary(p.ea.add(plan::AExpr::column("a")), dsl::Operator::Gt,
                                                      p.ea.add(plan::AExpr::scalar(Scalar::int64(50))))),
                         plan::OutputName{plan::OutputNameKind::ColumnLhs, "a"});
  p.lp.get_mut(copy).inputs[0] = p.lp.add(plan::make_filter(below, predicate, p.lp.get(below).schema));
  auto events = traced([&] { set_cache_states(p.root, p.lp, p.ea); });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].after, "removed");
  EXPECT_EQ(p.count("CACHE"), 0u);
  DataFrame got = p.run();
  EXPECT_EQ(got.height(), 8);  // 4 groups + the 4 groups of rows with a > 50
}

TEST(CacheStates, ASingleConsumerIsNoCache) {
  LazyFrame lf = LazyFrame::from_frame(frame());
  Plan p(lf.group_by({col("k")}, true).agg({col("a").sum()}), no_cse());
  Node top = p.root;
  const Node moved = p.lp.add(p.lp.take(top));
  p.lp.replace(top, plan::IR(plan::CacheNode{9}, {moved}, p.lp.get(moved).schema));
  set_cache_states(p.root, p.lp, p.ea);
  EXPECT_EQ(p.lp.get(p.root).kind(), IRKind::GroupBy);
}
