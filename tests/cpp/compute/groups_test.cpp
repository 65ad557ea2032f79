#include <gtest/gtest.h>

#include <map>

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/core/error.hpp"
#include "group_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::testing;

using Ids = std::vector<IdxSize>;
// Group ids as a plain vector, to compare with Ids literals.
Ids ids(const ScratchVector<IdxSize>& v) { return Ids(v.begin(), v.end()); }

TEST(GroupRows, SingleInt64WithNulls) {
  auto k = i64({5, std::nullopt, 7, 5, std::nullopt, 9, 7});
  Groups g = group_rows({k});
  EXPECT_EQ(ids(g.group_ids), (Ids{0, 1, 2, 0, 1, 3, 2}));
  EXPECT_EQ(g.first_rows, (Ids{0, 1, 2, 5}));
  Groups gs = group_rows({sliced(k)});
  EXPECT_EQ(gs.group_ids, g.group_ids);
  EXPECT_EQ(gs.first_rows, g.first_rows);
}

TEST(GroupRows, EmptyAndOneRow) {
  Groups e = group_rows({i64({})});
  EXPECT_TRUE(e.group_ids.empty());
  EXPECT_EQ(e.num_groups(), 0u);
  Groups one = group_rows({str({std::nullopt})});
  EXPECT_EQ(ids(one.group_ids), (Ids{0}));
  EXPECT_EQ(one.first_rows, (Ids{0}));
  EXPECT_EQ(group_rows({}).num_groups(), 0u);
}

TEST(GroupRows, LargeSparseInt64UsesHashTable) {
  // Values spread far apart (no direct indexing) and many groups (table growth).
  PrimitiveBuilder<int64_t> b(DataType::int64());
  const int n = 20000;
  for (int i = 0; i < n; ++i) b.push(static_cast<int64_t>((i % 5000) * 1000003LL - 7'000'000'000LL));
  Groups g = group_rows({b.finish()});
  ASSERT_EQ(g.num_groups(), 5000u);
  for (int i = 0; i < n; ++i) ASSERT_EQ(g.group_ids[i], static_cast<IdxSize>(i % 5000));
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(g.first_rows[i], static_cast<IdxSize>(i));
}

TEST(GroupRows, FloatsNegativeZeroAndNaN) {
  // Polars: group_by on [0.0, -0.0, NaN, null, NaN, 1.0] gives groups 0.0 [0,1], NaN [2,4],
  // null [3], 1.0 [5].
  auto k = f64({0.0, -0.0, kNaN, std::nullopt, -kNaN, 1.0});
  Groups g = group_rows({k});
  EXPECT_EQ(ids(g.group_ids), (Ids{0, 0, 1, 2, 1, 3}));
  EXPECT_EQ(g.first_rows, (Ids{0, 2, 3, 5}));
  auto k32 = f32({-0.0f, 0.0f, std::nanf(""), std::nanf("")});
  EXPECT_EQ(ids(group_rows({sliced(k32)}).group_ids), (Ids{0, 0, 1, 1}));
  // In a multi-key set, too.
  auto k2 = i32({1, 1, 1, 1, 1, 1});
  EXPECT_EQ(ids(group_rows({k, k2}).group_ids), (Ids{0, 0, 1, 2, 1, 3}));
}

TEST(GroupRows, StringsShortAndLong) {
  std::string long_a = "a string longer than twelve bytes";
  std::string long_b = "a string longer than twelve bytez";  // same prefix and length
  auto k = str({"x", long_a, std::nullopt, "", long_b, long_a, "x", "", std::nullopt,
                "twelve bytes", "twelve byte"});
  Groups g = group_rows({k});
  EXPECT_EQ(ids(g.group_ids), (Ids{0, 1, 2, 3, 4, 1, 0, 3, 2, 5, 6}));
  EXPECT_EQ(g.first_rows, (Ids{0, 1, 2, 3, 4, 9, 10}));
  EXPECT_EQ(group_rows({sliced(k)}).group_ids, g.group_ids);
}

TEST(GroupRows, MultiKeyPackedAndNulls) {
  // Two Int32 keys (packed into 64 bits + null bits -> 128-bit path).
  auto a = i32({1, 1, 2, std::nullopt, 1, std::nullopt, 2});
  auto b = i32({7, 8, 7, 7, 7, 7, std::nullopt});
  Groups g = group_rows({a, b});
  EXPECT_EQ(ids(g.group_ids), (Ids{0, 1, 2, 3, 0, 3, 4}));
  EXPECT_EQ(g.first_rows, (Ids{0, 1, 2, 3, 6}));
  // null in one key is not the same as 0 in it
  auto z = i32({0, std::nullopt});
  auto o = i32({5, 5});
  EXPECT_EQ(ids(group_rows({z, o}).group_ids), (Ids{0, 1}));
  EXPECT_EQ(group_rows({sliced(a), sliced(b)}).group_ids, g.group_ids);
  // Without nulls: 64-bit packing.
  auto c = make_array<int16_t>(DataType::int16(), {-1, 1, -1, 1});
  auto d = boolean({true, true, true, false});
  EXPECT_EQ(ids(group_rows({c, d}).group_ids), (Ids{0, 1, 0, 2}));
}

TEST(GroupRows, MultiKeyWithStringsRowEncoded) {
  std::string long_a(40, 'q');
  auto s = str({"a", long_a, "a", std::nullopt, long_a, std::nullopt, "a"});
  auto v = i64({1, 2, 1, 3, 2, 3, 2});
  auto w = f64({0.0, 1.0, -0.0, kNaN, 1.0, kNaN, 0.0});
  Groups g = group_rows({s, v, w});
  EXPECT_EQ(ids(g.group_ids), (Ids{0, 1, 0, 2, 1, 2, 3}));
  // "ab" + 1 must differ from "a" + "b..." style ambiguities: length prefixes keep keys apart
  auto s1 = str({"ab", "a"});
  auto s2 = str({"c", "bc"});
  EXPECT_EQ(ids(group_rows({s1, s2}).group_ids), (Ids{0, 1}));
  EXPECT_EQ(group_rows({sliced(s), sliced(v), sliced(w)}).group_ids, g.group_ids);
}

TEST(GroupRows, BooleanAndNullDtype) {
  auto b = boolean({true, std::nullopt, false, true});
  EXPECT_EQ(ids(group_rows({b}).group_ids), (Ids{0, 1, 2, 0}));
  auto nul = make_null_array(DataType::null(), 3);
  EXPECT_EQ(ids(group_rows({nul}).group_ids), (Ids{0, 0, 0}));
  EXPECT_EQ(ids(group_rows({nul, i64({1, 2, 1})}).group_ids), (Ids{0, 1, 0}));
}

TEST(GroupRows, ShapeMismatchThrows) {
  EXPECT_THROW(group_rows({i64({1, 2}), i64({1})}), ShapeError);
}

TEST(UniqueRows, KeepModes) {
  // Polars: df{a:[1,2,1,3,2,null,null], b:[x,y,x,z,w,null,null]}.unique(keep=...,
  // maintain_order=True) row indices: first [0,1,3,4,5], last [1,2,3,4,6], any
  // [0,1,3,4,5], none [1,3,4].
  auto a = i64({1, 2, 1, 3, 2, std::nullopt, std::nullopt});
  auto b = str({"x", "y", "x", "z", "w", std::nullopt, std::nullopt});
  EXPECT_EQ(unique_rows({a, b}, "first"), (Ids{0, 1, 3, 4, 5}));
  EXPECT_EQ(unique_rows({a, b}, "last"), (Ids{1, 2, 3, 4, 6}));
  EXPECT_EQ(unique_rows({a, b}, "any"), (Ids{0, 1, 3, 4, 5}));
  EXPECT_EQ(unique_rows({a, b}, "none"), (Ids{1, 3, 4}));
  EXPECT_EQ(unique_rows({sliced(a)}, "last"), (Ids{2, 3, 4, 6}));
  EXPECT_TRUE(unique_rows({i64({})}, "first").empty());
  EXPECT_THROW(unique_rows({a}, "middle"), InvalidOperationError);
}

TEST(Hash, EqualValuesHashEquallyAcrossChunksAndOffsets) {
  auto a = f64({0.0, kNaN, 1.5, std::nullopt});
  auto b = f64({-0.0, -kNaN, 1.5, std::nullopt});
  auto ha = hash_rows({a});
  auto hb = hash_rows({sliced(b)});
  EXPECT_EQ(ha, hb);
  EXPECT_NE(ha[0], ha[2]);
  std::string longs(30, 'z');
  auto s1 = str({"abc", longs, std::nullopt});
  auto s2 = concat_arrays({str({"zz"}), str({"abc", longs, std::nullopt})})->slice(1, 3);
  EXPECT_EQ(hash_rows({s1}), hash_rows({s2}));
  // combining is order dependent
  auto x = i64({1}), y = i64({2});
  EXPECT_NE(hash_rows({x, y}), hash_rows({y, x}));
}

TEST(Hash, ValuesEqual) {
  auto a = f64({0.0, kNaN, std::nullopt, 2.0});
  auto b = f64({-0.0, kNaN, std::nullopt, 3.0});
  EXPECT_TRUE(values_equal(*a, 0, *b, 0));
  EXPECT_TRUE(values_equal(*a, 1, *b, 1));
  EXPECT_TRUE(values_equal(*a, 2, *b, 2));
  EXPECT_FALSE(values_equal(*a, 3, *b, 3));
  EXPECT_FALSE(values_equal(*a, 2, *b, 3));
  auto s = str({"hello", "hello there, general"});
  auto t = sliced(str({"hello", "hello there, general"}));
  EXPECT_TRUE(values_equal(*s, 1, *t, 1));
  EXPECT_FALSE(values_equal(*s, 0, *t, 1));
}

TEST(GroupRows, SortedKeysGroupByRunsLikeTheHashTable) {
  using V = std::vector<IdxSize>;
  // Ascending, descending and constant keys take the run path; the ids are still the
  // first-appearance ids the hash table gives.
  Groups asc = group_rows({i64({-3, -3, 0, 5, 5, 5, 9})});
  EXPECT_EQ(ids(asc.group_ids), (V{0, 0, 1, 2, 2, 2, 3}));
  EXPECT_EQ(asc.first_rows, (V{0, 2, 3, 6}));
  Groups desc = group_rows({i64({9, 9, 4, -1})});
  EXPECT_EQ(ids(desc.group_ids), (V{0, 0, 1, 2}));
  Groups same = group_rows({i64({7, 7, 7})});
  EXPECT_EQ(ids(same.group_ids), (V{0, 0, 0}));
  EXPECT_EQ(same.first_rows, (V{0}));
  // Disorder at the very end, and a value coming back after another: the hash path.
  Groups late = group_rows({i64({1, 2, 3, 1})});
  EXPECT_EQ(ids(late.group_ids), (V{0, 1, 2, 0}));
  EXPECT_EQ(late.first_rows, (V{0, 1, 2}));
  // -0.0 and 0.0 are one key whichever path runs; nulls take the hash path.
  Groups zeros = group_rows({f64({-0.0, 0.0, 1.0})});
  EXPECT_EQ(ids(zeros.group_ids), (V{0, 0, 1}));
  Groups nulls = group_rows({i64({1, 1, std::nullopt, std::nullopt, 2})});
  EXPECT_EQ(ids(nulls.group_ids), (V{0, 0, 1, 1, 2}));
  // Several packed keys, sorted as a pair.
  Groups pairs = group_rows({i64({1, 1, 1, 2}), i64({5, 5, 6, 0})});
  EXPECT_EQ(ids(pairs.group_ids), (V{0, 0, 1, 2}));
}

// Scratch vectors are not zeroed: recycled blocks hold old bytes. Dirty the block cache
// with all-ones words, then group and join keys big enough to take recycled blocks; the
// results must match small-scale expectations (every key word assigned, no stale bits).
TEST(GroupRows, RecycledScratchHoldsNoStaleKeys) {
  const int64_t n = 100000;  // 800 KB of u64 keys: cached block classes
  for (int round = 0; round < 3; ++round) {
    {
      std::vector<ScratchVector<uint64_t>> dirt;
      for (size_t bytes = 256 << 10; bytes <= (size_t{4} << 20); bytes *= 2) {
        dirt.emplace_back(bytes / 8, ~uint64_t{0});
        dirt.emplace_back(bytes / 8 - 1, ~uint64_t{0});
      }
    }
    PrimitiveBuilder<int32_t> a(DataType::int32()), b(DataType::int32());
    for (int64_t i = 0; i < n; ++i) {
      // First key nullable (its null bits are packed first), second plain.
      if (i % 11 == 3) a.push_null();
      else a.push(static_cast<int32_t>(i % 3));
      b.push(static_cast<int32_t>((i / 7) % 2));
    }
    ArrayRef ka = a.finish(), kb = b.finish();
    Groups g = group_rows({ka, kb});
    EXPECT_EQ(g.num_groups(), 8u);  // (0|1|2|null) x (0|1)
    Groups one = group_rows({ka});
    EXPECT_EQ(one.num_groups(), 4u);
    auto nul = make_null_array(DataType::null(), n);
    EXPECT_EQ(group_rows({nul}).num_groups(), 1u);
    EXPECT_EQ(group_rows({nul, nul}).num_groups(), 1u);
    EXPECT_EQ(group_rows({nul, kb}).num_groups(), 2u);
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(g.group_ids[i], g.group_ids[g.first_rows[g.group_ids[i]]]);
      ASSERT_EQ(ka->is_null(i), ka->is_null(g.first_rows[g.group_ids[i]]));
    }
  }
}

// Strings of at most 7 bytes group as packed integers; a longer one anywhere (8, 12, 13
// bytes) sends the column down the byte-key path. Both give first-appearance ids.
TEST(GroupRows, ShortStringsPackLikeByteKeys) {
  auto k = str({"", "a", "abcd", "abcdefg", std::nullopt, "a", "", "abcdefg", "abcdeff", std::nullopt, "a\0"});
  Groups g = group_rows({k});
  EXPECT_EQ(ids(g.group_ids), (Ids{0, 1, 2, 3, 4, 1, 0, 3, 5, 4, 1}));
  EXPECT_EQ(g.first_rows, (Ids{0, 1, 2, 3, 4, 8}));
  EXPECT_EQ(group_rows({sliced(k)}).group_ids, g.group_ids);
  // "a" and "a\0" (2 bytes) are different keys.
  auto z = str({"a", std::string("a\0", 2), "a", std::string("\0", 1), ""});
  EXPECT_EQ(ids(group_rows({z}).group_ids), (Ids{0, 1, 0, 2, 3}));
  for (const std::string longer : {"abcdefgh", "abcdefghijkl", "abcdefghijklm"}) {
    auto m = str({"x", longer, std::nullopt, "x", "", longer});
    EXPECT_EQ(ids(group_rows({m}).group_ids), (Ids{0, 1, 2, 0, 3, 1})) << longer;
  }
  EXPECT_EQ(group_rows({str({})}).num_groups(), 0u);
  EXPECT_EQ(ids(group_rows({str({"abcd"})}).group_ids), (Ids{0}));
  EXPECT_EQ(ids(group_rows({str({std::nullopt})}).group_ids), (Ids{0}));
  // A null row's view is never read: junk there (a long length) changes nothing.
  Buffer views = Buffer::allocate(3 * sizeof(View));
  View* v = views.mutable_as<View>();
  v[0] = View::make_inline("ab", 2);
  v[1] = View::make_inline("", 0);
  v[1].length = 99;
  v[2] = View::make_inline("ab", 2);
  Buffer valid = Buffer::zeroed(1);
  set_bit(valid.mutable_data(), 0);
  set_bit(valid.mutable_data(), 2);
  auto junk = Array::make(DataType::string(), 3, valid, {views});
  EXPECT_EQ(ids(group_rows({junk}).group_ids), (Ids{0, 1, 0}));
}

// Several string keys are grouped one by one and their ids packed: by cardinality into 8,
// 16 or 32 bits. The combined ids still follow first appearance.
TEST(GroupRows, SeveralStringKeysOfEveryCardinality) {
  for (int distinct : {1, 3, 256, 257, 70000}) {
    const int n = std::max(2 * distinct, 1000);
    std::vector<std::optional<std::string>> a, b;
    std::vector<std::optional<int64_t>> c;
    for (int i = 0; i < n; ++i) {
      a.push_back(i % 7 == 6 ? std::nullopt : std::optional<std::string>("k" + std::to_string(i % distinct)));
      b.push_back(i % 2 ? "R" : "AF");
      c.push_back(i % 3);
    }
    auto ka = str(a), kb = str(b), kc = i64(c);
    for (const auto& keys : {std::vector<ArrayRef>{ka, kb}, std::vector<ArrayRef>{kb, ka, kc}}) {
      Groups g = group_rows(keys);
      // Reference: first appearance over the tuples.
      std::map<std::vector<std::string>, IdxSize> seen;
      for (int i = 0; i < n; ++i) {
        std::vector<std::string> t;
        for (const auto& k : keys) t.push_back(k->is_null(i) ? "<null>" : std::string(k->dtype().is_view() ? k->str_value(i) : std::to_string(k->values<int64_t>()[i])));
        auto [it, added] = seen.try_emplace(t, static_cast<IdxSize>(seen.size()));
        ASSERT_EQ(g.group_ids[i], it->second) << distinct << " row " << i;
      }
      EXPECT_EQ(g.num_groups(), seen.size());
    }
  }
}

TEST(Groups, OneGroupPerRow) {
  const Groups g = one_group_per_row(3);
  EXPECT_EQ(std::vector<IdxSize>(g.group_ids.begin(), g.group_ids.end()), (std::vector<IdxSize>{0, 1, 2}));
  EXPECT_EQ(g.first_rows, (std::vector<IdxSize>{0, 1, 2}));
  EXPECT_EQ(one_group_per_row(0).num_groups(), 0u);
}
