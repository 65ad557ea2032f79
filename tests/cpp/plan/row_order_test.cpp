#include "frazil/plan/row_order.hpp"

#include <gtest/gtest.h>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

using namespace frazil;
using dsl::col;

namespace {

LazyFrame frame(const std::string& key, const std::string& value) {
  PrimitiveBuilder<int64_t> k(DataType::int64()), v(DataType::int64());
  for (int i = 0; i < 4; ++i) {
    k.push(i % 2);
    v.push(i);
  }
  return LazyFrame::from_frame(DataFrame({Column(key, k.finish()), Column(value, v.finish())}));
}

// Whether each join of the plan (in arena order: inner joins first) may emit rows in
// any order.
std::vector<bool> join_order_freedom(const LazyFrame& lf) {
  plan::IRArena lp;
  plan::ExprArena ea;
  const plan::Node root = plan::to_alp(lf.plan(), lp, ea, plan::OptFlags::none());
  const std::vector<bool> free = plan::unordered_outputs(root, lp, ea);
  std::vector<bool> out;
  for (uint32_t i = 0; i < lp.size(); ++i)
    if (lp.get(plan::Node(i)).kind() == plan::IRKind::Join) out.push_back(free[i]);
  return out;
}


const LazyFrame kLeft = frame("k", "a");
const LazyFrame kRight = frame("k", "b");

}  // namespace

TEST(RowOrder, TheResultsOrderIsObserved) {
  EXPECT_EQ(join_order_freedom(kLeft.join(kRight, {col("k")})), std::vector<bool>{false});
  EXPECT_EQ(join_order_freedom(kLeft.join(kRight, {col("k")}).filter(col("a") > 1)), std::vector<bool>{false});
}

TEST(RowOrder, GroupByWithoutMaintainOrderFreesItsInput) {
  auto lf = kLeft.join(kRight, {col("k")}).filter(col("a") > 1).group_by({col("k")}).agg(
      {col("b").sum(), col("a").n_unique(), dsl::len()});
  EXPECT_EQ(join_order_freedom(lf), std::vector<bool>{true});
  // The row order below a join whose own order is free is free too.
  auto chain = kLeft.join(kRight, {col("k")}).join(frame("k", "c"), {col("k")}).group_by({col("k")}).agg(
      {col("c").max()});
  EXPECT_EQ(join_order_freedom(chain), (std::vector<bool>{true, true}));
}

TEST(RowOrder, PositionalAggregationsKeepTheOrder) {
  auto first = kLeft.join(kRight, {col("k")}).group_by({col("k")}).agg({col("b").first()});
  EXPECT_EQ(join_order_freedom(first), std::vector<bool>{false});
  auto cumulative = kLeft.join(kRight, {col("k")}).with_columns({col("b").shift(1)}).group_by({col("k")}).agg(
      {col("b").sum()});
  EXPECT_EQ(join_order_freedom(cumulative), std::vector<bool>{false});
  auto maintained = kLeft.join(kRight, {col("k")}).group_by({col("k")}, true).agg({col("b").sum()});
  EXPECT_EQ(join_order_freedom(maintained), std::vector<bool>{false});
}

TEST(RowOrder, ASelectOfAggregationsHasOneRowWhateverTheOrder) {
  auto scalar = kLeft.join(kRight, {col("k")}).select({col("a").sum(), col("b").mean()});
  EXPECT_EQ(join_order_freedom(scalar), std::vector<bool>{true});
  auto rows = kLeft.join(kRight, {col("k")}).select({col("a"), col("b").mean()});
  EXPECT_EQ(join_order_freedom(rows), std::vector<bool>{false});
}

TEST(RowOrder, SortsAndSlicesObserveTheOrder) {
  // A sort keeps the input order of equal keys; a slice picks rows by position.
  auto sorted = kLeft.join(kRight, {col("k")}).sort({col("k")}).group_by({col("k")}).agg({col("a").sum()});
  EXPECT_EQ(join_order_freedom(sorted), std::vector<bool>{false});
  auto sliced = kLeft.join(kRight, {col("k")}).head(2).group_by({col("k")}).agg({col("a").sum()});
  EXPECT_EQ(join_order_freedom(sliced), std::vector<bool>{false});
}

TEST(RowOrder, ExpressionsAreRobustUnlessTheyLookAtPositions) {
  plan::ExprArena ea;
  auto node = [&](plan::AExpr e) { return ea.add(std::move(e)); };
  const plan::Node a = node(plan::AExpr::column("a"));
  const plan::Node sum = node([&] {
    plan::AExpr e;
    e.kind = plan::AExprKind::Agg;
    e.agg = compute::AggKind::Sum;
    e.inputs = {a};
    return e;
  }());
  const plan::Node first = node([&] {
    plan::AExpr e;
    e.kind = plan::AExprKind::Agg;
    e.agg = compute::AggKind::First;
    e.inputs = {a};
    return e;
  }());
  EXPECT_TRUE(plan::is_order_robust(a, ea));
  EXPECT_TRUE(plan::is_order_robust(node(plan::AExpr::binary(sum, dsl::Operator::Plus, a)), ea));
  EXPECT_FALSE(plan::is_order_robust(node(plan::AExpr::binary(first, dsl::Operator::Plus, a)), ea));
}
