// join_where's InequalityJoin node end to end: the join chosen (hash join on equalities,
// IEJoin on inequalities, nested loop otherwise), its pairs on nulls, duplicates and
// unsorted input, empty sides, and a left-only / right-only filter moved onto its input.
#include "frazil/exec/operators/inequality_join.hpp"

#include <algorithm>

#include "../exec_test_util.hpp"

using namespace frazil;
using namespace frazil::exec_test;
using dsl::col;
using dsl::lit;

namespace {

DataFrame ints(std::vector<std::pair<std::string, std::vector<std::optional<int64_t>>>> cols) {
  std::vector<Column> out;
  for (auto& [name, values] : cols) {
    PrimitiveBuilder<int64_t> b(DataType::int64());
    for (auto v : values) v ? b.push(*v) : b.push_null();
    out.emplace_back(name, b.finish());
  }
  return DataFrame(std::move(out));
}

// The rows as (left a, right b) pairs, sorted (the join's order is unspecified).
std::vector<std::pair<int64_t, int64_t>> pairs(const DataFrame& df, const std::string& a, const std::string& b) {
  const ArrayRef x = df.column(a).as_array(), y = df.column(b).as_array();
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t i = 0; i < df.height(); ++i) out.emplace_back(x->values<int64_t>()[i], y->values<int64_t>()[i]);
  std::sort(out.begin(), out.end());
  return out;
}

using Pairs = std::vector<std::pair<int64_t, int64_t>>;

}  // namespace

TEST(InequalityJoinNode, EveryOperatorOnNullsAndDuplicates) {
  DataFrame left = ints({{"a", {3, std::nullopt, 1, 3}}});
  DataFrame right = ints({{"b", {2, 3, std::nullopt, 2}}});
  auto run = [&](dsl::Expr p) {
    return pairs(LazyFrame::from_frame(left).join_where(LazyFrame::from_frame(right), {p}).collect(), "a", "b");
  };
  EXPECT_EQ(run(col("a") < col("b")), (Pairs{{1, 2}, {1, 2}, {1, 3}}));
  EXPECT_EQ(run(col("a") <= col("b")), (Pairs{{1, 2}, {1, 2}, {1, 3}, {3, 3}, {3, 3}}));
  EXPECT_EQ(run(col("a") > col("b")), (Pairs{{3, 2}, {3, 2}, {3, 2}, {3, 2}}));
  EXPECT_EQ(run(col("a") >= col("b")), (Pairs{{3, 2}, {3, 2}, {3, 2}, {3, 2}, {3, 3}, {3, 3}}));
  // Flipped operands: b > a is a < b.
  EXPECT_EQ(run(col("b") > col("a")), run(col("a") < col("b")));
  EXPECT_EQ(run(col("a") != col("b")), (Pairs{{1, 2}, {1, 2}, {1, 3}, {3, 2}, {3, 2}, {3, 2}, {3, 2}}));
}

TEST(InequalityJoinNode, TwoInequalitiesAndSuffix) {
  DataFrame left = ints({{"t", {1, 5, 3}}, {"x", {10, 20, 30}}});
  DataFrame right = ints({{"t", {2, 4, 6}}, {"y", {15, 25, 35}}});
  LazyFrame q = LazyFrame::from_frame(left).join_where(LazyFrame::from_frame(right),
                                                       {col("t") < col("t_right"), col("x") > col("y")});
  DataFrame out = q.collect();
  EXPECT_EQ(out.names(), (std::vector<std::string>{"t", "x", "t_right", "y"}));
  EXPECT_EQ(pairs(out, "t", "t_right"), (Pairs{{3, 4}}));
  EXPECT_TRUE(contains(q.explain(), "IEJOIN JOIN:\nLEFT PLAN ON: [col(\"t\"), col(\"x\")]")) << q.explain();
}

TEST(InequalityJoinNode, PlansAsPolars) {
  LazyFrame a = LazyFrame::from_frame(ints({{"t", {1}}, {"x", {1}}}));
  LazyFrame b = LazyFrame::from_frame(ints({{"u", {1}}, {"y", {1}}}));
  EXPECT_TRUE(contains(a.join_where(b, {col("t") != col("u")}).explain(), "NESTED LOOP JOIN ON col(\"t\") != col(\"u\")"));
  const std::string eq = a.join_where(b, {col("t") == col("u"), col("x") < col("y")}).explain();
  EXPECT_TRUE(contains(eq, "INNER JOIN")) << eq;
  EXPECT_TRUE(contains(eq, "FILTER col(\"x\") < col(\"y\")")) << eq;
}

TEST(InequalityJoinNode, EmptySides) {
  DataFrame some = ints({{"a", {1, 2}}});
  DataFrame none = ints({{"b", {}}});
  for (auto p : {col("a") < col("b"), col("a") != col("b")}) {
    EXPECT_EQ(LazyFrame::from_frame(some).join_where(LazyFrame::from_frame(none), {p}).collect().height(), 0);
    EXPECT_EQ(LazyFrame::from_frame(ints({{"a", {}}})).join_where(LazyFrame::from_frame(ints({{"b", {1}}})), {p})
                  .collect().height(), 0);
  }
}

// A filter above on left columns goes into the left input, on right columns into the right
// one (by its input name), one on both stays above.
TEST(InequalityJoinNode, PredicatePushdown) {
  DataFrame left = ints({{"t", {1, 2, 3}}, {"a", {1, 2, 3}}});
  DataFrame right = ints({{"t", {2, 3, 4}}, {"w", {7, 8, 9}}});
  LazyFrame q = LazyFrame::from_frame(left)
                    .join_where(LazyFrame::from_frame(right), {col("t") < col("t_right")})
                    .filter(col("a") > lit(int64_t{1}))
                    .filter(col("t_right") < lit(int64_t{4}))
                    .filter(col("a") + col("w") > lit(int64_t{9}));
  const std::string plan = q.explain();
  const size_t join = plan.find("IEJOIN JOIN");
  ASSERT_NE(join, std::string::npos) << plan;
  EXPECT_LT(plan.find("FILTER"), join) << plan;  // the two-sided one stays above
  EXPECT_TRUE(contains(plan, "SELECTION: col(\"a\") > 1")) << plan;
  EXPECT_TRUE(contains(plan, "SELECTION: col(\"t\") < 4")) << plan;
  EXPECT_EQ(pairs(q.collect(), "t", "t_right"), (Pairs{{2, 3}}));
}
