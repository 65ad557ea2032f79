#include "frazil/sql/literals.hpp"

#include <gtest/gtest.h>

#include "frazil/core/calendar.hpp"

using namespace frazil;
using namespace frazil::sql;

TEST(SqlLiterals, Intervals) {
  auto d = parse_interval("90 days");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->months, 0);
  EXPECT_EQ(d->micros, 90LL * 86400 * 1000000);
  auto m = parse_interval("1 year 2 months -3 days");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->months, 14);
  EXPECT_EQ(m->micros, -3LL * 86400 * 1000000);
  EXPECT_EQ(parse_interval("1:30:00")->micros, 5400LL * 1000000);
  EXPECT_EQ(parse_interval("90", 1 << 3)->micros, 90LL * 86400 * 1000000);  // INTERVAL '90' DAY
  EXPECT_FALSE(parse_interval("3 fortnights"));
  EXPECT_FALSE(parse_interval(""));
  EXPECT_FALSE(parse_interval("1.5 months"));
}

TEST(SqlLiterals, TypedStrings) {
  auto d = parse_typed_literal("1998-09-02", DataType::date());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->as_int64(), days_from_civil(1998, 9, 2));
  EXPECT_FALSE(parse_typed_literal("1998-13-02", DataType::date()));
  auto ts = parse_typed_literal("2020-01-02 03:04:05", DataType::datetime(TimeUnit::Microseconds));
  ASSERT_TRUE(ts);
  EXPECT_EQ(ts->as_int64(), (days_from_civil(2020, 1, 2) * 86400 + 3 * 3600 + 4 * 60 + 5) * 1000000LL);
  EXPECT_EQ(parse_typed_literal("01:02:03", DataType::time())->as_int64(), 3723LL * 1000000000);
}

TEST(SqlLiterals, MonthArithmeticClampsTheDay) {
  Scalar jan31(DataType::date(), int64_t{days_from_civil(2020, 1, 31)});
  Interval one_month{1, 0};
  EXPECT_EQ(add_interval(jan31, one_month, 1).as_int64(), days_from_civil(2020, 2, 29));
  EXPECT_EQ(add_interval(jan31, one_month, -1).as_int64(), days_from_civil(2019, 12, 31));
  Scalar d(DataType::date(), int64_t{days_from_civil(1994, 1, 1)});
  EXPECT_EQ(add_interval(d, Interval{12, 0}, 1).as_int64(), days_from_civil(1995, 1, 1));
  // Hours make a datetime.
  EXPECT_EQ(add_interval(d, Interval{0, 3600LL * 1000000}, 1).dtype().id(), TypeId::Datetime);
}

TEST(SqlLiterals, TypeNames) {
  EXPECT_EQ(*sql_type("int4", {}), DataType::int32());
  EXPECT_EQ(*sql_type("BIGINT", {}), DataType::int64());
  EXPECT_EQ(*sql_type("uint8", {}), DataType::uint64());  // PostgreSQL counts bytes
  EXPECT_EQ(*sql_type("varchar", {10}), DataType::string());
  EXPECT_EQ(*sql_type("decimal", {10, 2}), DataType::decimal(10, 2));
  EXPECT_EQ(*sql_type("numeric", {}), DataType::decimal(38, 9));
  EXPECT_EQ(*sql_type("timestamp", {3}), DataType::datetime(TimeUnit::Milliseconds));
  EXPECT_EQ(*sql_type("timestamptz", {}), DataType::datetime(TimeUnit::Microseconds, std::string("UTC")));
  EXPECT_FALSE(sql_type("nosuchtype", {}));
  EXPECT_FALSE(sql_type("decimal", {50, 2}));
}
