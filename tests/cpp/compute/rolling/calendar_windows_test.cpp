// Calendar window bounds: months clamp, lookbehind windows end at their row, days in a zone
// are calendar days, fixed durations take the tick path (nullopt).
#include "frazil/compute/rolling/calendar_windows.hpp"

#include <gtest/gtest.h>

using namespace frazil;
using namespace frazil::compute;

namespace {

constexpr int64_t kDay = 86'400'000'000LL;  // Date ticks are microseconds

int64_t day(int y, unsigned m, unsigned d) {
  // days since the epoch (civil_from_days inverse, Howard Hinnant's algorithm)
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return (era * 146097 + static_cast<int64_t>(doe) - 719468) * kDay;
}

}  // namespace

TEST(CalendarWindows, MonthsClampAndLookbehindEndsAtTheRow) {
  // polars: rolling(period="1mo") over 2024-03-31 holds (2024-02-29, 2024-03-31].
  const int64_t t[] = {day(2024, 1, 31), day(2024, 3, 31)};
  auto b = calendar_bounds(t, 2, DataType::date(), "1mo", "");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->lo[0], day(2023, 12, 31));
  EXPECT_EQ(b->lo[1], day(2024, 2, 29));
  EXPECT_EQ(b->hi[1], t[1]);
  // An explicit offset: (t + 0d, t + 0d + 1mo].
  b = calendar_bounds(t, 2, DataType::date(), "1mo", "0d");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->hi[0], day(2024, 2, 29));
}

TEST(CalendarWindows, FixedDurationsUseTicks) {
  const int64_t t[] = {0};
  EXPECT_FALSE(calendar_bounds(t, 1, DataType::date(), "3d", "").has_value());
  EXPECT_FALSE(calendar_bounds(t, 1, DataType::datetime(TimeUnit::Microseconds), "2d", "-1h").has_value());
  EXPECT_FALSE(calendar_bounds(t, 1, DataType::int64(), "3i", "").has_value());
  // Days in a zone are calendar days.
  EXPECT_TRUE(calendar_bounds(t, 1, DataType::datetime(TimeUnit::Microseconds, "America/Chicago"), "2d", "").has_value());
}

TEST(CalendarWindows, DaysAcrossDstAreCalendarDays) {
  // 2021-11-07 06:00 UTC: Chicago falls back from CDT to CST, so that day has 25 hours.
  const int64_t us = 1'000'000;
  const int64_t nov6_local_midnight = (day(2021, 11, 6) / kDay) * 86'400 * us + 5 * 3600 * us;  // CDT = UTC-5
  const int64_t t[] = {nov6_local_midnight};
  auto b = calendar_bounds(t, 1, DataType::datetime(TimeUnit::Microseconds, "America/Chicago"), "2d", "0d");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->hi[0] - b->lo[0], 49 * 3600 * us);  // two calendar days: 24 h + 25 h
}
