// JoinOrder: a run of inner joins below a group-by is rebuilt cheapest join first; runs
// whose order is observed, with suffixed columns or of two inputs stay as written.
#include "frazil/optimizer/join_order.hpp"

#include "../compute/elementwise_test_util.hpp"
#include "pushdown/pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;
using frazil::test::Opt;

namespace {

ArrayRef ints(int64_t n, int64_t mod, bool with_null = false) {
  Opt<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(with_null && i % 7 == 3 ? std::nullopt : std::optional(i % mod));
  return frazil::test::i64(v);
}

// big(k, a) 1000 rows, mid(k, j) 100 rows, small(j, s) 30 rows filtered to a tenth.
LazyFrame big() { return LazyFrame::from_frame(DataFrame({Column("k", ints(1000, 100, true)), Column("a", ints(1000, 13))})); }
LazyFrame mid() { return LazyFrame::from_frame(DataFrame({Column("k", ints(100, 100)), Column("j", ints(100, 30, true))})); }
LazyFrame small() {
  return LazyFrame::from_frame(DataFrame({Column("j", ints(30, 30)), Column("s", ints(30, 3))})).filter(col("s") == lit(1));
}

LazyFrame chain() { return big().join(mid(), {col("k")}).join(small(), {col("j")}); }
LazyFrame aggregated() { return chain().group_by({col("k")}).agg({col("a").sum()}); }

std::string rewritten(const LazyFrame& lf) {
  Plan plan(lf);
  plan.root = optimizer::join_order(plan.root, plan.lp, plan.ea);
  return plan.explain();
}

DataFrame sorted(const LazyFrame& lf, const OptFlags& flags) { return lf.sort({col("k")}).collect(flags); }

}  // namespace

TEST(JoinOrder, UnobservedRunJoinsTheFilteredInputsFirst) {
  const std::string before = Plan(aggregated()).explain();
  const std::string after = rewritten(aggregated());
  // Written: big with mid on k first. Rewritten: mid with small on j first, then big.
  EXPECT_LT(before.find("LEFT PLAN ON: [col(\"j\")]"), before.find("LEFT PLAN ON: [col(\"k\")]")) << before;
  EXPECT_LT(after.find("LEFT PLAN ON: [col(\"k\")]"), after.find("LEFT PLAN ON: [col(\"j\")]")) << after;
  EXPECT_TRUE(contains(after, "simple π 4/4 [\"k\", \"a\", \"j\", \"s\"]")) << after;
}

TEST(JoinOrder, ResultsEqualWithAndWithoutTheRule) {
  OptFlags off;
  off.join_order = false;
  for (const LazyFrame& q : {aggregated(), chain().group_by({col("k"), col("s")}).agg({col("a").sum(), dsl::len()})}) {
    const DataFrame on = sorted(q, OptFlags()), without = sorted(q, off), none = sorted(q, OptFlags::none());
    EXPECT_TRUE(on.equals(without)) << on.to_string() << "\n" << without.to_string();
    EXPECT_TRUE(on.equals(none)) << on.to_string() << "\n" << none.to_string();
  }
  EXPECT_TRUE(contains(aggregated().explain(), "simple π")) << aggregated().explain();
  EXPECT_FALSE(contains(aggregated().explain(true, off), "simple π")) << aggregated().explain(true, off);
}

TEST(JoinOrder, ObservedOrderSuffixesAndShortRunsStay) {
  // The joins' rows come out in left order: nothing reorders them.
  EXPECT_EQ(rewritten(chain()), Plan(chain()).explain());
  // "a" on two inputs is suffixed: the run means something else in another order.
  const LazyFrame clash = big().join(mid().with_columns({col("j").alias("a")}), {col("k")}).join(small(), {col("j")});
  const LazyFrame clash_agg = clash.group_by({col("k")}).agg({col("a").sum()});
  EXPECT_EQ(rewritten(clash_agg), Plan(clash_agg).explain());
  const LazyFrame two = big().join(small(), {col("k")}, {col("j")}).group_by({col("k")}).agg({col("a").sum()});
  EXPECT_EQ(rewritten(two), Plan(two).explain());
}

TEST(JoinOrder, EmptyAndOneRowInputs) {
  OptFlags off;
  off.join_order = false;
  const LazyFrame empty = LazyFrame::from_frame(DataFrame({Column("j", ints(0, 1)), Column("s", ints(0, 1))}));
  const LazyFrame one = LazyFrame::from_frame(DataFrame({Column("j", ints(1, 1)), Column("s", ints(1, 1))}));
  for (const LazyFrame& last : {empty, one}) {
    const LazyFrame q = big().join(mid(), {col("k")}).join(last, {col("j")}).group_by({col("k")}).agg({dsl::len()});
    EXPECT_TRUE(sorted(q, OptFlags()).equals(sorted(q, off))) << q.explain();
  }
}
