#include "frazil/compute/temporal/calendar_duration.hpp"

#include <gtest/gtest.h>

#include "frazil/core/calendar.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;

namespace {
constexpr int64_t kUsPerDay = 86'400'000'000LL;
int64_t us(int64_t y, unsigned m, unsigned d, int64_t h = 0, int64_t mi = 0) {
  return days_from_civil(y, m, d) * kUsPerDay + (h * 3600 + mi * 60) * 1'000'000;
}
}  // namespace

// polars: Duration.parse("-1y2mo3w4d5h6m7s") and the messages of bad strings.
TEST(CalendarDuration, ParsesPolarsLanguage) {
  CalendarDuration d = CalendarDuration::parse("-1y2mo3w4d5h6m7s");
  EXPECT_TRUE(d.negative);
  EXPECT_EQ(d.months, 14);
  EXPECT_EQ(d.weeks, 3);
  EXPECT_EQ(d.days, 4);
  EXPECT_EQ(d.nanos, (5 * 3600 + 6 * 60 + 7) * 1'000'000'000LL);
  EXPECT_EQ(CalendarDuration::parse("1q").months, 3);
  EXPECT_TRUE(CalendarDuration::parse("3i").parsed_int);
  EXPECT_EQ(CalendarDuration::parse("1s500ms").to_string(), "1500000us");
  EXPECT_EQ(CalendarDuration::parse("0s").to_string(), "0s");
  EXPECT_EQ(CalendarDuration::parse("1mo").estimate(TimeUnit::Milliseconds), 28LL * 86'400'000);
  for (const char* bad : {"1x", "1", "d", "1d-1h", "--1d", "1 d"}) EXPECT_THROW(CalendarDuration::parse(bad), InvalidOperationError) << bad;
  try {
    CalendarDuration::parse("1x");
  } catch (const InvalidOperationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "unit: 'x' not supported; available units are: 'y', 'mo', 'q', 'w', 'd', 'h', 'm', 's', 'ms', 'us', 'ns'");
  }
}

// polars: datetime(2024,1,31).dt.offset_by("1mo") = 2024-02-29; "-1mo" from 2024-03-31 = 2024-02-29;
// "1y" from 2024-02-29 = 2025-02-28; "1d" in Amsterdam across the spring change keeps the clock.
TEST(CalendarDuration, AddsCalendarUnits) {
  const TimeUnit u = TimeUnit::Microseconds;
  EXPECT_EQ(add_duration(CalendarDuration::parse("1mo"), us(2024, 1, 31, 10), u, nullptr), us(2024, 2, 29, 10));
  EXPECT_EQ(add_duration(CalendarDuration::parse("-1mo"), us(2024, 3, 31), u, nullptr), us(2024, 2, 29));
  EXPECT_EQ(add_duration(CalendarDuration::parse("1y"), us(2024, 2, 29), u, nullptr), us(2025, 2, 28));
  EXPECT_EQ(add_duration(CalendarDuration::parse("1mo2d"), us(1969, 12, 31, 23, 30), u, nullptr),
            us(1970, 2, 2, 23, 30));
  tz::ZoneCursor ams(tz::TimeZone::get("Europe/Amsterdam"));
  // 2024-03-30 12:00 CET (11:00 UTC) + 1 day = 2024-03-31 12:00 CEST (10:00 UTC); + 24h = 13:00 CEST.
  const int64_t start = us(2024, 3, 30, 11);
  EXPECT_EQ(add_duration(CalendarDuration::parse("1d"), start, u, &ams), us(2024, 3, 31, 10));
  EXPECT_EQ(add_duration(CalendarDuration::parse("24h"), start, u, &ams), us(2024, 3, 31, 11));
}

// polars: truncate("1w") goes back to Monday, "1mo" to the 1st, "3mo" to quarters from 1970,
// "1d" of a zoned value to local midnight.
TEST(CalendarDuration, TruncatesToCalendarMultiples) {
  const TimeUnit u = TimeUnit::Microseconds;
  EXPECT_EQ(truncate_to(CalendarDuration::parse("1w"), us(2024, 1, 31, 10), u, nullptr), us(2024, 1, 29));
  EXPECT_EQ(truncate_to(CalendarDuration::parse("1mo"), us(2024, 2, 29, 23, 59), u, nullptr), us(2024, 2, 1));
  EXPECT_EQ(truncate_to(CalendarDuration::parse("3mo"), us(2024, 5, 17), u, nullptr), us(2024, 4, 1));
  EXPECT_EQ(truncate_to(CalendarDuration::parse("1h"), us(1969, 12, 31, 23, 59), u, nullptr), us(1969, 12, 31, 23));
  tz::ZoneCursor kol(tz::TimeZone::get("Asia/Kolkata"));
  // 2024-01-01 02:00 IST is 2023-12-31 20:30 UTC; local midnight is 2023-12-31 18:30 UTC.
  EXPECT_EQ(truncate_to(CalendarDuration::parse("1d"), us(2023, 12, 31, 20, 30), u, &kol), us(2023, 12, 31, 18, 30));
  EXPECT_THROW(truncate_to(CalendarDuration::parse("1mo1d"), 0, u, nullptr), ComputeError);
  EXPECT_THROW(truncate_to(CalendarDuration::parse("0s"), 0, u, nullptr), ComputeError);
}
