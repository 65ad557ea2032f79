#include <gtest/gtest.h>

#include <cmath>

#include "frazil/compute/aggregate.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"
#include "group_test_util.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::testing;

namespace {

// Expected cell: a number, null, or NaN.
struct Cell {
  std::optional<double> v;
  Cell() = default;  // null
  Cell(double x) : v(x) {}  // NOLINT
};
const Cell kNull;

void expect_cells(const ArrayRef& out, const std::vector<Cell>& want, const char* what) {
  ASSERT_EQ(out->length(), static_cast<int64_t>(want.size())) << what;
  for (size_t g = 0; g < want.size(); ++g) {
    Scalar s = array_get(*out, static_cast<int64_t>(g));
    if (!want[g].v) {
      EXPECT_TRUE(s.is_null()) << what << " group " << g << " = " << s.to_string();
      continue;
    }
    ASSERT_FALSE(s.is_null()) << what << " group " << g;
    double got = s.to_double(), exp = *want[g].v;
    if (std::isnan(exp)) EXPECT_TRUE(std::isnan(got)) << what << " group " << g;
    else EXPECT_NEAR(got, exp, 1e-9 * std::max(1.0, std::fabs(exp))) << what << " group " << g;
  }
}

void expect_scalar(const Scalar& s, Cell want, const char* what) {
  if (!want.v) {
    EXPECT_TRUE(s.is_null()) << what << " = " << s.to_string();
    return;
  }
  ASSERT_FALSE(s.is_null()) << what;
  if (std::isnan(*want.v)) EXPECT_TRUE(std::isnan(s.to_double())) << what;
  else EXPECT_NEAR(s.to_double(), *want.v, 1e-9 * std::max(1.0, std::fabs(*want.v))) << what;
}

AggOptions quantile(double q, const char* interp) {
  AggOptions o;
  o.quantile = q;
  o.interpolation = interp;
  return o;
}

}  // namespace

TEST(AggResultDtype, PolarsRules) {
  // Polars 2.1: sum of Int8/16/UInt8/16 -> Int64; Int32 -> Int32; UInt32 -> UInt32; Boolean ->
  // UInt32; mean of Float32 -> Float32; mean of Date -> Datetime(us); counts -> UInt32.
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::int8()), DataType::int64());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::uint16()), DataType::int64());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::int32()), DataType::int32());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::uint32()), DataType::uint32());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::uint64()), DataType::uint64());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::boolean()), DataType::uint32());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::float32()), DataType::float32());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::decimal(10, 2)), DataType::decimal(38, 2));
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::duration(TimeUnit::Milliseconds)),
            DataType::duration(TimeUnit::Milliseconds));
  EXPECT_EQ(agg_result_dtype(AggKind::Mean, DataType::int32()), DataType::float64());
  EXPECT_EQ(agg_result_dtype(AggKind::Mean, DataType::float32()), DataType::float32());
  EXPECT_EQ(agg_result_dtype(AggKind::Std, DataType::float32()), DataType::float32());
  EXPECT_EQ(agg_result_dtype(AggKind::Median, DataType::boolean()), DataType::float64());
  EXPECT_EQ(agg_result_dtype(AggKind::Mean, DataType::date()), DataType::datetime(TimeUnit::Microseconds));
  EXPECT_EQ(agg_result_dtype(AggKind::Median, DataType::time()), DataType::time());
  EXPECT_EQ(agg_result_dtype(AggKind::Mean, DataType::decimal(10, 2)), DataType::float64());
  EXPECT_EQ(agg_result_dtype(AggKind::Min, DataType::string()), DataType::string());
  EXPECT_EQ(agg_result_dtype(AggKind::NUnique, DataType::string()), DataType::uint32());
  EXPECT_EQ(agg_result_dtype(AggKind::Len, DataType::float64()), DataType::uint32());
  EXPECT_EQ(agg_result_dtype(AggKind::Sum, DataType::null()), DataType::null());
  EXPECT_EQ(agg_result_dtype(AggKind::Any, DataType::null()), DataType::boolean());
  EXPECT_THROW(agg_result_dtype(AggKind::Sum, DataType::string()), InvalidOperationError);
  EXPECT_THROW(agg_result_dtype(AggKind::Sum, DataType::date()), InvalidOperationError);
  EXPECT_THROW(agg_result_dtype(AggKind::Quantile, DataType::boolean()), InvalidOperationError);
  EXPECT_THROW(agg_result_dtype(AggKind::Std, DataType::date()), InvalidOperationError);
  EXPECT_THROW(agg_result_dtype(AggKind::Any, DataType::int64()), InvalidOperationError);
  EXPECT_THROW(agg_result_dtype(AggKind::Min, DataType::list(DataType::int64())), InvalidOperationError);
  EXPECT_STREQ(agg_name(AggKind::NUnique), "n_unique");
}

// Polars 2.1: df{k: [a,b,a,b,b,a], v: [1,null,3,2,null,5] (Int64)}: whole column and
// group_by("k", maintain_order=True).
TEST(Aggregate, Int64WholeAndGrouped) {
  auto v = i64({1, std::nullopt, 3, 2, std::nullopt, 5});
  auto k = str({"a", "b", "a", "b", "b", "a"});
  for (auto [vals, keys] : {std::pair{v, k}, std::pair{sliced(v), sliced(k)}}) {
    Groups g = group_rows({keys});
    struct Case {
      AggKind kind;
      AggOptions opt;
      Cell whole;
      std::vector<Cell> grouped;
    };
    AggOptions ddof0;
    ddof0.ddof = 0;
    std::vector<Case> cases = {
        {AggKind::Sum, {}, 11, {9, 2}},
        {AggKind::Mean, {}, 2.75, {3.0, 2.0}},
        {AggKind::Min, {}, 1, {1, 2}},
        {AggKind::Max, {}, 5, {5, 2}},
        {AggKind::Count, {}, 4, {3, 1}},
        {AggKind::Len, {}, 6, {3, 3}},
        {AggKind::NullCount, {}, 2, {0, 2}},
        {AggKind::NUnique, {}, 5, {3, 2}},
        {AggKind::First, {}, 1, {1, kNull}},
        {AggKind::Last, {}, 5, {5, kNull}},
        {AggKind::Median, {}, 2.5, {3.0, 2.0}},
        {AggKind::Std, {}, 1.707825127659933, {2.0, kNull}},
        {AggKind::Var, {}, 2.9166666666666665, {4.0, kNull}},
        {AggKind::Std, ddof0, 1.479019945774904, {1.632993161855452, 0.0}},
        {AggKind::Quantile, quantile(0.25, "nearest"), 2.0, {3.0, 2.0}},
        {AggKind::Quantile, quantile(0.25, "lower"), 1.0, {1.0, 2.0}},
        {AggKind::Quantile, quantile(0.25, "higher"), 2.0, {3.0, 2.0}},
        {AggKind::Quantile, quantile(0.25, "midpoint"), 1.5, {2.0, 2.0}},
        {AggKind::Quantile, quantile(0.25, "linear"), 1.75, {2.0, 2.0}},
    };
    for (const auto& c : cases) {
      expect_scalar(aggregate(c.kind, *vals, c.opt), c.whole, agg_name(c.kind));
      ArrayRef out = aggregate_grouped(c.kind, *vals, g, c.opt);
      EXPECT_EQ(out->dtype(), agg_result_dtype(c.kind, DataType::int64())) << agg_name(c.kind);
      expect_cells(out, c.grouped, agg_name(c.kind));
    }
  }
}

// Polars 2.1: v = [1.5, nan, null, -0.0, 2.0, nan, 4.0], k = [a,a,b,b,c,c,a]. Min/max skip
// NaN unless all are NaN; median/quantile sort NaN last.
TEST(Aggregate, Float64WithNaN) {
  auto v = f64({1.5, kNaN, std::nullopt, -0.0, 2.0, kNaN, 4.0});
  auto k = str({"a", "a", "b", "b", "c", "c", "a"});
  Groups g = group_rows({sliced(k)});
  auto sv = sliced(v);
  struct Case {
    AggKind kind;
    AggOptions opt;
    Cell whole;
    std::vector<Cell> grouped;
  };
  std::vector<Case> cases = {
      {AggKind::Sum, {}, kNaN, {kNaN, 0.0, kNaN}},
      {AggKind::Mean, {}, kNaN, {kNaN, 0.0, kNaN}},
      {AggKind::Min, {}, -0.0, {1.5, -0.0, 2.0}},
      {AggKind::Max, {}, 4.0, {4.0, -0.0, 2.0}},
      {AggKind::NUnique, {}, 6, {3, 2, 2}},
      {AggKind::First, {}, 1.5, {1.5, kNull, 2.0}},
      {AggKind::Last, {}, 4.0, {4.0, -0.0, kNaN}},
      {AggKind::Median, {}, 3.0, {4.0, -0.0, kNaN}},
      {AggKind::Std, {}, kNaN, {kNaN, kNull, kNaN}},
      {AggKind::Quantile, quantile(0.25, "nearest"), 1.5, {4.0, -0.0, 2.0}},
      {AggKind::Quantile, quantile(0.25, "higher"), 2.0, {4.0, -0.0, kNaN}},
      {AggKind::Quantile, quantile(0.25, "midpoint"), 1.75, {2.75, -0.0, kNaN}},
      {AggKind::Quantile, quantile(0.25, "linear"), 1.625, {2.75, -0.0, kNaN}},
  };
  for (const auto& c : cases) {
    expect_scalar(aggregate(c.kind, *sv, c.opt), c.whole, agg_name(c.kind));
    expect_cells(aggregate_grouped(c.kind, *sv, g, c.opt), c.grouped, agg_name(c.kind));
  }
  EXPECT_TRUE(std::signbit(aggregate(AggKind::Min, *v).as_double()));
  // all NaN -> NaN
  auto nans = f64({kNaN, kNaN});
  EXPECT_TRUE(std::isnan(aggregate(AggKind::Max, *nans).as_double()));
  // Polars: [inf, inf].median() -> inf (not inf + 0.5 * (inf - inf)); [-inf, 1.0] -> NaN.
  const double inf = INFINITY;
  EXPECT_EQ(aggregate(AggKind::Median, *f64({inf, inf})).as_double(), inf);
  EXPECT_EQ(aggregate(AggKind::Median, *f64({-inf, -inf})).as_double(), -inf);
  EXPECT_TRUE(std::isnan(aggregate(AggKind::Median, *f64({-inf, 1.0})).as_double()));
  // Equal huge values have no spread (Polars 0.0); summing first gave a mean a rounding error
  // off, whose square overflowed to inf (found by the Python fuzzer).
  auto huge = f64({1e300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300});
  EXPECT_EQ(aggregate(AggKind::Std, *huge).as_double(), 0.0);
  Groups one_group = group_rows({i64({1, 1, 1, 1, 1, 1, 1, 1, 1, 1})});
  expect_cells(aggregate_grouped(AggKind::Var, *huge, one_group), {0.0}, "var");
}

// -0.0 and 0.0 are equal: min and max keep the last of them, grouped as over the whole
// column (Polars 2.1; the grouped kernel kept the first, found by the Python fuzzer).
TEST(Aggregate, SignedZeroTiesKeepTheLast) {
  for (bool is_max : {true, false}) {
    const AggKind k = is_max ? AggKind::Max : AggKind::Min;
    auto v = f64({-0.0, 0.0, 0.0, -0.0, std::nullopt});
    Groups g = group_rows({i64({0, 0, 1, 1, 1})});
    ArrayRef out = aggregate_grouped(k, *v, g);
    EXPECT_FALSE(std::signbit(out->values<double>()[0])) << agg_name(k);
    EXPECT_TRUE(std::signbit(out->values<double>()[1])) << agg_name(k);
    EXPECT_FALSE(std::signbit(aggregate(k, *f64({-0.0, 0.0})).as_double())) << agg_name(k);
  }
}

// Polars 2.1: Int32 [2147483647, 1, 5, null], k = [0,0,1,1]: sums wrap in Int32.
TEST(Aggregate, Int32SumWraps) {
  auto v = i32({2147483647, 1, 5, std::nullopt});
  Groups g = group_rows({i64({0, 0, 1, 1})});
  Scalar s = aggregate(AggKind::Sum, *v);
  EXPECT_EQ(s.dtype(), DataType::int32());
  EXPECT_EQ(s.as_int64(), -2147483643);
  ArrayRef gs = aggregate_grouped(AggKind::Sum, *v, g);
  EXPECT_EQ(gs->dtype(), DataType::int32());
  EXPECT_EQ(gs->values<int32_t>()[0], -2147483648);
  EXPECT_EQ(gs->values<int32_t>()[1], 5);
  expect_cells(aggregate_grouped(AggKind::Quantile, *v, g, quantile(0.25, "linear")),
               {536870912.5, 5.0}, "quantile");
  // UInt8 sums widen to Int64 (300); UInt32 sums stay UInt32 and wrap (1).
  auto u8 = make_array<uint8_t>(DataType::uint8(), {200, 100});
  EXPECT_EQ(aggregate(AggKind::Sum, *u8).as_int64(), 300);
  auto u32v = u32({4294967295u, 2});
  EXPECT_EQ(aggregate(AggKind::Sum, *u32v).as_uint64(), 1u);
}

TEST(Aggregate, EmptyOneRowAndAllNull) {
  auto e = f64({});
  EXPECT_EQ(aggregate(AggKind::Sum, *e).as_double(), 0.0);
  EXPECT_TRUE(aggregate(AggKind::Min, *e).is_null());
  EXPECT_TRUE(aggregate(AggKind::Mean, *e).is_null());
  EXPECT_TRUE(aggregate(AggKind::Median, *e).is_null());
  EXPECT_TRUE(aggregate(AggKind::First, *e).is_null());
  EXPECT_EQ(aggregate(AggKind::Count, *e).as_uint64(), 0u);
  EXPECT_EQ(aggregate(AggKind::Len, *e).as_uint64(), 0u);
  EXPECT_EQ(aggregate(AggKind::NUnique, *e).as_uint64(), 0u);
  auto ie = i64({});
  EXPECT_EQ(aggregate(AggKind::Sum, *ie).as_int64(), 0);
  // Polars: Int16 [7]: median 7.0, sum 7 (Int64), std(ddof=1) null, std(ddof=0) 0.0.
  auto one = make_array<int16_t>(DataType::int16(), {7});
  EXPECT_EQ(aggregate(AggKind::Sum, *one).as_int64(), 7);
  EXPECT_EQ(aggregate(AggKind::Sum, *one).dtype(), DataType::int64());
  EXPECT_EQ(aggregate(AggKind::Median, *one).as_double(), 7.0);
  EXPECT_TRUE(aggregate(AggKind::Std, *one).is_null());
  AggOptions ddof0;
  ddof0.ddof = 0;
  EXPECT_EQ(aggregate(AggKind::Std, *one, ddof0).as_double(), 0.0);
  auto nulls = i64({std::nullopt, std::nullopt});
  EXPECT_EQ(aggregate(AggKind::Sum, *nulls).as_int64(), 0);
  EXPECT_TRUE(aggregate(AggKind::Max, *nulls).is_null());
  EXPECT_EQ(aggregate(AggKind::NUnique, *nulls).as_uint64(), 1u);
  EXPECT_EQ(aggregate(AggKind::NullCount, *nulls).as_uint64(), 2u);
  // Grouped over zero rows and zero groups.
  Groups none = group_rows({i64({})});
  EXPECT_EQ(aggregate_grouped(AggKind::Sum, *ie, none)->length(), 0);
  EXPECT_EQ(aggregate_grouped(AggKind::Median, *ie, none)->length(), 0);
  // A group whose values are all null: sum 0, min/mean null.
  Groups g = group_rows({i64({1, 1})});
  expect_cells(aggregate_grouped(AggKind::Sum, *nulls, g), {0}, "sum");
  expect_cells(aggregate_grouped(AggKind::Min, *nulls, g), {kNull}, "min");
  expect_cells(aggregate_grouped(AggKind::Mean, *nulls, g), {kNull}, "mean");
}

// Polars 2.1: Boolean k=[0,0,1,1,2,2], v=[true,null,null,null,false,false].
TEST(Aggregate, BooleanAnyAllKleene) {
  auto v = boolean({true, std::nullopt, std::nullopt, std::nullopt, false, false});
  Groups g = group_rows({i64({0, 0, 1, 1, 2, 2})});
  AggOptions kleene;
  kleene.ignore_nulls = false;
  auto cells = [](ArrayRef a) {
    std::vector<std::optional<bool>> out;
    for (int64_t i = 0; i < a->length(); ++i)
      out.push_back(a->is_valid(i) ? std::optional<bool>(a->bool_value(i)) : std::nullopt);
    return out;
  };
  using B = std::vector<std::optional<bool>>;
  auto sv = sliced(v);
  EXPECT_EQ(cells(aggregate_grouped(AggKind::Any, *sv, g)), (B{true, false, false}));
  EXPECT_EQ(cells(aggregate_grouped(AggKind::All, *sv, g)), (B{true, true, false}));
  EXPECT_EQ(cells(aggregate_grouped(AggKind::Any, *sv, g, kleene)), (B{true, std::nullopt, false}));
  EXPECT_EQ(cells(aggregate_grouped(AggKind::All, *sv, g, kleene)), (B{std::nullopt, std::nullopt, false}));
  EXPECT_EQ(cells(aggregate_grouped(AggKind::Min, *sv, g)), (B{true, std::nullopt, false}));
  EXPECT_EQ(cells(aggregate_grouped(AggKind::Max, *sv, g)), (B{true, std::nullopt, false}));
  expect_cells(aggregate_grouped(AggKind::Sum, *sv, g), {1, 0, 0}, "sum");
  expect_cells(aggregate_grouped(AggKind::NUnique, *sv, g), {2, 1, 1}, "n_unique");
  // Polars: [true, null, false, true]: sum 2, mean 0.666.., std 0.577.., median 1.0;
  // [true, null, false].any(ignore_nulls=False) = true, .all(ignore_nulls=False) = false,
  // [true, null].all(ignore_nulls=False) = null; empty any = false, all = true.
  auto w = boolean({true, std::nullopt, false, true});
  EXPECT_EQ(aggregate(AggKind::Sum, *w).as_uint64(), 2u);
  expect_scalar(aggregate(AggKind::Mean, *w), 0.6666666666666666, "mean");
  expect_scalar(aggregate(AggKind::Std, *w), 0.5773502691896258, "std");
  expect_scalar(aggregate(AggKind::Median, *w), 1.0, "median");
  EXPECT_TRUE(aggregate(AggKind::Any, *w, kleene).as_bool());
  EXPECT_FALSE(aggregate(AggKind::All, *w, kleene).as_bool());
  EXPECT_TRUE(aggregate(AggKind::All, *boolean({true, std::nullopt}), kleene).is_null());
  EXPECT_TRUE(aggregate(AggKind::All, *boolean({true, std::nullopt})).as_bool());
  EXPECT_FALSE(aggregate(AggKind::Any, *boolean({})).as_bool());
  EXPECT_TRUE(aggregate(AggKind::All, *boolean({})).as_bool());
  EXPECT_THROW(aggregate(AggKind::Any, *i64({1})), InvalidOperationError);
}

// Polars 2.1: k=[0,0,1,1], v=["pear", "apple is a long string", null, "fig"].
TEST(Aggregate, StringsMinMaxFirstLast) {
  auto v = str({"pear", "apple is a long string", std::nullopt, "fig"});
  Groups g = group_rows({i64({0, 0, 1, 1})});
  auto sv = sliced(v);
  ArrayRef mn = aggregate_grouped(AggKind::Min, *sv, g);
  ArrayRef mx = aggregate_grouped(AggKind::Max, *sv, g);
  ArrayRef f = aggregate_grouped(AggKind::First, *sv, g);
  ArrayRef l = aggregate_grouped(AggKind::Last, *sv, g);
  EXPECT_EQ(mn->str_value(0), "apple is a long string");
  EXPECT_EQ(mn->str_value(1), "fig");
  EXPECT_EQ(mx->str_value(0), "pear");
  EXPECT_EQ(f->str_value(0), "pear");
  EXPECT_TRUE(f->is_null(1));
  EXPECT_EQ(l->str_value(0), "apple is a long string");
  EXPECT_EQ(l->str_value(1), "fig");
  EXPECT_EQ(aggregate(AggKind::Max, *sv).as_string(), "pear");
  EXPECT_EQ(aggregate(AggKind::Min, *sv).as_string(), "apple is a long string");
  EXPECT_EQ(aggregate(AggKind::NUnique, *sv).as_uint64(), 4u);
  EXPECT_THROW(aggregate(AggKind::Sum, *sv), InvalidOperationError);
  EXPECT_THROW(aggregate_grouped(AggKind::Mean, *sv, g), InvalidOperationError);
}

TEST(Aggregate, TemporalAndDecimal) {
  // Polars 2.1: Date [1970-01-02, 1970-01-05, null]: mean and median 1970-01-03 12:00
  // (Datetime us), min 1970-01-02, quantile(0.5, nearest) 1970-01-05 00:00.
  auto d = make_array<int32_t>(DataType::date(), {1, 4, std::nullopt});
  Scalar mean = aggregate(AggKind::Mean, *d);
  EXPECT_EQ(mean.dtype(), DataType::datetime(TimeUnit::Microseconds));
  EXPECT_EQ(mean.as_int64(), int64_t(2.5 * 86400e6));
  EXPECT_EQ(aggregate(AggKind::Median, *d).as_int64(), int64_t(2.5 * 86400e6));
  EXPECT_EQ(aggregate(AggKind::Min, *d).as_int64(), 1);
  EXPECT_EQ(aggregate(AggKind::Min, *d).dtype(), DataType::date());
  EXPECT_EQ(aggregate(AggKind::Quantile, *d, quantile(0.5, "nearest")).as_int64(), int64_t(4 * 86400e6));
  Groups g = group_rows({i64({0, 0, 0})});
  ArrayRef gm = aggregate_grouped(AggKind::Mean, *d, g);
  EXPECT_EQ(gm->dtype(), DataType::datetime(TimeUnit::Microseconds));
  EXPECT_EQ(gm->values<int64_t>()[0], int64_t(2.5 * 86400e6));
  // Polars: Datetime(us) [-1, -2] mean -> -1 (truncated toward zero).
  auto dt = make_array<int64_t>(DataType::datetime(TimeUnit::Microseconds), {-1, -2});
  EXPECT_EQ(aggregate(AggKind::Mean, *dt).as_int64(), -1);
  auto dur = make_array<int64_t>(DataType::duration(TimeUnit::Milliseconds), {1, 0});
  EXPECT_EQ(aggregate(AggKind::Sum, *dur).as_int64(), 1);
  EXPECT_EQ(aggregate(AggKind::Sum, *dur).dtype(), DataType::duration(TimeUnit::Milliseconds));
  // Polars: Decimal(10,2) [1.25, -2.50, null]: sum -1.25 (Decimal(38,2)), mean -0.625,
  // min -2.50, max 1.25, std 2.6516504294495533.
  auto dec = make_array<__int128>(DataType::decimal(10, 2), {125, -250, std::nullopt});
  Scalar sum = aggregate(AggKind::Sum, *dec);
  EXPECT_EQ(sum.dtype(), DataType::decimal(38, 2));
  EXPECT_TRUE(sum.as_int128() == -125);
  expect_scalar(aggregate(AggKind::Mean, *dec), -0.625, "mean");
  EXPECT_TRUE(aggregate(AggKind::Min, *dec).as_int128() == -250);
  EXPECT_TRUE(aggregate(AggKind::Max, *dec).as_int128() == 125);
  expect_scalar(aggregate(AggKind::Std, *dec), 2.6516504294495533, "std");
  Groups g3 = group_rows({i64({0, 1, 0})});
  ArrayRef gs = aggregate_grouped(AggKind::Sum, *dec, g3);
  EXPECT_TRUE(gs->values<__int128>()[0] == 125);
  EXPECT_TRUE(gs->values<__int128>()[1] == -250);
  expect_cells(aggregate_grouped(AggKind::Mean, *dec, g3), {1.25, -2.5}, "mean");
}

TEST(Aggregate, Float32KeepsFloat32) {
  // Polars sums Float32 in float: [16777216, 1, 1] -> 16777216.
  auto f = f32({16777216.0f, 1.0f, 1.0f});
  Scalar s = aggregate(AggKind::Sum, *f);
  EXPECT_EQ(s.dtype(), DataType::float32());
  EXPECT_EQ(s.as_double(), 16777216.0);
  Groups g = group_rows({i64({0, 0, 0})});
  ArrayRef gs = aggregate_grouped(AggKind::Sum, *f, g);
  EXPECT_EQ(gs->dtype(), DataType::float32());
  EXPECT_EQ(gs->values<float>()[0], 16777216.0f);
  // Polars: Float32 [1, 2] median 1.5 (Float32).
  ArrayRef gm = aggregate_grouped(AggKind::Median, *f32({1.0f, 2.0f}), group_rows({i64({0, 0})}));
  EXPECT_EQ(gm->dtype(), DataType::float32());
  EXPECT_EQ(gm->values<float>()[0], 1.5f);
}

TEST(Aggregate, NullDtype) {
  auto n = make_null_array(DataType::null(), 3);
  Groups g = group_rows({i64({0, 1, 0})});
  EXPECT_TRUE(aggregate(AggKind::Sum, *n).is_null());
  EXPECT_EQ(aggregate(AggKind::Count, *n).as_uint64(), 0u);
  EXPECT_EQ(aggregate(AggKind::Len, *n).as_uint64(), 3u);
  EXPECT_EQ(aggregate(AggKind::NUnique, *n).as_uint64(), 1u);
  EXPECT_FALSE(aggregate(AggKind::Any, *n).as_bool());
  EXPECT_TRUE(aggregate(AggKind::All, *n).as_bool());
  ArrayRef s = aggregate_grouped(AggKind::Sum, *n, g);
  EXPECT_EQ(s->dtype(), DataType::null());
  EXPECT_EQ(s->length(), 2);
  expect_cells(aggregate_grouped(AggKind::NullCount, *n, g), {2, 1}, "null_count");
}

TEST(Aggregate, ManyGroupsMatchesWholeArray) {
  // Each row its own group, and one group for all: grouped results agree with whole ones.
  std::vector<std::optional<double>> vals;
  for (int i = 0; i < 1000; ++i) vals.push_back(i % 7 == 0 ? std::nullopt : std::optional<double>(i * 0.5 - 100));
  auto v = f64(vals);
  std::vector<std::optional<int64_t>> zeros(1000, 0);
  Groups one = group_rows({i64(zeros)});
  for (AggKind kind : {AggKind::Sum, AggKind::Mean, AggKind::Min, AggKind::Max, AggKind::Median,
                       AggKind::Std, AggKind::Var, AggKind::Count, AggKind::NUnique}) {
    Scalar whole = aggregate(kind, *v);
    ArrayRef g = aggregate_grouped(kind, *v, one);
    expect_cells(g, {whole.to_double()}, agg_name(kind));
  }
}

TEST(Aggregate, Errors) {
  auto v = i64({1, 2});
  Groups g = group_rows({i64({1})});
  EXPECT_THROW(aggregate_grouped(AggKind::Sum, *v, g), ShapeError);
  EXPECT_THROW(aggregate(AggKind::Quantile, *v, quantile(1.5, "linear")), ComputeError);
  EXPECT_THROW(aggregate(AggKind::Quantile, *v, quantile(0.5, "cubic")), InvalidOperationError);
}

TEST(AggregateGrouped, NUniqueOverContiguousAndScatteredGroups) {
  // Contiguous groups (sorted keys) take the run-by-run count; the same values under
  // scattered groups take the general path; both count null as one value.
  auto v = i64({5, 5, std::nullopt, 7, 7, 7, std::nullopt, std::nullopt, 1, 2, 3});
  Groups runs = group_rows({i64({1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4})});
  expect_cells(aggregate_grouped(AggKind::NUnique, *v, runs), {2, 1, 1, 3}, "runs");
  Groups scattered = group_rows({i64({1, 2, 1, 2, 3, 4, 3, 1, 4, 4, 3})});
  expect_cells(aggregate_grouped(AggKind::NUnique, *v, scattered), {2, 2, 3, 3}, "scattered");
  expect_cells(aggregate_grouped(AggKind::NUnique, *sliced(v), runs), {2, 1, 1, 3}, "sliced");
  // Without nulls, short runs are counted by pairwise comparison, long ones by sorting.
  auto w = i64({4, 4, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1});
  Groups two = group_rows({i64({0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})});
  expect_cells(aggregate_grouped(AggKind::NUnique, *w, two), {2, 9}, "no nulls");
}

// Sums and means per group with few groups (accumulated in interleaved copies) and with
// many, against a plain loop: ints exactly (Int32 wraps), integral doubles exactly.
TEST(AggregateGrouped, SumAndMeanFewAndManyGroupsMatchAPlainLoop) {
  for (int ng : {1, 3, 256, 257, 1000}) {
    for (int n : {0, 1, 5, 1000, 5000}) {
      std::vector<std::optional<int64_t>> keys, ints;
      std::vector<std::optional<double>> dbls;
      std::vector<std::optional<int32_t>> i32s;
      for (int i = 0; i < n; ++i) {
        keys.push_back((i / 3) % ng);  // runs of one group, like sorted data
        ints.push_back(i % 9 == 4 ? std::nullopt : std::optional<int64_t>(i * 7 - 3000));
        dbls.push_back(i % 5 == 1 ? std::nullopt : std::optional<double>(i % 100 - 50));
        i32s.push_back(2000000000 - i);
      }
      Groups g = group_rows({i64(keys)});
      const size_t groups = g.num_groups();
      std::vector<int64_t> want_i(groups, 0), want_d(groups, 0), cnt_d(groups, 0);
      std::vector<uint32_t> want_32(groups, 0);
      for (int i = 0; i < n; ++i) {
        const IdxSize id = g.group_ids[i];
        if (ints[i]) want_i[id] += *ints[i];
        if (dbls[i]) want_d[id] += static_cast<int64_t>(*dbls[i]), ++cnt_d[id];
        want_32[id] += static_cast<uint32_t>(*i32s[i]);
      }
      ArrayRef si = aggregate_grouped(AggKind::Sum, *i64(ints), g);
      ArrayRef sd = aggregate_grouped(AggKind::Sum, *f64(dbls), g);
      ArrayRef s32 = aggregate_grouped(AggKind::Sum, *i32(i32s), g);
      ArrayRef md = aggregate_grouped(AggKind::Mean, *f64(dbls), g);
      ASSERT_EQ(si->length(), static_cast<int64_t>(groups));
      for (size_t k = 0; k < groups; ++k) {
        EXPECT_EQ(si->values<int64_t>()[k], want_i[k]) << ng << " " << n;
        EXPECT_EQ(sd->values<double>()[k], static_cast<double>(want_d[k])) << ng << " " << n;
        EXPECT_EQ(static_cast<uint32_t>(s32->values<int32_t>()[k]), want_32[k]) << ng << " " << n;
        if (cnt_d[k]) EXPECT_DOUBLE_EQ(md->values<double>()[k], static_cast<double>(want_d[k]) / cnt_d[k]);
        else EXPECT_TRUE(md->is_null(k));
      }
    }
  }
}

// Partial counts of several morsels add up in 64 bits: a total past UInt32 raises instead
// of wrapping (len() over 2^32 + 1 rows gave 1).
TEST(Aggregate, SumCountsRaisesInsteadOfWrapping) {
  EXPECT_EQ(sum_counts(*u32({4000000000u, 294967295u}), "len()").as_uint64(), UINT32_MAX);
  EXPECT_EQ(sum_counts(*u32({}), "len()").as_uint64(), 0u);
  EXPECT_THROW(sum_counts(*u32({4000000000u, 294967296u}), "len()"), ComputeError);
  Groups g = group_rows({i64({1, 2, 1, 2})});
  ArrayRef per_group = sum_counts_grouped(*u32({4000000000u, 5, 294967295u, 6}), g, "count()");
  EXPECT_EQ(array_get(*per_group, 0).as_uint64(), UINT32_MAX);
  EXPECT_EQ(array_get(*per_group, 1).as_uint64(), 11u);
  try {
    sum_counts_grouped(*u32({4000000000u, 5, 294967296u, 6}), g, "count()");
    FAIL() << "no error";
  } catch (const ComputeError& e) {
    EXPECT_NE(std::string(e.what()).find("maximum length reached: count()"), std::string::npos) << e.what();
  }
}
