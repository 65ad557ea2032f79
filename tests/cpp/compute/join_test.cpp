#include <gtest/gtest.h>

#include <map>

#include "frazil/compute/join.hpp"
#include "frazil/compute/join_table.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/core/error.hpp"
#include "group_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::testing;

namespace {

constexpr IdxSize N = kNullIdx;
using Pairs = std::vector<std::pair<IdxSize, IdxSize>>;

Pairs pairs(const JoinIndices& j) {
  Pairs out;
  EXPECT_EQ(j.left_index.size(), j.right_index.size());
  for (size_t i = 0; i < j.left_index.size(); ++i) out.emplace_back(j.left_index[i], j.right_index[i]);
  return out;
}

// Polars 2.1 (pl.DataFrame.join with maintain_order="left", or "right" for a right join):
//   L.k = [3, 1, 2, 1, null, 5], R.k = [1, 3, 1, null, 4, 3]
const Pairs kInner = {{0, 1}, {0, 5}, {1, 0}, {1, 2}, {3, 0}, {3, 2}};
const Pairs kLeft = {{0, 1}, {0, 5}, {1, 0}, {1, 2}, {2, N}, {3, 0}, {3, 2}, {4, N}, {5, N}};
const Pairs kRight = {{1, 0}, {3, 0}, {0, 1}, {1, 2}, {3, 2}, {N, 3}, {N, 4}, {0, 5}};
const Pairs kFull = {{0, 1}, {0, 5}, {1, 0}, {1, 2}, {2, N}, {3, 0},
                     {3, 2}, {4, N}, {5, N}, {N, 3}, {N, 4}};

// Probing `t` with the Int64 keys `probe` finds, for each, the build rows `rows_of` lists
// (in order), and nothing for a null or a key it does not list.
void expect_probe_finds(const JoinTable& t, const std::vector<std::optional<int64_t>>& probe,
                        const std::map<int64_t, std::vector<IdxSize>>& rows_of) {
  const auto ids = t.probe({i64(probe)});
  for (size_t i = 0; i < probe.size(); ++i) {
    auto it = probe[i] ? rows_of.find(*probe[i]) : rows_of.end();
    if (it == rows_of.end()) {
      EXPECT_EQ(ids[i], kNoId) << i;
      continue;
    }
    ASSERT_NE(ids[i], kNoId) << i;
    EXPECT_EQ(std::vector<IdxSize>(t.rows_begin(ids[i]), t.rows_end(ids[i])), it->second) << i;
  }
}

}  // namespace

TEST(HashJoin, AllTypesWithDuplicatesAndNulls) {
  auto l = i64({3, 1, 2, 1, std::nullopt, 5});
  auto r = i64({1, 3, 1, std::nullopt, 4, 3});
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Inner)), kInner);
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Left)), kLeft);
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Right)), kRight);
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Full)), kFull);
  EXPECT_EQ(hash_join({l}, {r}, JoinType::Semi).left_index, (std::vector<IdxSize>{0, 1, 3}));
  EXPECT_EQ(hash_join({l}, {r}, JoinType::Anti).left_index, (std::vector<IdxSize>{2, 4, 5}));
}

TEST(HashJoin, BuildOnEitherSideGivesTheSameOrder) {
  // Left smaller than right: the table is built on the left and the order must not change.
  // Polars: L.k = [1, 2], R.k = [2, 1, 1, 2, 7, 1].
  auto l = i64({1, 2});
  auto r = i64({2, 1, 1, 2, 7, 1});
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Inner)), (Pairs{{0, 1}, {0, 2}, {0, 5}, {1, 0}, {1, 3}}));
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Left)), (Pairs{{0, 1}, {0, 2}, {0, 5}, {1, 0}, {1, 3}}));
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Right)),
            (Pairs{{1, 0}, {0, 1}, {0, 2}, {1, 3}, {N, 4}, {0, 5}}));
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Full)),
            (Pairs{{0, 1}, {0, 2}, {0, 5}, {1, 0}, {1, 3}, {N, 4}}));
  EXPECT_EQ(hash_join({l}, {r}, JoinType::Semi).left_index, (std::vector<IdxSize>{0, 1}));
  EXPECT_TRUE(hash_join({l}, {r}, JoinType::Anti).left_index.empty());
  // Mirror: the big side on the left; every type against a reversed reference.
  auto big = i64({3, 1, 2, 1, std::nullopt, 5, 9, 9, 9, 1});
  auto small = i64({1, std::nullopt, 9});
  // inner: left order, matches in right order
  EXPECT_EQ(pairs(hash_join({big}, {small}, JoinType::Inner)),
            (Pairs{{1, 0}, {3, 0}, {6, 2}, {7, 2}, {8, 2}, {9, 0}}));
  EXPECT_EQ(pairs(hash_join({small}, {big}, JoinType::Inner)),
            (Pairs{{0, 1}, {0, 3}, {0, 9}, {2, 6}, {2, 7}, {2, 8}}));
  EXPECT_EQ(pairs(hash_join({small}, {big}, JoinType::Full)),
            (Pairs{{0, 1}, {0, 3}, {0, 9}, {1, N}, {2, 6}, {2, 7}, {2, 8},
                   {N, 0}, {N, 2}, {N, 4}, {N, 5}}));
  EXPECT_EQ(pairs(hash_join({big}, {small}, JoinType::Full)),
            (Pairs{{0, N}, {1, 0}, {2, N}, {3, 0}, {4, N}, {5, N}, {6, 2}, {7, 2}, {8, 2},
                   {9, 0}, {N, 1}}));
  EXPECT_EQ(hash_join({small}, {big}, JoinType::Anti).left_index, (std::vector<IdxSize>{1}));
}

TEST(HashJoin, EmptySides) {
  auto e = i64({});
  auto r = i64({1, std::nullopt});
  EXPECT_TRUE(pairs(hash_join({e}, {r}, JoinType::Inner)).empty());
  EXPECT_TRUE(pairs(hash_join({e}, {r}, JoinType::Left)).empty());
  EXPECT_EQ(pairs(hash_join({e}, {r}, JoinType::Right)), (Pairs{{N, 0}, {N, 1}}));
  EXPECT_EQ(pairs(hash_join({e}, {r}, JoinType::Full)), (Pairs{{N, 0}, {N, 1}}));
  EXPECT_EQ(pairs(hash_join({r}, {e}, JoinType::Left)), (Pairs{{0, N}, {1, N}}));
  EXPECT_EQ(pairs(hash_join({r}, {e}, JoinType::Full)), (Pairs{{0, N}, {1, N}}));
  EXPECT_TRUE(hash_join({r}, {e}, JoinType::Semi).left_index.empty());
  EXPECT_EQ(hash_join({r}, {e}, JoinType::Anti).left_index, (std::vector<IdxSize>{0, 1}));
  EXPECT_TRUE(hash_join({e}, {e}, JoinType::Cross).left_index.empty());
}

TEST(HashJoin, Cross) {
  auto l = i64({7, 8});
  auto r = str({"a", "b", "c"});
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Cross)),
            (Pairs{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(pairs(cross_join(1, 2)), (Pairs{{0, 0}, {0, 1}}));
}

TEST(HashJoin, FloatKeysMatchByTotalOrderEquality) {
  // Polars: [1.0, -0.0, NaN, null] join [0.0, NaN, null, 1.0] -> (1,0), (2,1), (0,3).
  auto l = f64({1.0, -0.0, kNaN, std::nullopt});
  auto r = f64({0.0, kNaN, std::nullopt, 1.0});
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Inner)), (Pairs{{0, 3}, {1, 0}, {2, 1}}));
  EXPECT_EQ(pairs(hash_join({sliced(l)}, {sliced(r)}, JoinType::Left)),
            (Pairs{{0, 3}, {1, 0}, {2, 1}, {3, N}}));
}

TEST(HashJoin, StringKeysShortAndLong) {
  std::string la(20, 'x'), lb = std::string(19, 'x') + "y";
  auto l = str({la, "ab", std::nullopt, lb, ""});
  auto r = sliced(str({"", lb, la, "ab", la, std::nullopt}));
  EXPECT_EQ(pairs(hash_join({l}, {r}, JoinType::Inner)),
            (Pairs{{0, 2}, {0, 4}, {1, 3}, {3, 1}, {4, 0}}));
  EXPECT_EQ(pairs(hash_join({r}, {l}, JoinType::Left)),
            (Pairs{{0, 4}, {1, 3}, {2, 0}, {3, 1}, {4, 0}, {5, N}}));
}

TEST(HashJoin, MultiKey) {
  // A null in any key column means no match.
  auto la = i64({1, 1, 2, std::nullopt, 2});
  auto lb = str({"a", "b", "a", "a", std::nullopt});
  auto ra = i64({2, 1, 1, std::nullopt, 2});
  auto rb = str({"a", "b", "a", "a", std::nullopt});
  EXPECT_EQ(pairs(hash_join({la, lb}, {ra, rb}, JoinType::Inner)), (Pairs{{0, 2}, {1, 1}, {2, 0}}));
  EXPECT_EQ(pairs(hash_join({la, lb}, {ra, rb}, JoinType::Full)),
            (Pairs{{0, 2}, {1, 1}, {2, 0}, {3, N}, {4, N}, {N, 3}, {N, 4}}));
  // Fixed-width keys packed into one word: (Int32, Int32) and with nulls.
  auto x1 = i32({1, 2, 3, std::nullopt}), x2 = i32({10, 20, 30, 40});
  auto y1 = i32({3, 1, 1, std::nullopt}), y2 = i32({30, 10, 11, 40});
  EXPECT_EQ(pairs(hash_join({x1, x2}, {y1, y2}, JoinType::Inner)), (Pairs{{0, 1}, {2, 0}}));
  EXPECT_EQ(hash_join({x1, x2}, {y1, y2}, JoinType::Anti).left_index, (std::vector<IdxSize>{1, 3}));
}

TEST(HashJoin, ManyRowsHashTablePath) {
  // Sparse keys (no direct indexing): left i -> key i * 7919 * 1e6, right has every other key
  // twice.
  const int n = 3000;
  PrimitiveBuilder<int64_t> lb(DataType::int64()), rb(DataType::int64());
  for (int i = 0; i < n; ++i) lb.push(int64_t(i) * 7919 * 1000000);
  for (int i = 0; i < n; i += 2) {
    rb.push(int64_t(i) * 7919 * 1000000);
    rb.push(int64_t(i) * 7919 * 1000000);
  }
  auto l = lb.finish(), r = rb.finish();
  JoinIndices j = hash_join({l}, {r}, JoinType::Left);
  ASSERT_EQ(j.left_index.size(), size_t(n / 2 * 2 + n / 2));
  size_t k = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      ASSERT_EQ(j.left_index[k], IdxSize(i));
      ASSERT_EQ(j.right_index[k++], IdxSize(i));
      ASSERT_EQ(j.left_index[k], IdxSize(i));
      ASSERT_EQ(j.right_index[k++], IdxSize(i + 1));
    } else {
      ASSERT_EQ(j.left_index[k], IdxSize(i));
      ASSERT_EQ(j.right_index[k++], N);
    }
  }
}

TEST(HashJoin, Errors) {
  EXPECT_THROW(hash_join({i64({1})}, {i32({1})}, JoinType::Inner), SchemaError);
  EXPECT_THROW(hash_join({i64({1})}, {}, JoinType::Inner), InvalidOperationError);
  EXPECT_STREQ(join_type_name(JoinType::Anti), "ANTI");
}

TEST(JoinTable, BuildIdsRowsAndConcurrentProbes) {
  // Build keys 5, 7, 5, null, 9: ids in order of first appearance, rows per id ascending.
  JoinTable t({i64({5, 7, 5, std::nullopt, 9})});
  EXPECT_EQ(t.build_rows(), 5);
  EXPECT_EQ(t.num_ids(), 3u);
  EXPECT_EQ(std::vector<uint32_t>(t.build_ids().begin(), t.build_ids().end()), (std::vector<uint32_t>{0, 1, 0, kNoId, 2}));
  EXPECT_EQ(std::vector<IdxSize>(t.rows_begin(0), t.rows_end(0)), (std::vector<IdxSize>{0, 2}));
  EXPECT_EQ(t.match_count(2), 1u);
  EXPECT_FALSE(t.unique_keys());
  EXPECT_TRUE(JoinTable({i64({1, 2, std::nullopt})}).unique_keys());
  // Probing from many threads at once gives what one thread gets.
  auto probe = i64({9, std::nullopt, 5, 6, 7, 5});
  const std::vector<uint32_t> want{2, kNoId, 0, kNoId, 1, 0};
  std::vector<std::vector<uint32_t>> got(64);
  parallel_for(got.size(), [&](size_t i) { got[i] = t.probe({probe}); });
  for (const auto& g : got) EXPECT_EQ(g, want);
  // Key dtypes must pair up; an empty build side matches nothing.
  EXPECT_THROW(t.probe({str({"a"})}), SchemaError);
  EXPECT_EQ(JoinTable({i64({})}).probe({probe}), std::vector<uint32_t>(6, kNoId));
}

TEST(JoinTable, StringAndMultiKeysProbeSlicedChunks) {
  const std::string la = "a string longer than twelve bytes";
  JoinTable t({str({la, "x", std::nullopt}), i64({1, 2, 3})});
  EXPECT_EQ(t.num_ids(), 2u);
  auto ps = sliced(str({la, la, "x", std::nullopt}));
  auto pi = sliced(i64({1, 2, 2, 3}));
  EXPECT_EQ(t.probe({ps, pi}), (std::vector<uint32_t>{0, kNoId, 1, kNoId}));
}

TEST(JoinTable, BigBuildsArePartitionedAndAgreeWithAMap) {
  // 200k build rows (past the partitioned-build threshold when there are threads):
  // keys k % 70000 (spread out so no direct table fits), every 13th null; strings too.
  const int64_t n = 200000;
  std::vector<std::optional<int64_t>> ints(n);
  std::vector<std::optional<std::string>> strs(n);
  for (int64_t i = 0; i < n; ++i) {
    if (i % 13 == 0) continue;
    ints[i] = (i % 70000) * 1000003;
    strs[i] = "key-" + std::to_string(i % 70000) + "-long-enough";
  }
  for (int which = 0; which < 2; ++which) {
    ArrayRef build = which == 0 ? i64(ints) : str(strs);
    {
      // Recycled scratch blocks hold old bytes: dirty them so that an id left unwritten
      // (a null row's) would show.
      std::vector<ScratchVector<uint32_t>> dirt;
      for (size_t bytes = 256 << 10; bytes <= (size_t{8} << 20); bytes *= 2) dirt.emplace_back(bytes / 4, 12345u);
    }
    JoinTable t({build});
    for (int64_t i = 0; i < n; ++i)
      if (!ints[i]) ASSERT_EQ(t.build_ids()[i], kNoId) << i;
    // Reference: rows per key in ascending order.
    std::map<int64_t, std::vector<IdxSize>> rows_of;
    for (int64_t i = 0; i < n; ++i)
      if (ints[i]) rows_of[*ints[i] / 1000003].push_back(static_cast<IdxSize>(i));
    EXPECT_EQ(t.num_ids(), rows_of.size());
    // Probe every key once, a missing key, and a null.
    std::vector<std::optional<int64_t>> pi;
    std::vector<std::optional<std::string>> ps;
    for (int64_t k = 0; k < 70001; ++k) {
      pi.push_back(k * 1000003);
      ps.push_back("key-" + std::to_string(k) + "-long-enough");
    }
    pi.push_back(std::nullopt);
    ps.push_back(std::nullopt);
    const auto ids = t.probe({which == 0 ? i64(pi) : str(ps)});
    for (int64_t k = 0; k < 70001; ++k) {
      auto it = rows_of.find(k);
      if (it == rows_of.end()) {
        EXPECT_EQ(ids[k], kNoId) << k;
        continue;
      }
      ASSERT_NE(ids[k], kNoId) << k;
      EXPECT_EQ(std::vector<IdxSize>(t.rows_begin(ids[k]), t.rows_end(ids[k])), it->second) << k;
      for (IdxSize r : it->second) EXPECT_EQ(t.build_ids()[r], ids[k]);
    }
    EXPECT_EQ(ids.back(), kNoId);
  }
}

TEST(JoinTable, SparseIntegerKeysWithinEightTimesTheRowsAreIndexedDirectly) {
  // Keys every 7th value over a range of ~7 * 600k (beyond the small direct tables, within
  // 8 times the build rows), duplicates, nulls and negative keys; probes below, inside and
  // above the range must agree with a map.
  const int64_t n = 600000;
  std::vector<std::optional<int64_t>> keys(n);
  std::map<int64_t, std::vector<IdxSize>> rows_of;
  for (int64_t i = 0; i < n; ++i) {
    if (i % 17 == 0) continue;
    keys[i] = (i % 550000) * 7 - 1000;
    rows_of[*keys[i]].push_back(static_cast<IdxSize>(i));
  }
  JoinTable t({i64(keys)});
  EXPECT_EQ(t.num_ids(), rows_of.size());
  std::vector<std::optional<int64_t>> probe{std::nullopt, -1000, -1001, -993, 6, 550000LL * 7, 1LL << 40,
                                            INT64_MIN, (549999LL * 7) - 1000};
  expect_probe_finds(t, probe, rows_of);
}

TEST(JoinTable, PresenceBitsTurnAwayAbsentKeysOnly) {
  // 1000 keys 50,000 apart (a range too wide for a direct table, narrow enough for
  // presence bits), with duplicates and nulls; probes hit, fall between keys, fall outside
  // the range on both sides, or are null.
  std::vector<std::optional<int64_t>> keys;
  std::map<int64_t, std::vector<IdxSize>> rows_of;
  for (int64_t i = 0; i < 1500; ++i) {
    if (i % 9 == 4) {
      keys.push_back(std::nullopt);
      continue;
    }
    const int64_t k = (i % 1000) * 50000 - 7;
    keys.push_back(k);
    rows_of[k].push_back(static_cast<IdxSize>(i));
  }
  JoinTable t({i64(keys)});
  std::vector<std::optional<int64_t>> probe;
  for (int64_t k = -100000; k < 1000 * 50000 + 100000; k += 12497) probe.push_back(k);
  for (const auto& [k, rows] : rows_of) probe.push_back(k);
  probe.push_back(std::nullopt);
  probe.push_back(INT64_MAX);
  expect_probe_finds(t, probe, rows_of);
}

TEST(JoinTable, MembershipProbesSurviveDroppingTheRowLists) {
  // Integer (direct and hashed), two-integer and string keys: after drop_row_lists() the
  // probe gives the ids it gave before.
  std::vector<std::optional<int64_t>> spread, dense;
  std::vector<std::optional<std::string>> strs;
  for (int64_t i = 0; i < 3000; ++i) {
    spread.push_back(i % 11 == 0 ? std::nullopt : std::optional<int64_t>((i % 900) * 1000003));
    dense.push_back(i % 7);
    strs.push_back(i % 13 == 0 ? std::nullopt : std::optional<std::string>("a string key " + std::to_string(i % 500)));
  }
  const std::vector<std::vector<ArrayRef>> builds = {{i64(spread)}, {i64(dense)}, {i64(spread), i64(dense)}, {str(strs)}};
  for (const auto& keys : builds) {
    JoinTable t(keys);
    const auto before = t.probe(keys);
    const uint32_t ids = t.num_ids();
    t.drop_row_lists();
    EXPECT_EQ(t.num_ids(), ids);
    EXPECT_EQ(t.probe(keys), before);
  }
}
