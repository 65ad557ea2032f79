#include "frazil/compute/cast.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "elementwise_test_util.hpp"
#include "frazil/compute/cast_format.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
const double kNaN = std::nan("");
const double kInf = std::numeric_limits<double>::infinity();

std::string error_of(const Array& a, const DataType& to, const std::string& column = "c") {
  try {
    cast(a, to, true, column);
  } catch (const InvalidOperationError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// polars 2.1: pl.Series("c", [1.9, -1.9, nan, None, 1e20]).cast(pl.Int64, strict=False)
//   -> [1, -1, None, None, None]; strict raises
//   "conversion from `f64` to `i64` failed in column 'c' for 2 out of 5 values: [NaN, 1.0000e20]"
TEST(Cast, FloatToIntMatchesPolars) {
  ArrayRef a = f64({1.9, -1.9, kNaN, N, 1e20});
  EXPECT_EQ(values_of<int64_t>(*cast(*a, DataType::int64(), false)), (Opt<int64_t>{1, -1, N, N, N}));
  EXPECT_EQ(error_of(*a, DataType::int64()),
            "conversion from `f64` to `i64` failed in column 'c' for 2 out of 5 values: [NaN, 1.0000e20]");
  // [255.9, -0.9] -> UInt8 [255, 0]; 9.223372036854776e18 does not fit i64.
  EXPECT_EQ(values_of<uint8_t>(*cast(*f64({255.9, -0.9}), DataType::uint8())), (Opt<uint8_t>{255, 0}));
  EXPECT_EQ(values_of<int64_t>(*cast(*f64({9.223372036854776e18, -9.223372036854776e18}), DataType::int64(), false)),
            (Opt<int64_t>{N, std::numeric_limits<int64_t>::min()}));
  EXPECT_EQ(values_of<int8_t>(*cast(*f32({127.5f, -128.9f, 128.0f}), DataType::int8(), false)),
            (Opt<int8_t>{127, -128, N}));
}

// polars: [300, -1, 5] -> UInt8 strict error naming [300, -1]; non-strict [None, None, 5].
TEST(Cast, IntegerRangeChecks) {
  ArrayRef a = sliced(i64({300, -1, 5}));
  EXPECT_EQ(values_of<uint8_t>(*cast(*a, DataType::uint8(), false)), (Opt<uint8_t>{N, N, 5}));
  EXPECT_EQ(error_of(*a, DataType::uint8()),
            "conversion from `i64` to `u8` failed in column 'c' for 2 out of 3 values: [300, -1]");
  EXPECT_EQ(values_of<int64_t>(*cast(*u64({UINT64_MAX, 5}), DataType::int64(), false)), (Opt<int64_t>{N, 5}));
  EXPECT_EQ(values_of<int64_t>(*cast(*i8({-128, N}), DataType::int64())), (Opt<int64_t>{-128, N}));
  expect_floats<double>(*cast(*i64({9007199254740993LL}), DataType::float64()), {9007199254740992.0});
  // Float64 -> Float32 overflows to inf, as Polars: [1e300, -1e300, 1e-50] -> [inf, -inf, 0.0].
  expect_floats<float>(*cast(*f64({1e300, -1e300, 1e-50}), DataType::float32()),
                       {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), 0.0f});
  EXPECT_EQ(cast(*i64({}), DataType::int8())->length(), 0);
}

// polars: 11 failing strings "0x".."10x" list as ["0x", "1x", … "9x"].
TEST(Cast, ErrorListsFirstTwoAndLastOfTen) {
  Opt<std::string> v;
  for (int i = 0; i < 11; ++i) v.push_back(std::to_string(i) + "x");
  v.push_back("1");
  EXPECT_EQ(error_of(*strs(v), DataType::int32()),
            "conversion from `str` to `i32` failed in column 'c' for 11 out of 12 values: [\"0x\", \"1x\", … \"9x\"]");
  EXPECT_EQ(error_of(*strs({"1", "x", "y"}), DataType::int64()),
            "conversion from `str` to `i64` failed in column 'c' for 2 out of 3 values: [\"x\", \"y\"]");
}

// polars: [" 1","+2","-3","1.0","x","",None,"0x10","1_000","007"] -> Int64 (non-strict)
//   -> [None, 2, -3, None, None, None, None, None, None, 7]
// ["1","2.5e3","inf","-inf","nan","NaN"," 1.5","1.",".5","x","1e400","-0.0","Infinity","+1.5"]
//   -> Float64 [1.0, 2500.0, inf, -inf, nan, nan, None, 1.0, 0.5, None, inf, -0.0, inf, 1.5]
TEST(Cast, StringToNumberMatchesPolars) {
  ArrayRef s = strs({" 1", "+2", "-3", "1.0", "x", "", N, "0x10", "1_000", "007"});
  EXPECT_EQ(values_of<int64_t>(*cast(*s, DataType::int64(), false)), (Opt<int64_t>{N, 2, -3, N, N, N, N, N, N, 7}));
  ArrayRef f = strs({"1", "2.5e3", "inf", "-inf", "nan", "NaN", " 1.5", "1.", ".5", "x", "1e400", "-0.0", "Infinity",
                     "+1.5"});
  expect_floats<double>(*cast(*f, DataType::float64(), false),
                        {1.0, 2500.0, kInf, -kInf, kNaN, kNaN, N, 1.0, 0.5, N, kInf, -0.0, kInf, 1.5});
  // ["128", "-128"] -> Int8 [None, -128]; ["1", "-1"] -> UInt8 [1, None]; "3.4e39" -> f32 inf.
  EXPECT_EQ(values_of<int8_t>(*cast(*strs({"128", "-128"}), DataType::int8(), false)), (Opt<int8_t>{N, -128}));
  EXPECT_EQ(values_of<uint8_t>(*cast(*strs({"1", "-1"}), DataType::uint8(), false)), (Opt<uint8_t>{1, N}));
  expect_floats<float>(*cast(*strs({"1.5", "3.4e39"}), DataType::float32(), false),
                       {1.5f, std::numeric_limits<float>::infinity()});
  // A long (non-inline) numeric string parses too.
  EXPECT_EQ(values_of<int64_t>(*cast(*sliced(strs({"-9223372036854775808", "12"})), DataType::int64())),
            (Opt<int64_t>{std::numeric_limits<int64_t>::min(), 12}));
}

// polars: [1.0, 2.5, 1e20, 1e-7, nan, inf, -0.0, 0.1, 123456789.0, 1e16, 1e15, 0.3] -> String
//   ['1.0', '2.5', '1e+20', '1e-7', 'NaN', 'inf', '-0.0', '0.1', '123456789.0', '1e+16',
//    '1000000000000000.0', '0.3']; [1e-5, 1e-6] -> ['0.00001', '1e-6'];
//   Float32 [1e-6, 16777217.0, 0.1] -> ['0.000001', '16777216.0', '0.1']
TEST(Cast, ToStringMatchesPolars) {
  ArrayRef f = f64({1.0, 2.5, 1e20, 1e-7, kNaN, kInf, -0.0, 0.1, 123456789.0, 1e16, 1e15, 0.3, 1e-5, 1e-6, N});
  EXPECT_EQ(strs_of(*cast(*f, DataType::string())),
            (Opt<std::string>{"1.0", "2.5", "1e+20", "1e-7", "NaN", "inf", "-0.0", "0.1", "123456789.0", "1e+16",
                              "1000000000000000.0", "0.3", "0.00001", "1e-6", N}));
  EXPECT_EQ(strs_of(*cast(*f32({1e-6f, 16777217.0f, 0.1f}), DataType::string())),
            (Opt<std::string>{"0.000001", "16777216.0", "0.1"}));
  EXPECT_EQ(strs_of(*cast(*sliced(i64({1, -5, N, std::numeric_limits<int64_t>::min()})), DataType::string())),
            (Opt<std::string>{"1", "-5", N, "-9223372036854775808"}));
  EXPECT_EQ(strs_of(*cast(*bools({true, false, N}), DataType::string())), (Opt<std::string>{"true", "false", N}));
  // Dates and datetimes (polars: '2024-01-31 12:00:00.123456', '1969-12-31 23:59:59.500000').
  EXPECT_EQ(strs_of(*cast(*make<int32_t>(DataType::date(), {19753, -1}), DataType::string())),
            (Opt<std::string>{"2024-01-31", "1969-12-31"}));
  ArrayRef t = make<int64_t>(DataType::datetime(TimeUnit::Microseconds), {1706702400123456LL, -500000});
  EXPECT_EQ(strs_of(*cast(*t, DataType::string())),
            (Opt<std::string>{"2024-01-31 12:00:00.123456", "1969-12-31 23:59:59.500000"}));
  ArrayRef tms = make<int64_t>(DataType::datetime(TimeUnit::Milliseconds), {1706702400000LL});
  EXPECT_EQ(strs_of(*cast(*tms, DataType::string())), (Opt<std::string>{"2024-01-31 12:00:00.000"}));
  // Time -> String drops the fraction (polars: time(1, 2, 3, 500000) -> '01:02:03').
  ArrayRef tm = make<int64_t>(DataType::time(), {3723500000000LL});
  EXPECT_EQ(strs_of(*cast(*tm, DataType::string())), (Opt<std::string>{"01:02:03"}));
}

TEST(Cast, BooleanAndNumbers) {
  EXPECT_EQ(values_of<int32_t>(*cast(*bools({true, false, N}), DataType::int32())), (Opt<int32_t>{1, 0, N}));
  expect_floats<float>(*cast(*bools({true}), DataType::float32()), {1.0f});
  EXPECT_EQ(bools_of(*cast(*i64({2, 0, N}), DataType::boolean())), (Opt<bool>{true, false, N}));
  // polars: [2.5, 0.0, nan, -0.0] -> [True, False, True, False]
  EXPECT_EQ(bools_of(*cast(*f64({2.5, 0.0, kNaN, -0.0}), DataType::boolean())), (Opt<bool>{true, false, true, false}));
  // frazil extension: String -> Boolean.
  EXPECT_EQ(bools_of(*cast(*strs({"true", "False", "yes", N}), DataType::boolean(), false)),
            (Opt<bool>{true, false, N, N}));
  EXPECT_THROW(cast(*strs({"yes"}), DataType::boolean()), InvalidOperationError);
}

// polars 2.1: casting String to Date/Datetime/Time raises (str.to_date & co. parse text):
// "casting from string to date is not supported.\nIt was removed in Polars 2.0. Use
// `str.to_date()` instead."
TEST(Cast, StringToTemporalIsRemoved) {
  try {
    cast(*strs({"2024-01-31"}), DataType::date());
    FAIL();
  } catch (const InvalidOperationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "casting from string to date is not supported.\nIt was removed in Polars 2.0. Use `str.to_date()` instead.");
  }
  EXPECT_THROW(cast(*strs({"12:00"}), DataType::time()), InvalidOperationError);
  EXPECT_THROW(cast(*strs({"2024-01-31"}), DataType::datetime(TimeUnit::Microseconds, "Asia/Tokyo")),
               InvalidOperationError);
}

// polars: datetime(2024,1,1) in Asia/Tokyo (2023-12-31 15:00 UTC) -> String
// '2024-01-01 00:00:00.000000+09:00'; 1850-01-01 local (LMT +09:18:59) -> '...+09:19';
// -> Date 2023-12-31 and Time 15:00 (the UTC instant, as Polars' casts); an unknown zone raises
// ComputeError naming it.
TEST(Cast, ZonedDatetime) {
  DataType tokyo = DataType::datetime(TimeUnit::Microseconds, "Asia/Tokyo");
  ArrayRef t = make<int64_t>(tokyo, {1704034800000000LL, -3786859139000000LL, N});
  EXPECT_EQ(strs_of(*cast(*t, DataType::string())),
            (Opt<std::string>{"2024-01-01 00:00:00.000000+09:00", "1850-01-01 00:00:00.000000+09:19", N}));
  EXPECT_EQ(values_of<int32_t>(*cast(*t->slice(0, 1), DataType::date())), (Opt<int32_t>{19722}));
  EXPECT_EQ(values_of<int64_t>(*cast(*t->slice(0, 1), DataType::time())), (Opt<int64_t>{54000000000000LL}));
  EXPECT_EQ(cast(*t, DataType::datetime(TimeUnit::Microseconds, "UTC"))->values<int64_t>()[0], 1704034800000000LL);
  EXPECT_THROW(cast(*t, DataType::datetime(TimeUnit::Microseconds, "Mars/Olympus")), ComputeError);
}

// polars: date(2024,1,31), date(1969,12,31) -> Datetime(ns) and back; Datetime(us)
// [2024-01-31 12:00:00.123456, 1969-12-31 23:59:59.5] -> Date [2024-01-31, 1969-12-31],
// -> Int64 ms [1706702400123, -500], -> Time ns [43200123456000, 86399500000000];
// Datetime(us) 2500-01-01 -> Datetime(ns) fails; 1969-12-31 23:59:59.999999 -> ms -1;
// Duration(us) -1500 -> ms -1 (truncates), -1 -> 0.
TEST(Cast, TemporalConversions) {
  ArrayRef d = make<int32_t>(DataType::date(), {19753, -1, N});
  ArrayRef dns = cast(*d, DataType::datetime(TimeUnit::Nanoseconds));
  EXPECT_EQ(values_of<int64_t>(*dns), (Opt<int64_t>{19753LL * 86'400'000'000'000LL, -86'400'000'000'000LL, N}));
  EXPECT_EQ(values_of<int32_t>(*cast(*dns, DataType::date())), (Opt<int32_t>{19753, -1, N}));
  EXPECT_EQ(values_of<int32_t>(*cast(*d, DataType::int32())), (Opt<int32_t>{19753, -1, N}));
  expect_floats<double>(*cast(*d, DataType::float64()), {19753.0, -1.0, N});

  ArrayRef t = make<int64_t>(DataType::datetime(TimeUnit::Microseconds), {1706702400123456LL, -500000, -1});
  EXPECT_EQ(values_of<int32_t>(*cast(*t, DataType::date())), (Opt<int32_t>{19753, -1, -1}));
  EXPECT_EQ(values_of<int64_t>(*cast(*t, DataType::datetime(TimeUnit::Milliseconds))),
            (Opt<int64_t>{1706702400123LL, -500, -1}));
  EXPECT_EQ(values_of<int64_t>(*cast(*t, DataType::time())), (Opt<int64_t>{43200123456000LL, 86399500000000LL,
                                                                           86399999999000LL}));
  ArrayRef far = make<int64_t>(DataType::datetime(TimeUnit::Microseconds), {16725225600000000LL});
  EXPECT_THROW(cast(*far, DataType::datetime(TimeUnit::Nanoseconds)), InvalidOperationError);
  EXPECT_EQ(values_of<int64_t>(*cast(*far, DataType::datetime(TimeUnit::Nanoseconds), false)), (Opt<int64_t>{N}));

  ArrayRef du = make<int64_t>(DataType::duration(TimeUnit::Microseconds), {-1500, -1, 86400000005LL});
  EXPECT_EQ(values_of<int64_t>(*cast(*du, DataType::duration(TimeUnit::Milliseconds))), (Opt<int64_t>{-1, 0, 86400000}));
  EXPECT_EQ(values_of<int64_t>(*cast(*du, DataType::int64())), (Opt<int64_t>{-1500, -1, 86400000005LL}));
  EXPECT_THROW(cast(*du, DataType::string()), InvalidOperationError);
  // Numbers -> temporals: [1, 2] -> Date [1970-01-02, 1970-01-03]; 1.5 -> Date 1970-01-02;
  // Time must lie within a day.
  EXPECT_EQ(values_of<int32_t>(*cast(*i64({1, 2}), DataType::date())), (Opt<int32_t>{1, 2}));
  EXPECT_EQ(values_of<int32_t>(*cast(*f64({1.5}), DataType::date())), (Opt<int32_t>{1}));
  EXPECT_EQ(cast(*i64({1}), DataType::datetime(TimeUnit::Milliseconds))->dtype(),
            DataType::datetime(TimeUnit::Milliseconds));
  EXPECT_EQ(values_of<int64_t>(*cast(*i64({86'400'000'000'000LL, -1, 5}), DataType::time(), false)),
            (Opt<int64_t>{N, N, 5}));
}

// polars: ["1.245","1.235","-1.245","1e2","1.2.3"," 1",".5","-.5","5."] -> Decimal(10, 2)
//   [1.24, 1.24, -1.24, 100.00, None, None, 0.50, -0.50, 5.00] (half to even);
// [1.245, 0.125, 2.5] (floats) -> [1.25, 0.12, 2.50]; Decimal(10,2) [1.25, -3.99] ->
// Decimal(10,1) [1.2, -4.0], -> Int64 [1, -3], -> String ['1.25', '-3.99'];
// 123456.25 -> Decimal(5, 1) fails; 100000000.0 -> Decimal(5, 2) null.
TEST(Cast, DecimalMatchesPolars) {
  DataType d102 = DataType::decimal(10, 2);
  ArrayRef s = strs({"1.245", "1.235", "-1.245", "1e2", "1.2.3", " 1", ".5", "-.5", "5."});
  ArrayRef d = cast(*s, d102, false);
  EXPECT_EQ(strs_of(*cast(*d, DataType::string())),
            (Opt<std::string>{"1.24", "1.24", "-1.24", "100.00", N, N, "0.50", "-0.50", "5.00"}));
  EXPECT_EQ(strs_of(*cast(*cast(*f64({1.245, 0.125, 2.5}), d102), DataType::string())),
            (Opt<std::string>{"1.25", "0.12", "2.50"}));
  ArrayRef v = cast(*strs({"1.25", "-3.99"}), d102);
  EXPECT_EQ(strs_of(*cast(*cast(*v, DataType::decimal(10, 1)), DataType::string())), (Opt<std::string>{"1.2", "-4.0"}));
  EXPECT_EQ(values_of<int64_t>(*cast(*v, DataType::int64())), (Opt<int64_t>{1, -3}));
  expect_floats<double>(*cast(*v, DataType::float64()), {1.25, -3.99});
  EXPECT_EQ(strs_of(*cast(*cast(*i64({12, -3}), d102), DataType::string())), (Opt<std::string>{"12.00", "-3.00"}));
  EXPECT_THROW(cast(*cast(*strs({"123456.25"}), d102), DataType::decimal(5, 1)), InvalidOperationError);
  EXPECT_EQ(cast(*f64({100000000.0}), DataType::decimal(5, 2), false)->null_count(), 1);
  EXPECT_EQ(format_decimal(5, 2), "0.05");
  EXPECT_EQ(format_decimal(-5, 0), "-5");
}

TEST(Cast, NullsNestedAndUnsupported) {
  ArrayRef nulls = make_null_array(DataType::null(), 2);
  EXPECT_EQ(cast(*nulls, DataType::int64())->null_count(), 2);
  EXPECT_EQ(cast(*nulls, DataType::int64())->dtype(), DataType::int64());
  // polars: [1, None] -> Null fails ("conversion from `i64` to `null`"); all-null converts.
  EXPECT_THROW(cast(*i64({1, N}), DataType::null()), InvalidOperationError);
  EXPECT_EQ(cast(*i64({N}), DataType::null())->length(), 1);
  // Binary <-> String; invalid UTF-8 fails.
  ArrayRef bin = strs({"ab", "a binary value over twelve", "\xff"}, DataType::binary());
  EXPECT_EQ(strs_of(*cast(*bin, DataType::string(), false)),
            (Opt<std::string>{"ab", "a binary value over twelve", N}));
  EXPECT_EQ(cast(*strs({"x"}), DataType::binary())->dtype(), DataType::binary());
  // List(Int64) -> List(String) (polars: [[1, 2], [3, None], None] -> [['1','2'], ['3', None], None]).
  Buffer offsets = Buffer::allocate(4 * sizeof(int64_t));
  int64_t* o = offsets.mutable_as<int64_t>();
  o[0] = 0, o[1] = 2, o[2] = 4, o[3] = 4;
  Buffer validity = Buffer::zeroed(1);
  set_bit(validity.mutable_data(), 0);
  set_bit(validity.mutable_data(), 1);
  ArrayRef list = Array::make(DataType::list(DataType::int64()), 3, validity, {offsets}, {i64({1, 2, 3, N})});
  ArrayRef ls = cast(*list, DataType::list(DataType::string()));
  EXPECT_EQ(ls->dtype(), DataType::list(DataType::string()));
  EXPECT_EQ(array_get(*ls, 0).to_string(), "[\"1\", \"2\"]");
  EXPECT_EQ(array_get(*ls, 1).to_string(), "[\"3\", null]");
  EXPECT_TRUE(ls->is_null(2));
  EXPECT_EQ(array_get(*cast(*list, DataType::list(DataType::uint8())), 0).to_string(), "[1, 2]");
  ArrayRef neg = Array::make(DataType::list(DataType::int64()), 1, Buffer(), {offsets}, {i64({-1, 2})});
  EXPECT_THROW(cast(*neg, DataType::list(DataType::uint8())), InvalidOperationError);
}

TEST(Cast, CanCast) {
  EXPECT_TRUE(can_cast(DataType::int64(), DataType::float32()));
  EXPECT_FALSE(can_cast(DataType::string(), DataType::date()));
  EXPECT_FALSE(can_cast(DataType::duration(TimeUnit::Microseconds), DataType::string()));
  EXPECT_FALSE(can_cast(DataType::date(), DataType::duration(TimeUnit::Microseconds)));
  EXPECT_THROW(cast(*make<int64_t>(DataType::duration(TimeUnit::Microseconds), {1}), DataType::date()),
               InvalidOperationError);
}
