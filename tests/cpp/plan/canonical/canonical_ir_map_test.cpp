#include "frazil/plan/canonical/canonical_ir_map.hpp"

#include <gtest/gtest.h>

#include "frazil/frazil.hpp"
#include "frazil/plan/canonical/member_collector.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

using namespace frazil;
using plan::CanonicalIRMap;
using plan::IRKind;
using plan::Node;

namespace {

DataFrame small_frame() {
  PrimitiveBuilder<int64_t> a(DataType::int64()), b(DataType::int64());
  for (int i = 0; i < 5; ++i) {
    a.push(i);
    b.push(i * 2);
  }
  return DataFrame({Column("a", a.finish()), Column("b", b.finish())});
}

// Plans converted into one pair of arenas (each conversion appends its own nodes).
struct Converted {
  plan::IRArena lp;
  plan::ExprArena ea;
  Node root;
  explicit Converted(const LazyFrame& lf) { root = add(lf); }
  Node add(const LazyFrame& lf) { return plan::to_alp(lf.plan(), lp, ea, OptFlags()); }
  Node input(Node n, size_t i = 0) const { return lp.get(n).inputs[i]; }
};

uint64_t colliding_ir(const plan::IR&) { return 7; }
bool shift_is_random(const plan::AExpr& e) {
  return e.is_function("shift");
}

// Hashes an expression by its node index: enough to see that inputs are never hashed.
struct NodeHasher final : plan::ExprIRHasher {
  uint64_t hash(const plan::ExprIR& e) override { return e.node().idx; }
  bool equal(const plan::ExprIR& a, const plan::ExprIR& b) override { return a.node() == b.node(); }
};

}  // namespace

TEST(CanonicalIRMap, IdenticalArmsOfAUnionShareAnId) {
  LazyFrame lf = LazyFrame::from_frame(small_frame());
  LazyFrame arm = lf.filter(col("a") > 1).select({col("a"), (col("b") * 2).alias("c")});
  LazyFrame other = lf.filter(col("a") > 2).select({col("a"), (col("b") * 2).alias("c")});
  Converted c(concat({arm, arm, other}));
  ASSERT_EQ(c.lp.get(c.root).kind(), IRKind::Union);
  CanonicalIRMap map;
  auto id0 = map.resolve(c.input(c.root, 0), c.lp, c.ea);
  auto id1 = map.resolve(c.input(c.root, 1), c.lp, c.ea);
  auto id2 = map.resolve(c.input(c.root, 2), c.lp, c.ea);
  EXPECT_NE(c.input(c.root, 0), c.input(c.root, 1));  // two conversions, two subtrees
  EXPECT_EQ(id0, id1);
  EXPECT_NE(id0, id2);
  // The scans under all three arms are the same source.
  auto scan = [&](size_t arm_index) { return map.lookup(c.input(c.input(c.input(c.root, arm_index)))); };
  EXPECT_EQ(scan(0), scan(2));
  // Ids are dense and children come first.
  for (uint32_t child : map.children(id0)) EXPECT_LT(child, id0.value);
  EXPECT_EQ(map.num_classes(), 5u);  // scan, 2 filters, 2 selects
}

TEST(CanonicalIRMap, DataFrameScanIdentityIsTheFrameObject) {
  DataFrame df = small_frame();
  LazyFrame one = LazyFrame::from_frame(df);
  LazyFrame two = LazyFrame::from_frame(df);  // another object with equal contents
  Converted c(concat({one, one, two}));
  CanonicalIRMap map;
  EXPECT_EQ(map.resolve(c.input(c.root, 0), c.lp, c.ea), map.resolve(c.input(c.root, 1), c.lp, c.ea));
  EXPECT_NE(map.resolve(c.input(c.root, 0), c.lp, c.ea), map.resolve(c.input(c.root, 2), c.lp, c.ea));
}

TEST(CanonicalIRMap, FileScanIdentityIsPathsAndOptions) {
  auto schema = std::make_shared<const Schema>(Schema({Field{"a", DataType::int64()}}));
  auto options = std::make_shared<const int>(1);
  auto scan = [&](std::string path, std::shared_ptr<const void> opts) {
    dsl::ScanSource s;
    s.format = dsl::ScanFormat::Csv;
    s.paths = {std::move(path)};
    s.options = std::move(opts);
    s.file_schema = schema;
    return LazyFrame::from_scan(s);
  };
  LazyFrame a = scan("/data/x.csv", options);
  Converted c(concat({a, scan("/data/x.csv", options), scan("/data/y.csv", options),
                      scan("/data/x.csv", std::make_shared<const int>(1)), a.filter(col("a") > 1), a.filter(col("a") > 1)}));
  CanonicalIRMap map;
  auto id = [&](size_t i) { return map.resolve(c.input(c.root, i), c.lp, c.ea); };
  EXPECT_EQ(id(0), id(1));
  EXPECT_NE(id(0), id(2));  // another path
  EXPECT_NE(id(0), id(3));  // another options object
  EXPECT_EQ(id(4), id(5));
}

TEST(CanonicalIRMap, OutputNamesAndOptionsAreIdentity) {
  LazyFrame lf = LazyFrame::from_frame(small_frame());
  Converted c(lf.select({col("a")}));
  std::vector<Node> roots = {c.root,
                             c.add(lf.select({col("a")})),
                             c.add(lf.select({col("a").alias("b")})),
                             c.add(lf.sort({col("a")})),
                             c.add(lf.sort({col("a")}, SortArgs{{true}})),
                             c.add(lf.slice(1, 2)),
                             c.add(lf.slice(1, 3))};
  CanonicalIRMap map;
  auto id = [&](size_t i) { return map.resolve(roots[i], c.lp, c.ea); };
  EXPECT_EQ(id(0), id(1));
  EXPECT_NE(id(0), id(2));  // select(a) vs select(a as b)
  EXPECT_NE(id(3), id(4));  // ascending vs descending
  EXPECT_NE(id(5), id(6));  // slice lengths
}

TEST(CanonicalIRMap, CollidingHashGivesTheSameClasses) {
  LazyFrame lf = LazyFrame::from_frame(small_frame());
  LazyFrame g = lf.group_by({col("a")}, true).agg({col("b").sum()});
  Converted c(concat({g, g, lf.group_by({col("a")}, true).agg({col("b").max()}), lf.select({col("a"), col("b")}),
                      lf.select({col("a"), col("b")})}));
  CanonicalIRMap normal;
  plan::CanonicalIRHooks hooks;
  hooks.shallow_hash = colliding_ir;
  CanonicalIRMap colliding(hooks);
  std::vector<Node> nodes;
  for (size_t i = 0; i < c.lp.get(c.root).inputs.size(); ++i) nodes.push_back(c.input(c.root, i));
  for (Node a : nodes)
    for (Node b : nodes) {
      bool same = normal.resolve(a, c.lp, c.ea) == normal.resolve(b, c.lp, c.ea);
      EXPECT_EQ(same, colliding.resolve(a, c.lp, c.ea) == colliding.resolve(b, c.lp, c.ea));
    }
  EXPECT_EQ(normal.num_classes(), colliding.num_classes());
  EXPECT_GT(colliding.comparisons(), normal.comparisons());
  EXPECT_EQ(normal.resolve(nodes[0], c.lp, c.ea), normal.resolve(nodes[1], c.lp, c.ea));
  EXPECT_NE(normal.resolve(nodes[0], c.lp, c.ea), normal.resolve(nodes[2], c.lp, c.ea));
}

TEST(CanonicalIRMap, HashExcludesInputs) {
  LazyFrame one = LazyFrame::from_frame(small_frame());
  LazyFrame two = LazyFrame::from_frame(small_frame());
  Converted c(concat({one.filter(col("a") > 1), two.filter(col("a") > 1)}));
  const plan::IR& f0 = c.lp.get(c.input(c.root, 0));
  const plan::IR& f1 = c.lp.get(c.input(c.root, 1));
  // Same predicate node on purpose: only the inputs differ.
  plan::IR copy = f1;
  copy.as_mut<plan::FilterNode>().predicate = f0.as<plan::FilterNode>().predicate;
  NodeHasher hasher;
  EXPECT_EQ(plan::hash_excluding_inputs(f0, hasher), plan::hash_excluding_inputs(copy, hasher));
  EXPECT_TRUE(plan::ir_equal_shallow(f0, copy, hasher));
  // ... but the canonical ids differ, through the inputs' ids.
  CanonicalIRMap map;
  EXPECT_NE(map.resolve(c.input(c.root, 0), c.lp, c.ea), map.resolve(c.input(c.root, 1), c.lp, c.ea));
}

TEST(CanonicalIRMap, NonDeterministicExpressionsMarkTheSubplanUp) {
  LazyFrame lf = LazyFrame::from_frame(small_frame());
  LazyFrame shifted = lf.with_columns({col("a").shift(1).alias("s")}).filter(col("a") > 0);
  Converted c(shifted.join(lf.filter(col("a") > 0), {col("a")}));
  plan::CanonicalIRHooks hooks;
  hooks.expr.nondeterministic = shift_is_random;
  CanonicalIRMap map(hooks);
  Node filter = c.input(c.root, 0);
  Node with_columns = c.input(filter);
  EXPECT_TRUE(map.is_nondeterministic(map.resolve(filter, c.lp, c.ea)));
  EXPECT_TRUE(map.is_nondeterministic(map.lookup(with_columns)));
  EXPECT_FALSE(map.is_nondeterministic(map.lookup(c.input(with_columns))));
  EXPECT_FALSE(map.is_nondeterministic(map.resolve(c.input(c.root, 1), c.lp, c.ea)));
  EXPECT_TRUE(map.is_nondeterministic(map.resolve(c.root, c.lp, c.ea)));
  CanonicalIRMap normal;
  EXPECT_FALSE(normal.is_nondeterministic(normal.resolve(c.root, c.lp, c.ea)));
}

TEST(MemberCollector, DuplicateScansNeedAJoinOrUnion) {
  LazyFrame lf = LazyFrame::from_frame(small_frame());
  LazyFrame other = LazyFrame::from_frame(small_frame());
  {
    Converted c(concat({lf.filter(col("a") > 1), lf.filter(col("a") > 2)}));
    CanonicalIRMap map;
    auto m = plan::collect_members(c.root, c.lp, c.ea, map);
    EXPECT_TRUE(m.has_unions);
    EXPECT_EQ(m.scan_count, 2u);
    EXPECT_EQ(m.distinct_scans, 1u);
    EXPECT_TRUE(m.worth_subplan_elim());
  }
  {
    Converted c(lf.join(other, {col("a")}));
    CanonicalIRMap map;
    auto m = plan::collect_members(c.root, c.lp, c.ea, map);
    EXPECT_TRUE(m.has_joins);
    EXPECT_FALSE(m.has_duplicate_scans());
    EXPECT_FALSE(m.worth_subplan_elim());
  }
  {
    Converted c(lf.with_columns({col("a") + 1}).filter(col("a") > 1));
    CanonicalIRMap map;
    auto m = plan::collect_members(c.root, c.lp, c.ea, map);
    EXPECT_FALSE(m.has_joins || m.has_unions);
    EXPECT_EQ(m.scan_count, 1u);
    EXPECT_FALSE(m.worth_subplan_elim());
  }
  {
    Converted c(lf.join(lf, {col("a")}));
    CanonicalIRMap map;
    EXPECT_TRUE(plan::collect_members(c.root, c.lp, c.ea, map).worth_subplan_elim());
  }
}
