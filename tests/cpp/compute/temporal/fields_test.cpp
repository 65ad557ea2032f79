#include "frazil/compute/temporal/fields.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

// Expected values printed by polars 2.1.0 for
// [datetime(2024, 2, 29, 13, 45, 59, 123456), datetime(1969, 12, 31, 23, 59, 59, 999999), None]
// (Datetime('us')): year [2024, 1969] Int32, month [2, 12] Int8, day [29, 31], hour [13, 23],
// minute [45, 59], second [59, 59], millisecond [123, 999] Int32, microsecond
// [123456, 999999], nanosecond [123456000, 999999000], weekday [4, 3], ordinal_day
// [60, 365] Int16, quarter [1, 4].
TEST(Temporal, DatetimePartsMatchPolars) {
  ArrayRef t = make<int64_t>(DataType::datetime(TimeUnit::Microseconds), {1709214359123456LL, -1, N});
  auto part = [&](DatePart p) { return date_part(*t, p); };
  EXPECT_EQ(part(DatePart::Year)->dtype(), DataType::int32());
  EXPECT_EQ(values_of<int32_t>(*part(DatePart::Year)), (Opt<int32_t>{2024, 1969, N}));
  EXPECT_EQ(part(DatePart::Month)->dtype(), DataType::int8());
  EXPECT_EQ(values_of<int8_t>(*part(DatePart::Month)), (Opt<int8_t>{2, 12, N}));
  EXPECT_EQ(values_of<int8_t>(*part(DatePart::Day)), (Opt<int8_t>{29, 31, N}));
  EXPECT_EQ(values_of<int8_t>(*part(DatePart::Hour)), (Opt<int8_t>{13, 23, N}));
  EXPECT_EQ(values_of<int8_t>(*part(DatePart::Minute)), (Opt<int8_t>{45, 59, N}));
  EXPECT_EQ(values_of<int8_t>(*part(DatePart::Second)), (Opt<int8_t>{59, 59, N}));
  EXPECT_EQ(values_of<int32_t>(*part(DatePart::Millisecond)), (Opt<int32_t>{123, 999, N}));
  EXPECT_EQ(values_of<int32_t>(*part(DatePart::Microsecond)), (Opt<int32_t>{123456, 999999, N}));
  EXPECT_EQ(values_of<int32_t>(*part(DatePart::Nanosecond)), (Opt<int32_t>{123456000, 999999000, N}));
  EXPECT_EQ(values_of<int8_t>(*part(DatePart::Weekday)), (Opt<int8_t>{4, 3, N}));
  EXPECT_EQ(part(DatePart::Ordinal)->dtype(), DataType::int16());
  EXPECT_EQ(values_of<int16_t>(*part(DatePart::Ordinal)), (Opt<int16_t>{60, 365, N}));
  EXPECT_EQ(values_of<int8_t>(*part(DatePart::Quarter)), (Opt<int8_t>{1, 4, N}));
}

TEST(Temporal, OtherUnitsAndSlices) {
  // The same instants in ns and ms.
  ArrayRef ns = make<int64_t>(DataType::datetime(TimeUnit::Nanoseconds), {1709214359123456789LL, -1});
  EXPECT_EQ(values_of<int32_t>(*date_part(*ns, DatePart::Nanosecond)), (Opt<int32_t>{123456789, 999999999}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*ns, DatePart::Day)), (Opt<int8_t>{29, 31}));
  ArrayRef ms = sliced(make<int64_t>(DataType::datetime(TimeUnit::Milliseconds), {1709214359123LL, -1}));
  EXPECT_EQ(values_of<int32_t>(*date_part(*ms, DatePart::Microsecond)), (Opt<int32_t>{123000, 999000}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*ms, DatePart::Hour)), (Opt<int8_t>{13, 23}));
  EXPECT_EQ(date_part(*make<int64_t>(DataType::datetime(TimeUnit::Microseconds), {}), DatePart::Year)->length(), 0);
}

// polars: [date(2024, 12, 31), date(1900, 3, 1)] -> year [2024, 1900], month [12, 3],
// day [31, 1], weekday [2, 4], ordinal_day [366, 60], quarter [4, 1]; .dt.hour() raises.
TEST(Temporal, DatePartsMatchPolars) {
  ArrayRef d = sliced(make<int32_t>(DataType::date(), {20088, -25508}));
  EXPECT_EQ(values_of<int32_t>(*date_part(*d, DatePart::Year)), (Opt<int32_t>{2024, 1900}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*d, DatePart::Month)), (Opt<int8_t>{12, 3}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*d, DatePart::Day)), (Opt<int8_t>{31, 1}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*d, DatePart::Weekday)), (Opt<int8_t>{2, 4}));
  EXPECT_EQ(values_of<int16_t>(*date_part(*d, DatePart::Ordinal)), (Opt<int16_t>{366, 60}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*d, DatePart::Quarter)), (Opt<int8_t>{4, 1}));
  EXPECT_THROW(date_part(*d, DatePart::Hour), InvalidOperationError);
  EXPECT_THROW(date_part(*i64({1}), DatePart::Year), InvalidOperationError);
}

TEST(Temporal, TimeParts) {
  // 01:02:03.000004 as Time (ns since midnight).
  ArrayRef t = make<int64_t>(DataType::time(), {3723000004000LL, N});
  EXPECT_EQ(values_of<int8_t>(*date_part(*t, DatePart::Hour)), (Opt<int8_t>{1, N}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*t, DatePart::Minute)), (Opt<int8_t>{2, N}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*t, DatePart::Second)), (Opt<int8_t>{3, N}));
  EXPECT_EQ(values_of<int32_t>(*date_part(*t, DatePart::Microsecond)), (Opt<int32_t>{4, N}));
  EXPECT_THROW(date_part(*t, DatePart::Year), InvalidOperationError);
  EXPECT_EQ(date_part_dtype(DatePart::Ordinal), DataType::int16());
}
