#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "frazil/compute/sort.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"
#include "group_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::testing;

using Ids = std::vector<IdxSize>;

namespace {
SortOptions opts(std::vector<bool> desc, std::vector<bool> nulls_last, int64_t limit = -1) {
  SortOptions o;
  o.descending = std::move(desc);
  o.nulls_last = std::move(nulls_last);
  o.stable = true;
  o.limit = limit;
  return o;
}
}  // namespace

TEST(ArgSort, FloatsWithNullsNaNAndZeros) {
  // Polars: s = [3.0, None, nan, -0.0, 0.0, 1.0, nan, None, -1.0]
  //   arg_sort()                               [1, 7, 8, 3, 4, 5, 0, 2, 6]
  //   arg_sort(descending=True)                [1, 7, 2, 6, 0, 5, 3, 4, 8]
  //   arg_sort(nulls_last=True)                [8, 3, 4, 5, 0, 2, 6, 1, 7]
  //   arg_sort(descending=True, nulls_last=True) [2, 6, 0, 5, 3, 4, 8, 1, 7]
  auto s = f64({3.0, std::nullopt, kNaN, -0.0, 0.0, 1.0, kNaN, std::nullopt, -1.0});
  EXPECT_EQ(arg_sort({s}, opts({false}, {false})), (Ids{1, 7, 8, 3, 4, 5, 0, 2, 6}));
  EXPECT_EQ(arg_sort({s}, opts({true}, {false})), (Ids{1, 7, 2, 6, 0, 5, 3, 4, 8}));
  EXPECT_EQ(arg_sort({s}, opts({false}, {true})), (Ids{8, 3, 4, 5, 0, 2, 6, 1, 7}));
  EXPECT_EQ(arg_sort({s}, opts({true}, {true})), (Ids{2, 6, 0, 5, 3, 4, 8, 1, 7}));
  EXPECT_EQ(arg_sort({sliced(s)}, opts({true}, {true})), (Ids{2, 6, 0, 5, 3, 4, 8, 1, 7}));
  // Float32 packs with its null bit into one word.
  auto f = f32({3.0f, std::nullopt, std::nanf(""), -0.0f, 0.0f, 1.0f, std::nanf(""), std::nullopt, -1.0f});
  EXPECT_EQ(arg_sort({f}, opts({true}, {false})), (Ids{1, 7, 2, 6, 0, 5, 3, 4, 8}));
}

TEST(ArgSort, IntegersTiesStableAndLimit) {
  auto a = i64({5, -3, 5, 0, -3, 9, 5});
  EXPECT_EQ(arg_sort({a}, opts({false}, {false})), (Ids{1, 4, 3, 0, 2, 6, 5}));
  EXPECT_EQ(arg_sort({a}, opts({true}, {false})), (Ids{5, 0, 2, 6, 3, 1, 4}));
  EXPECT_EQ(arg_sort({a}, opts({false}, {false}, 3)), (Ids{1, 4, 3}));
  EXPECT_EQ(arg_sort({a}, opts({true}, {false}, 2)), (Ids{5, 0}));
  EXPECT_EQ(arg_sort({a}, opts({}, {}, 0)), Ids{});
  EXPECT_EQ(arg_sort({a}, opts({}, {}, 100)).size(), 7u);
  EXPECT_TRUE(arg_sort({i64({})}, opts({}, {})).empty());
  EXPECT_EQ(arg_sort({i64({std::nullopt})}, opts({}, {})), (Ids{0}));
}

TEST(ArgSort, Int64WithNullsAndLimit) {
  // 64-bit values plus nulls do not pack into one word: the null-run path.
  auto a = i64({INT64_MAX, std::nullopt, INT64_MIN, 0, std::nullopt, -1});
  EXPECT_EQ(arg_sort({a}, opts({false}, {false})), (Ids{1, 4, 2, 5, 3, 0}));
  EXPECT_EQ(arg_sort({a}, opts({false}, {true})), (Ids{2, 5, 3, 0, 1, 4}));
  EXPECT_EQ(arg_sort({a}, opts({true}, {true})), (Ids{0, 3, 5, 2, 1, 4}));
  EXPECT_EQ(arg_sort({a}, opts({false}, {false}, 1)), (Ids{1}));
  EXPECT_EQ(arg_sort({a}, opts({false}, {false}, 3)), (Ids{1, 4, 2}));
  EXPECT_EQ(arg_sort({a}, opts({false}, {true}, 5)), (Ids{2, 5, 3, 0, 1}));
  EXPECT_EQ(arg_sort({sliced(a)}, opts({true}, {false})), (Ids{1, 4, 0, 3, 5, 2}));
}

TEST(ArgSort, LargeRadixMatchesStableSort) {
  std::mt19937_64 rng(42);
  const int n = 5000;
  std::vector<std::optional<int64_t>> v(n);
  std::vector<std::optional<int32_t>> w(n);
  for (int i = 0; i < n; ++i) {
    v[i] = static_cast<int64_t>(rng() % 1000) - 500;
    w[i] = static_cast<int32_t>(rng() % 7);
    if (i % 13 == 0) w[i] = std::nullopt;
  }
  auto a = i64(v), b = i32(w);
  Ids ref(n);
  for (int i = 0; i < n; ++i) ref[i] = i;
  std::stable_sort(ref.begin(), ref.end(), [&](IdxSize x, IdxSize y) { return *v[x] > *v[y]; });
  EXPECT_EQ(arg_sort({a}, opts({true}, {false})), ref);
  // two keys: w ascending nulls last, then v descending
  Ids ref2(n);
  for (int i = 0; i < n; ++i) ref2[i] = i;
  std::stable_sort(ref2.begin(), ref2.end(), [&](IdxSize x, IdxSize y) {
    if (w[x].has_value() != w[y].has_value()) return w[x].has_value();
    if (w[x] && *w[x] != *w[y]) return *w[x] < *w[y];
    return *v[x] > *v[y];
  });
  EXPECT_EQ(arg_sort({b, a}, opts({false, true}, {true, false})), ref2);
  Ids top = arg_sort({b, a}, opts({false, true}, {true, false}, 10));
  EXPECT_EQ(top, Ids(ref2.begin(), ref2.begin() + 10));
}

TEST(ArgSort, MultiKeyPerKeyOptions) {
  // Polars: df{a:[1,None,1,2,None,2,1], b:["x","y",None,"a","b","c","x"]}
  //   .sort(["a","b"], descending=[False,True], nulls_last=[True,False], maintain_order=True)
  //   row order [2, 0, 6, 5, 3, 1, 4]
  auto a = i64({1, std::nullopt, 1, 2, std::nullopt, 2, 1});
  auto b = str({"x", "y", std::nullopt, "a", "b", "c", "x"});
  EXPECT_EQ(arg_sort({a, b}, opts({false, true}, {true, false})), (Ids{2, 0, 6, 5, 3, 1, 4}));
  EXPECT_EQ(arg_sort({sliced(a), sliced(b)}, opts({false, true}, {true, false})),
            (Ids{2, 0, 6, 5, 3, 1, 4}));
  EXPECT_EQ(arg_sort({a, b}, opts({false, true}, {true, false}, 4)), (Ids{2, 0, 6, 5}));
  // String first, then integers.
  EXPECT_EQ(arg_sort({b, a}, opts({false}, {false})), (Ids{2, 3, 4, 5, 0, 6, 1}));
}

TEST(ArgSort, Strings) {
  // Polars: ["b", "a", None, "ab", ""].arg_sort() -> [2, 4, 1, 3, 0]
  auto s = str({"b", "a", std::nullopt, "ab", ""});
  EXPECT_EQ(arg_sort({s}, opts({false}, {false})), (Ids{2, 4, 1, 3, 0}));
  EXPECT_EQ(arg_sort({s}, opts({true}, {true})), (Ids{0, 3, 1, 4, 2}));
  // Long strings sharing an 8-byte prefix; bytes compare unsigned ("é" > "z").
  std::string p = "prefix__";
  auto l = str({p + "zzzzzzzzzz", p + "aaaaaaaaaaaa", p, p + "\xc3\xa9", p + "aaaaaaaaaaa", "z"});
  EXPECT_EQ(arg_sort({sliced(l)}, opts({false}, {false})), (Ids{2, 4, 1, 0, 3, 5}));
  EXPECT_EQ(arg_sort({l}, opts({false}, {false}, 2)), (Ids{2, 4}));
}

TEST(ArgSort, BooleansAndMultiFixed) {
  // Polars: [True, None, False].arg_sort() -> [1, 2, 0]
  auto b = boolean({true, std::nullopt, false});
  EXPECT_EQ(arg_sort({b}, opts({false}, {false})), (Ids{1, 2, 0}));
  EXPECT_EQ(arg_sort({b}, opts({true}, {true})), (Ids{0, 2, 1}));
  auto x = make_array<uint8_t>(DataType::uint8(), {2, 1, 2, 1});
  auto y = make_array<int16_t>(DataType::int16(), {-5, 7, 6, std::nullopt});
  EXPECT_EQ(arg_sort({x, y}, opts({true, false}, {false})), (Ids{0, 2, 3, 1}));
  EXPECT_EQ(arg_sort({x, y}, opts({true, false}, {true})), (Ids{0, 2, 1, 3}));
}

TEST(ArgSort, NullableKeyAfterAnotherPackedKey) {
  // The null bit of a later key must not overlap the earlier key's bits (found by the
  // Python fuzzer). Polars: df{b:[False, True], d:[5, None]}.sort("b", "d") -> rows [0, 1].
  auto b = boolean({false, true});
  EXPECT_EQ(arg_sort({b, i64({5, std::nullopt})}, opts({false}, {false})), (Ids{0, 1}));
  auto x = make_array<uint8_t>(DataType::uint8(), {1, 2, 1, 0});
  auto y = make_array<int16_t>(DataType::int16(), {std::nullopt, std::nullopt, 3, 9});
  EXPECT_EQ(arg_sort({x, y}, opts({false}, {false})), (Ids{3, 0, 2, 1}));
  EXPECT_EQ(arg_sort({x, y}, opts({false}, {true})), (Ids{3, 2, 0, 1}));
}

TEST(ArgSort, Errors) {
  EXPECT_THROW(arg_sort({}, opts({}, {})), InvalidOperationError);
  EXPECT_THROW(arg_sort({i64({1}), i64({1, 2})}, opts({}, {})), ShapeError);
  EXPECT_THROW(arg_sort({i64({1}), i64({1})}, opts({true, false, true}, {})), InvalidOperationError);
}

TEST(SortArray, Values) {
  auto s = sort_array(*sliced(i64({3, std::nullopt, 1, 2})), false, true);
  ASSERT_EQ(s->length(), 4);
  EXPECT_EQ(array_get(*s, 0).as_int64(), 1);
  EXPECT_EQ(array_get(*s, 2).as_int64(), 3);
  EXPECT_TRUE(s->is_null(3));
  auto t = sort_array(*str({"b", "a", std::nullopt}), true, false);
  EXPECT_TRUE(t->is_null(0));
  EXPECT_EQ(t->str_value(1), "b");
  EXPECT_EQ(t->str_value(2), "a");
}

TEST(ArgSort, LongSharedPrefixesAndTrailingZeros) {
  // Strings equal in their first 16 bytes, and ones differing only by trailing NUL bytes.
  std::string p(16, 'k');
  auto s = str({p + "b", p, p + "a", std::string("a\0", 2), "a", std::string("a\0\0", 3)});
  EXPECT_EQ(arg_sort({s}, opts({false}, {false})), (Ids{4, 3, 5, 1, 2, 0}));
  EXPECT_EQ(arg_sort({s}, opts({true}, {false})), (Ids{0, 2, 1, 5, 3, 4}));
}

TEST(ArgSort, DecimalAndWideKeys) {
  auto d = make_array<__int128>(DataType::decimal(20, 2),
                                {(__int128)1 << 100, -5, std::nullopt, 7, -((__int128)1 << 90)});
  EXPECT_EQ(arg_sort({d}, opts({false}, {true})), (Ids{4, 1, 3, 0, 2}));
  EXPECT_EQ(arg_sort({d}, opts({true}, {false})), (Ids{2, 0, 3, 1, 4}));
  auto nn = make_array<__int128>(DataType::decimal(20, 2), {3, -1, 3, 2});
  EXPECT_EQ(arg_sort({nn}, opts({true}, {false})), (Ids{0, 2, 3, 1}));
}

TEST(ArgSort, TopKHeapMatchesFullSort) {
  std::mt19937_64 rng(7);
  std::vector<std::optional<double>> v(4000);
  for (auto& x : v) x = static_cast<double>(rng() % 50);
  v[17] = kNaN;
  auto a = f64(v);
  for (bool desc : {false, true}) {
    Ids full = arg_sort({a}, opts({desc}, {false}));
    Ids top = arg_sort({a}, opts({desc}, {false}, 25));
    EXPECT_EQ(top, Ids(full.begin(), full.begin() + 25));
  }
  EXPECT_EQ(arg_sort({a}, opts({true}, {false}, 1)), (Ids{17}));  // NaN is the greatest
}

TEST(ArgSort, NullDtypeKeys) {
  auto n = make_null_array(DataType::null(), 3);
  EXPECT_EQ(arg_sort({n}, opts({true}, {false})), (Ids{0, 1, 2}));
  EXPECT_EQ(arg_sort({n, i64({3, 1, 2})}, opts({false}, {false})), (Ids{1, 2, 0}));
  EXPECT_EQ(arg_sort({n}, opts({}, {}, 1)), (Ids{0}));
}
