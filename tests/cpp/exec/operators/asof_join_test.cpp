// The asof matching alone (strategies, exact matches, tolerance, groups, duplicates, an
// unsorted left side) and the AsofJoin node end to end (schema, sortedness error, explain).
#include "frazil/exec/operators/asof_join.hpp"

#include <cmath>

#include "../exec_test_util.hpp"

using namespace frazil;
using namespace frazil::exec_test;
using compute::IdxSize;
using compute::kNullIdx;
using dsl::AsofJoinOptions;
using dsl::AsofStrategy;
using dsl::col;

namespace {

constexpr IdxSize N = kNullIdx;

std::vector<IdxSize> run(const std::vector<int64_t>& l, const std::vector<int64_t>& r, AsofStrategy s,
                         bool exact = true, std::optional<double> tol = std::nullopt) {
  AsofJoinOptions o;
  o.strategy = s;
  o.allow_exact_matches = exact;
  o.tolerance = tol;
  return exec::asof::match<int64_t>(l.data(), static_cast<int64_t>(l.size()), r.data(),
                                    static_cast<int64_t>(r.size()), nullptr, nullptr, 1, o);
}

DataFrame ints(std::vector<std::pair<std::string, std::vector<std::optional<int64_t>>>> cols) {
  std::vector<Column> out;
  for (auto& [name, values] : cols) {
    PrimitiveBuilder<int64_t> b(DataType::int64());
    for (auto v : values) v ? b.push(*v) : b.push_null();
    out.emplace_back(name, b.finish());
  }
  return DataFrame(std::move(out));
}

std::vector<std::optional<int64_t>> values(const DataFrame& df, const std::string& name) {
  const ArrayRef a = df.column(name).as_array();
  std::vector<std::optional<int64_t>> out;
  for (int64_t i = 0; i < a->length(); ++i)
    out.push_back(a->is_null(i) ? std::nullopt : std::optional<int64_t>(a->values<int64_t>()[i]));
  return out;
}

}  // namespace

// Right keys 1 3 3 6 (rows 0..3); duplicates: backward takes the last, forward the first.
TEST(AsofMatch, Strategies) {
  const std::vector<int64_t> l{0, 1, 2, 3, 5, 6, 9}, r{1, 3, 3, 6};
  EXPECT_EQ(run(l, r, AsofStrategy::Backward), (std::vector<IdxSize>{N, 0, 0, 2, 2, 3, 3}));
  EXPECT_EQ(run(l, r, AsofStrategy::Forward), (std::vector<IdxSize>{0, 0, 1, 1, 3, 3, N}));
  // Nearest: ties go to the larger key, and of equal keys the last.
  EXPECT_EQ(run(l, r, AsofStrategy::Nearest), (std::vector<IdxSize>{0, 0, 2, 2, 3, 3, 3}));
}

TEST(AsofMatch, NoExactMatches) {
  const std::vector<int64_t> l{1, 3, 6}, r{1, 3, 3, 6};
  EXPECT_EQ(run(l, r, AsofStrategy::Backward, false), (std::vector<IdxSize>{N, 0, 2}));
  EXPECT_EQ(run(l, r, AsofStrategy::Forward, false), (std::vector<IdxSize>{1, 3, N}));
  // Nearest without equal keys: of the first larger keys, the last (Polars).
  EXPECT_EQ(run(l, r, AsofStrategy::Nearest, false), (std::vector<IdxSize>{2, 0, 2}));
}

TEST(AsofMatch, Tolerance) {
  const std::vector<int64_t> l{2, 5, 10}, r{1, 7};
  EXPECT_EQ(run(l, r, AsofStrategy::Backward, true, 1.0), (std::vector<IdxSize>{0, N, N}));
  EXPECT_EQ(run(l, r, AsofStrategy::Forward, true, 2.0), (std::vector<IdxSize>{N, 1, N}));
  EXPECT_EQ(run(l, r, AsofStrategy::Nearest, true, 3.0), (std::vector<IdxSize>{0, 1, 1}));
}

// A left side out of order (check_sortedness off) is found by binary search, row by row.
TEST(AsofMatch, UnsortedLeftKeys) {
  EXPECT_EQ(run({5, 1, 7, 0, 3}, {1, 3, 6}, AsofStrategy::Backward), (std::vector<IdxSize>{1, 0, 2, N, 1}));
}

TEST(AsofMatch, EmptySides) {
  EXPECT_EQ(run({1, 2}, {}, AsofStrategy::Nearest), (std::vector<IdxSize>{N, N}));
  EXPECT_TRUE(run({}, {1}, AsofStrategy::Backward).empty());
}

// Groups: each left row sees its own group's right rows only; kNullIdx rows take no part.
TEST(AsofMatch, Groups) {
  const std::vector<int64_t> l{1, 2, 3, 4}, r{0, 1, 2, 3};
  const std::vector<IdxSize> lg{0, 1, 0, N}, rg{1, 0, N, 0};
  AsofJoinOptions o;
  auto got = exec::asof::match<int64_t>(l.data(), 4, r.data(), 4, lg.data(), rg.data(), 2, o);
  EXPECT_EQ(got, (std::vector<IdxSize>{1, 0, 3, N}));
}

// Many rows on several ranges: the cursors agree with a binary search per row.
TEST(AsofMatch, ManyRowsMatchBinarySearch) {
  std::vector<int64_t> l, r;
  for (int64_t i = 0; i < 300000; ++i) l.push_back(i * 3);
  for (int64_t i = 0; i < 200000; ++i) r.push_back(i * 4 + 1);
  const auto got = run(l, r, AsofStrategy::Backward);
  for (size_t i = 0; i < l.size(); i += 997) {
    const int64_t p = std::upper_bound(r.begin(), r.end(), l[i]) - r.begin() - 1;
    ASSERT_EQ(got[i], p < 0 ? N : static_cast<IdxSize>(p)) << "row " << i;
  }
}

TEST(AsofMatch, FloatsNaNLast) {
  const std::vector<double> l{-0.0, 0.5, std::nan("")}, r{0.0, 1.0};
  AsofJoinOptions o;
  auto got = exec::asof::match<double>(l.data(), 3, r.data(), 2, nullptr, nullptr, 1, o);
  EXPECT_EQ(got, (std::vector<IdxSize>{0, 0, 1}));
}

// The node end to end: null keys match nothing, the right key column coalesces into the
// left one, a colliding right column is suffixed.
TEST(AsofJoinNode, EndToEnd) {
  DataFrame left = ints({{"t", {std::nullopt, 1, 4}}, {"v", {10, 11, 12}}});
  DataFrame right = ints({{"t", {std::nullopt, 0, 2}}, {"v", {22, 20, 21}}});
  LazyFrame q = LazyFrame::from_frame(left).join_asof(LazyFrame::from_frame(right), col("t"), col("t"));
  DataFrame out = q.collect();
  EXPECT_EQ(out.names(), (std::vector<std::string>{"t", "v", "v_right"}));
  EXPECT_EQ(values(out, "v_right"), (std::vector<std::optional<int64_t>>{std::nullopt, 20, 21}));
  EXPECT_TRUE(contains(q.explain(), "ASOF JOIN:\nLEFT PLAN ON: [col(\"t\")]"));
  EXPECT_TRUE(contains(q.explain(), "END ASOF JOIN"));
}

TEST(AsofJoinNode, UnsortedKeyRaises) {
  DataFrame left = ints({{"t", {3, 1}}});
  DataFrame right = ints({{"t", {0, 2}}, {"w", {1, 2}}});
  LazyFrame q = LazyFrame::from_frame(left).join_asof(LazyFrame::from_frame(right), col("t"), col("t"));
  EXPECT_THROW(q.collect(), InvalidOperationError);
  AsofJoinOptions o;
  o.check_sortedness = false;
  EXPECT_NO_THROW(LazyFrame::from_frame(left).join_asof(LazyFrame::from_frame(right), col("t"), col("t"), o).collect());
}

// A filter on left columns moves onto the left input; one on right columns stays above.
TEST(AsofJoinNode, PredicateAndProjectionPushdown) {
  DataFrame left = ints({{"t", {1, 2, 3}}, {"a", {1, 2, 3}}, {"b", {4, 5, 6}}});
  DataFrame right = ints({{"t", {1, 2}}, {"w", {7, 8}}, {"z", {0, 0}}});
  LazyFrame q = LazyFrame::from_frame(left)
                    .join_asof(LazyFrame::from_frame(right), col("t"), col("t"))
                    .filter(col("a") > dsl::lit(int64_t{1}))
                    .filter(col("w") > dsl::lit(int64_t{7}))
                    .select({col("a"), col("w")});
  const std::string plan = q.explain();
  const size_t asof = plan.find("ASOF JOIN");
  EXPECT_NE(asof, std::string::npos);
  EXPECT_TRUE(contains(plan, "PROJECT[\"t\", \"a\"] 2/3 COLUMNS; SELECTION: col(\"a\") > 1")) << plan;
  EXPECT_TRUE(contains(plan, "PROJECT[\"t\", \"w\"] 2/3 COLUMNS\n")) << plan;
  EXPECT_LT(plan.find("FILTER col(\"w\") > 7"), asof) << plan;
  DataFrame out = q.collect();
  EXPECT_EQ(values(out, "a"), (std::vector<std::optional<int64_t>>{2, 3}));
  EXPECT_EQ(values(out, "w"), (std::vector<std::optional<int64_t>>{8, 8}));
}

// The branch-free merge (left keys known sorted) agrees with the cursors, with duplicates.
TEST(AsofMatch, SortedMergeAgreesWithCursors) {
  std::vector<int64_t> l, r;
  for (int64_t i = 0; i < 200000; ++i) l.push_back(i / 3);
  for (int64_t i = 0; i < 150000; ++i) r.push_back((i * 7) / 10);
  for (AsofStrategy s : {AsofStrategy::Backward, AsofStrategy::Forward})
    for (bool exact : {true, false})
      for (std::optional<double> tol : {std::optional<double>(), std::optional<double>(1.0)}) {
        AsofJoinOptions o;
        o.strategy = s;
        o.allow_exact_matches = exact;
        o.tolerance = tol;
        auto merged = exec::asof::match<int64_t>(l.data(), 200000, r.data(), 150000, nullptr, nullptr, 1, o, true);
        auto cursors = exec::asof::match<int64_t>(l.data(), 200000, r.data(), 150000, nullptr, nullptr, 1, o, false);
        ASSERT_EQ(merged, cursors) << dsl::asof_strategy_name(s) << " exact " << exact;
      }
}
