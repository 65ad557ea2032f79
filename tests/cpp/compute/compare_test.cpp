#include "frazil/compute/compare.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
const double kNaN = std::nan("");
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

// Expected values printed by polars 2.1.0 for
// a = [nan, nan, 1.0, -0.0, inf, None, 1.0], b = [nan, 1.0, nan, 0.0, nan, 1.0, None].
TEST(Compare, FloatTotalOrderMatchesPolars) {
  ArrayRef a = f64({kNaN, kNaN, 1.0, -0.0, kInf, N, 1.0});
  ArrayRef b = f64({kNaN, 1.0, kNaN, 0.0, kNaN, 1.0, N});
  EXPECT_EQ(bools_of(*compare(CmpOp::Eq, *a, *b)), (Opt<bool>{true, false, false, true, false, N, N}));
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *a, *b)), (Opt<bool>{false, false, true, false, true, N, N}));
  EXPECT_EQ(bools_of(*compare(CmpOp::Gt, *a, *b)), (Opt<bool>{false, true, false, false, false, N, N}));
  EXPECT_EQ(bools_of(*compare(CmpOp::NotEq, *a, *b)), (Opt<bool>{false, true, true, false, true, N, N}));
  EXPECT_EQ(bools_of(*compare(CmpOp::EqMissing, *a, *b)), (Opt<bool>{true, false, false, true, false, false, false}));
  EXPECT_EQ(bools_of(*compare(CmpOp::NotEqMissing, *a, *b)), (Opt<bool>{false, true, true, false, true, true, true}));
  EXPECT_EQ(bools_of(*compare(CmpOp::LtEq, *a, *b)), (Opt<bool>{true, false, true, true, true, N, N}));
  EXPECT_EQ(bools_of(*compare(CmpOp::GtEq, *a, *b)), (Opt<bool>{true, true, false, true, false, N, N}));
  // Float32 uses the same order.
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *f32({1.0f, std::nanf("")}), *f32({std::nanf(""), 1.0f}))),
            (Opt<bool>{true, false}));
}

TEST(Compare, EqMissingBothNull) {
  ArrayRef a = i64({1, N, N, 4});
  ArrayRef b = i64({1, N, 3, 5});
  EXPECT_EQ(bools_of(*compare(CmpOp::EqMissing, *a, *b)), (Opt<bool>{true, true, false, false}));
  EXPECT_EQ(bools_of(*compare(CmpOp::NotEqMissing, *a, *b)), (Opt<bool>{false, false, true, true}));
  EXPECT_EQ(bools_of(*compare(CmpOp::EqMissing, *a, *i64({N}))), (Opt<bool>{false, true, true, false}));
  ArrayRef nulls = make_null_array(DataType::null(), 4);
  EXPECT_EQ(bools_of(*compare(CmpOp::EqMissing, *a, *nulls)), (Opt<bool>{false, true, true, false}));
  EXPECT_EQ(compare(CmpOp::Eq, *a, *nulls)->null_count(), 4);
}

TEST(Compare, IntegersBroadcastSlicedAndExtremes) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  ArrayRef a = sliced(i64({kMin, -1, 0, N, std::numeric_limits<int64_t>::max()}));
  ArrayRef zero = i64({0});
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *a, *zero)), (Opt<bool>{true, true, false, N, false}));
  EXPECT_EQ(bools_of(*compare(CmpOp::GtEq, *zero, *a)), (Opt<bool>{true, true, true, N, false}));
  EXPECT_EQ(bools_of(*compare(CmpOp::Eq, *u64({UINT64_MAX, 0}), *u64({UINT64_MAX}))), (Opt<bool>{true, false}));
  EXPECT_EQ(compare(CmpOp::Eq, *i64({}), *i64({}))->length(), 0);
  EXPECT_EQ(compare(CmpOp::Eq, *i64({}), *i64({1}))->length(), 0);
  EXPECT_EQ(compare(CmpOp::Eq, *a, *i64({N}))->null_count(), 5);
  EXPECT_THROW(compare(CmpOp::Eq, *a, *i64({1, 2})), ShapeError);
  EXPECT_THROW(compare(CmpOp::Eq, *a, *f64({1.0})), InvalidOperationError);
  // More than 64 rows, both sliced at odd offsets.
  Opt<int64_t> xs, ys;
  Opt<bool> expect;
  for (int i = 0; i < 200; ++i) {
    xs.push_back(i % 9 == 0 ? std::nullopt : std::optional<int64_t>(i % 13));
    ys.push_back(i % 5);
    expect.push_back(xs.back() ? std::optional<bool>(*xs.back() < i % 5) : std::nullopt);
  }
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *sliced(i64(xs), 7), *sliced(i64(ys), 2))), expect);
}

TEST(Compare, StringsInlineAndLong) {
  const std::string long1 = "a string longer than twelve bytes";
  const std::string long2 = "a string longer than twelve bytez";
  ArrayRef a = strs({"abc", "abc", "ab", long1, long1, "", N, "abcd", "b"});
  ArrayRef b = strs({"abc", "abd", "ab\x01", long1, long2, "", "x", "abc", long1});
  EXPECT_EQ(bools_of(*compare(CmpOp::Eq, *a, *b)), (Opt<bool>{true, false, false, true, false, true, N, false, false}));
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *a, *b)), (Opt<bool>{false, true, true, false, true, false, N, false, false}));
  EXPECT_EQ(bools_of(*compare(CmpOp::Gt, *a, *b)), (Opt<bool>{false, false, false, false, false, false, N, true, true}));
  // Bytes compare unsigned: "\xff" sorts after "a".
  EXPECT_EQ(bools_of(*compare(CmpOp::Gt, *strs({"\xff", "\xc3\xa9"}), *strs({"a"}))), (Opt<bool>{true, true}));
  EXPECT_EQ(bools_of(*compare(CmpOp::Eq, *sliced(a), *strs({long1}))),
            (Opt<bool>{false, false, false, true, true, false, N, false, false}));
}

TEST(Compare, BooleansAndTemporals) {
  ArrayRef a = bools({true, true, false, false, N});
  ArrayRef b = bools({true, false, true, false, true});
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *a, *b)), (Opt<bool>{false, false, true, false, N}));
  EXPECT_EQ(bools_of(*compare(CmpOp::GtEq, *a, *b)), (Opt<bool>{true, true, false, true, N}));
  EXPECT_EQ(bools_of(*compare(CmpOp::Eq, *sliced(a), *bools({false}))), (Opt<bool>{false, false, true, true, N}));
  ArrayRef d = make<int32_t>(DataType::date(), {-1, 0, 19753});
  EXPECT_EQ(bools_of(*compare(CmpOp::Gt, *d, *make<int32_t>(DataType::date(), {0}))), (Opt<bool>{false, false, true}));
}

// polars 2.1: pl.Series([1, None, 2]).is_in([1]) -> [True, None, False];
// .is_in([1, None]) -> [True, None, False]; with nulls_equal=True -> [True, True, False];
// pl.Series([nan, 1.0, -0.0]).is_in([nan, 0.0]) -> [True, False, True].
TEST(Compare, IsInMatchesPolars) {
  ArrayRef x = i64({1, N, 2});
  EXPECT_EQ(bools_of(*is_in(*x, *i64({1}))), (Opt<bool>{true, N, false}));
  EXPECT_EQ(bools_of(*is_in(*x, *i64({1, N}))), (Opt<bool>{true, N, false}));
  EXPECT_EQ(bools_of(*is_in(*x, *i64({1, N}), true)), (Opt<bool>{true, true, false}));
  EXPECT_EQ(bools_of(*is_in(*x, *i64({1}), true)), (Opt<bool>{true, false, false}));
  EXPECT_EQ(bools_of(*is_in(*f64({kNaN, 1.0, -0.0}), *f64({kNaN, 0.0}))), (Opt<bool>{true, false, true}));
  EXPECT_EQ(bools_of(*is_in(*x, *i64({}))), (Opt<bool>{false, N, false}));
  // A large value set takes the binary-search path.
  Opt<int64_t> many;
  for (int i = 0; i < 100; i += 3) many.push_back(i);
  EXPECT_EQ(bools_of(*is_in(*sliced(i64({3, 4, N, 99, -3})), *i64(many))), (Opt<bool>{true, false, N, true, false}));
  EXPECT_EQ(bools_of(*is_in(*strs({"a", "long string over 12", N, "b"}), *strs({"long string over 12", "a"}))),
            (Opt<bool>{true, true, N, false}));
  EXPECT_EQ(bools_of(*is_in(*bools({true, false, N}), *bools({false}))), (Opt<bool>{false, true, N}));
  EXPECT_THROW(is_in(*x, *f64({1.0})), InvalidOperationError);
}

// polars 2.1: pl.Series([1, 2, 3, None, 5]).is_between(2, 5, closed=...) and a null lower
// bound in the first row: is_between([None, 1, 1, 1, 1], 5) -> [None, True, True, None, True].
TEST(Compare, IsBetweenClosedVariantsMatchPolars) {
  ArrayRef x = i64({1, 2, 3, N, 5});
  ArrayRef lo = i64({2}), hi = i64({5});
  EXPECT_EQ(bools_of(*is_between(*x, *lo, *hi, "both")), (Opt<bool>{false, true, true, N, true}));
  EXPECT_EQ(bools_of(*is_between(*x, *lo, *hi, "left")), (Opt<bool>{false, true, true, N, false}));
  EXPECT_EQ(bools_of(*is_between(*x, *lo, *hi, "right")), (Opt<bool>{false, false, true, N, true}));
  EXPECT_EQ(bools_of(*is_between(*x, *lo, *hi, "none")), (Opt<bool>{false, false, true, N, false}));
  EXPECT_EQ(bools_of(*is_between(*x, *i64({N, 1, 1, 1, 1}), *hi, "both")), (Opt<bool>{N, true, true, N, true}));
  // A null bound still gives false when the other bound excludes the value (Kleene AND).
  EXPECT_EQ(bools_of(*is_between(*i64({9}), *i64({N}), *hi, "both")), (Opt<bool>{false}));
  EXPECT_THROW(is_between(*x, *lo, *hi, "middle"), InvalidOperationError);
}

// is_in on strings against candidates that all fit inline in a view (at most 12 bytes)
// compares view words; longer candidates take the other paths. Checked against plain
// string equality over rows of many lengths (0, 3, 4, 5, 11, 12, 13, long), with nulls,
// for 1 to 17 candidates, offsets that are not multiples of 64, and nulls_equal.
TEST(Compare, IsInStringsInlineCandidatesMatchStringEquality) {
  const std::vector<std::string> pool = {"",     "MAIL", "SHIP", "MAI",  "MAILS", "AIR",  "AIR REG",
                                         "abcdefghijkl", "abcdefghijk",  "abcdefghijklm", "REG AIR",
                                         "TRUCK", "abcdefghijkz", "a string well over twelve", "x"};
  Opt<std::string> rows;
  for (int i = 0; i < 300; ++i) {
    if (i % 17 == 5) rows.push_back(N);
    else rows.push_back(pool[(i * 7 + i / 13) % pool.size()]);
  }
  const ArrayRef x = strs(rows);
  auto expect_like_strings = [&](const Opt<std::string>& cands, bool nulls_equal) {
    bool cand_null = false;
    for (const auto& c : cands) cand_null |= !c;
    for (const ArrayRef& in : {x, sliced(x, 5), x->slice(37, 200), x->slice(0, 1), x->slice(0, 0)}) {
      const Opt<std::string> r = strs_of(*in);
      Opt<bool> want;
      for (const auto& v : r) {
        if (!v) {
          want.push_back(nulls_equal ? std::optional<bool>(cand_null) : std::nullopt);
          continue;
        }
        bool hit = false;
        for (const auto& c : cands) hit |= c && *c == *v;
        want.push_back(hit);
      }
      EXPECT_EQ(bools_of(*is_in(*in, *strs(cands), nulls_equal)), want) << cands.size() << " candidates";
    }
  };
  expect_like_strings({"MAIL", "SHIP"}, false);
  expect_like_strings({"MAIL", "SHIP"}, true);
  expect_like_strings({"MAIL", N, "SHIP"}, true);
  expect_like_strings({""}, false);                                // length 0
  expect_like_strings({"MAI", "x"}, false);                        // shorter than the prefix
  expect_like_strings({"abcdefghijkl", "TRUCK", "AIR"}, false);    // 12 bytes
  expect_like_strings({"abcdefghijklm"}, false);                   // 13: not inline
  expect_like_strings({"abcdefghijkl", "abcdefghijklm"}, false);   // 12 and 13 mixed
  expect_like_strings({"a string well over twelve", "MAIL"}, false);
  Opt<std::string> many;
  for (size_t k = 0; k < pool.size(); ++k) {
    if (pool[k].size() > 12) continue;
    many.push_back(pool[k]);
    expect_like_strings(many, false);  // 1 .. 13 inline candidates
  }
  for (int k = 0; k < 5; ++k) many.push_back("extra" + std::to_string(k));
  expect_like_strings(many, false);  // 18: hashed
}

// Bytes after an inline string are zero in frazil's views, but is_in does not rely on it:
// a view with junk there still matches by its length and bytes.
TEST(Compare, IsInStringsIgnoresJunkAfterInlineBytes) {
  const std::vector<std::string> words = {"", "MAIL", "AIR", "abcdefghijkl", "SHIPS"};
  const int64_t n = 70;
  Buffer views = Buffer::allocate(n * sizeof(View));
  View* v = views.mutable_as<View>();
  for (int64_t i = 0; i < n; ++i) {
    const std::string& w = words[i % words.size()];
    v[i].length = static_cast<uint32_t>(w.size());
    std::memset(v[i].data, 0xA5 + static_cast<int>(i), 12);
    std::memcpy(v[i].data, w.data(), w.size());
  }
  const ArrayRef x = Array::make(DataType::string(), n, Buffer(), {views});
  const ArrayRef got = is_in(*x, *strs({"MAIL", "", "AIR", "abcdefghijkl"}));
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(got->bool_value(i), i % 5 != 4) << i;
}

// Integer sets of more than 8 values: a bitmap over their range when it is modest, a
// binary search otherwise; both against plain membership, with negatives, the type's
// extremes, nulls, and inputs sliced off 64-row boundaries.
TEST(Compare, IsInIntegerSetsBitmapAndSearch) {
  Opt<int64_t> rows;
  for (int i = 0; i < 200; ++i) rows.push_back(i % 23 == 7 ? std::optional<int64_t>() : std::optional<int64_t>(i * 3 - 300));
  rows.push_back(std::numeric_limits<int64_t>::min());
  rows.push_back(std::numeric_limits<int64_t>::max());
  const ArrayRef x = i64(rows);
  auto check = [&](const Opt<int64_t>& set) {
    for (const ArrayRef& in : {x, sliced(x, 5), x->slice(37, 100), x->slice(0, 1), x->slice(0, 0)}) {
      Opt<bool> want;
      for (int64_t i = 0; i < in->length(); ++i) {
        if (in->is_null(i)) {
          want.push_back(N);
          continue;
        }
        bool hit = false;
        for (const auto& s : set) hit |= s && *s == in->values<int64_t>()[i];
        want.push_back(hit);
      }
      EXPECT_EQ(bools_of(*is_in(*in, *i64(set))), want);
    }
  };
  Opt<int64_t> dense, wide;
  for (int v = -300; v < 300; v += 7) dense.push_back(v);
  dense.push_back(N);
  check(dense);  // range 600: bitmap
  for (int v = 0; v < 20; ++v) wide.push_back(int64_t{v} * 100000000000LL - 300);
  check(wide);  // range 1.9e12: binary search
  wide.push_back(std::numeric_limits<int64_t>::min());
  wide.push_back(std::numeric_limits<int64_t>::max());
  check(wide);
  // Narrow types: the whole range of int8 and uint8 fits a bitmap.
  Opt<int8_t> i8s;
  for (int v = -128; v < 128; v += 9) i8s.push_back(static_cast<int8_t>(v));
  EXPECT_EQ(bools_of(*is_in(*i8({-128, -119, 0, 127, 8, N}), *i8(i8s))), (Opt<bool>{true, true, false, false, false, N}));
  Opt<uint8_t> u8s;
  for (int v = 0; v < 256; v += 17) u8s.push_back(static_cast<uint8_t>(v));
  EXPECT_EQ(bools_of(*is_in(*u8({0, 255, 1, 17}), *u8(u8s))), (Opt<bool>{true, true, false, true}));
}
