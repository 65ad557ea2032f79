#include "frazil/compute/categorical/categorical.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/compare.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/compute/string/transform.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
DataType enum_of(std::vector<std::string> cats) { return DataType::enum_(Categories::fixed(std::move(cats))); }
}  // namespace

TEST(Categorical, GlobalCodesAreSharedAndRoundTrip) {
  ArrayRef a = cast(*strs({"zeta-t1", "alpha-t1", N, "zeta-t1"}), DataType::categorical());
  ArrayRef b = cast(*strs({"alpha-t1", "zeta-t1"}), DataType::categorical());
  const uint32_t* ca = a->values<uint32_t>();
  const uint32_t* cb = b->values<uint32_t>();
  EXPECT_EQ(ca[0], ca[3]);
  EXPECT_EQ(ca[1], cb[0]);
  EXPECT_EQ(ca[0], cb[1]);
  EXPECT_TRUE(a->is_null(2));
  EXPECT_EQ(strs_of(*cast(*a, DataType::string())), (Opt<std::string>{"zeta-t1", "alpha-t1", N, "zeta-t1"}));
  // Sliced input keeps its rows.
  EXPECT_EQ(strs_of(*cast(*sliced(a), DataType::string())), strs_of(*cast(*a, DataType::string())));
}

TEST(Categorical, EnumRejectsUnknownValues) {
  const DataType e = enum_of({"lo", "mid", "hi"});
  ArrayRef a = cast(*strs({"hi", N, "lo"}), e);
  EXPECT_EQ(values_of<uint32_t>(*a->with_dtype(DataType::uint32())), (Opt<uint32_t>{2, N, 0}));
  EXPECT_THROW(cast(*strs({"hi", "max"}), e), InvalidOperationError);
  EXPECT_EQ(strs_of(*cast(*cast(*strs({"hi", "max"}), e, false), DataType::string())), (Opt<std::string>{"hi", N}));
  EXPECT_THROW(Categories::fixed({"a", "a"}), InvalidOperationError);
  EXPECT_EQ(e.to_string(), "Enum(categories=['lo', 'mid', 'hi'])");
  EXPECT_EQ(*parse_dtype(e.to_string()), e);
  EXPECT_NE(e, enum_of({"hi", "mid", "lo"}));
}

TEST(Categorical, OrderKeysSortLexicallyOrByEnumOrder) {
  ArrayRef c = cast(*strs({"pear-t3", "apple-t3", N, "fig-t3"}), DataType::categorical());
  SortOptions o;
  o.descending = {false};
  o.nulls_last = {true};
  EXPECT_EQ(arg_sort({c}, o), (std::vector<IdxSize>{1, 3, 0, 2}));
  const DataType e = enum_of({"pear-t3", "fig-t3", "apple-t3"});
  ArrayRef en = cast(*strs({"apple-t3", "pear-t3", N, "fig-t3"}), e);
  EXPECT_EQ(arg_sort({en}, o), (std::vector<IdxSize>{1, 3, 0, 2}));
  // min/max follow the same orders.
  EXPECT_EQ(aggregate(AggKind::Min, *c, {}).to_string(), "apple-t3");
  EXPECT_EQ(aggregate(AggKind::Max, *en, {}).to_string(), "apple-t3");
  // Ordering comparisons: Categorical by string, Enum by position.
  ArrayRef lit_c = cast(*strs({"fig-t3"}), DataType::categorical());
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *c, *lit_c)), (Opt<bool>{false, true, N, false}));
  ArrayRef lit_e = cast(*strs({"fig-t3"}), e);
  EXPECT_EQ(bools_of(*compare(CmpOp::Lt, *en, *lit_e)), (Opt<bool>{false, true, N, false}));
}

TEST(Categorical, PhysicalAndFromPhysical) {
  const DataType e = enum_of({"a", "b"});
  ArrayRef en = cast(*strs({"b", N, "a"}), e);
  ArrayRef p = categorical_physical(*en);
  EXPECT_EQ(p->dtype(), DataType::uint8());
  EXPECT_EQ(values_of<uint8_t>(*p), (Opt<uint8_t>{1, N, 0}));
  ArrayRef back = categorical_from_physical(*i64({1, N, 0}), e, true);
  EXPECT_EQ(strs_of(*cast(*back, DataType::string())), (Opt<std::string>{"b", N, "a"}));
  EXPECT_THROW(categorical_from_physical(*i64({2}), e, true), ComputeError);
  EXPECT_TRUE(categorical_from_physical(*i64({2}), e, false)->is_null(0));
  // Outside UInt8 (the physical type of a small Enum): null even with strict.
  EXPECT_TRUE(categorical_from_physical(*i64({-1}), e, true)->is_null(0));
  EXPECT_TRUE(categorical_from_physical(*i64({300}), e, true)->is_null(0));
}

TEST(Categorical, PerCategoryMatchesPerRow) {
  ArrayRef c = cast(*strs({"héllo-t5", "x", N, "héllo-t5"}), DataType::categorical());
  // Whether computed per category (few categories) or per row, the result is the same.
  ArrayRef got = per_category(*c, [](const Array& s) { return str_len_chars(s); });
  EXPECT_EQ(values_of<uint32_t>(*got), (Opt<uint32_t>{8, 1, N, 8}));
  const DataType e = enum_of({"ab", "cde"});
  ArrayRef en = cast(*strs({"cde", N}), e);
  EXPECT_EQ(values_of<uint32_t>(*per_category(*en, [](const Array& s) { return str_len_bytes(s); })),
            (Opt<uint32_t>{3, N}));
}
