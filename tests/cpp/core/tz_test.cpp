#include "frazil/core/tz.hpp"

#include <gtest/gtest.h>

#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::tz;

namespace {
constexpr int64_t kHour = 3600;
// 2024-03-31 01:00 UTC: Amsterdam moves from +01:00 to +02:00 (02:00 local -> 03:00).
constexpr int64_t kAmsSpring = 1711846800;
// 2024-10-27 01:00 UTC: back from +02:00 to +01:00 (03:00 local -> 02:00).
constexpr int64_t kAmsAutumn = 1729990800;
}  // namespace

TEST(TimeZone, OffsetsAndAbbreviations) {
  const TimeZone& ams = TimeZone::get("Europe/Amsterdam");
  EXPECT_EQ(ams.offset_at(kAmsSpring - 1).total, 3600);
  EXPECT_STREQ(ams.offset_at(kAmsSpring - 1).abbreviation, "CET");
  EXPECT_EQ(ams.offset_at(kAmsSpring).total, 7200);
  EXPECT_STREQ(ams.offset_at(kAmsSpring).abbreviation, "CEST");
  EXPECT_TRUE(ams.offset_at(kAmsSpring).is_dst);
  EXPECT_EQ(ams.base_offset_at(kAmsSpring), 3600);
  EXPECT_EQ(ams.transition_at_or_before(kAmsSpring + 10), kAmsSpring);
  EXPECT_EQ(ams.transition_after(kAmsSpring - 10), kAmsSpring);
  // Kolkata: +05:30 all year; New York: -05:00 in January.
  EXPECT_EQ(TimeZone::get("Asia/Kolkata").offset_at(0).total, 19800);
  EXPECT_EQ(TimeZone::get("America/New_York").offset_at(1704067200).total, -5 * 3600);
  EXPECT_TRUE(TimeZone::get("UTC").is_utc());
  EXPECT_FALSE(ams.is_utc());
}

TEST(TimeZone, LocalTimesInGapsAndOverlaps) {
  const TimeZone& ams = TimeZone::get("Europe/Amsterdam");
  const int64_t spring_local = kAmsSpring + kHour;  // 02:00 local, the first skipped second
  EXPECT_EQ(ams.lookup_local(spring_local + 1800).kind, LocalLookup::NonExistent);
  const LocalLookup before = ams.lookup_local(spring_local - 1);
  EXPECT_EQ(before.kind, LocalLookup::Unique);
  EXPECT_EQ(before.earliest, kAmsSpring - 1);
  const int64_t autumn_local = kAmsAutumn + kHour;  // 02:00 local, which repeats
  const LocalLookup amb = ams.lookup_local(autumn_local + 1800);
  EXPECT_EQ(amb.kind, LocalLookup::Ambiguous);
  EXPECT_EQ(amb.earliest, kAmsAutumn - 1800);
  EXPECT_EQ(amb.latest, kAmsAutumn + 1800);
}

TEST(TimeZone, CursorMatchesLookupsAndRaisesWithPolarsMessages) {
  const TimeZone& ny = TimeZone::get("America/New_York");
  ZoneCursor cursor(ny);
  // Every hour over two years, out of order: the cache never changes an answer.
  for (int64_t k = 0; k < 2 * 365 * 24; k += 7) {
    const int64_t s = 1672531200 + ((k * 7919) % (2 * 365 * 24)) * kHour;
    ASSERT_EQ(cursor.offset(s), ny.offset_at(s).total) << s;
  }
  // 2024-03-10 02:30 does not exist in New York; 2024-11-03 01:30 occurs twice.
  const int64_t gap = 1710037800, overlap = 1730597400;
  EXPECT_EQ(cursor.to_utc(gap, Ambiguous::Raise, NonExistent::Null), std::nullopt);
  try {
    cursor.to_utc(gap, Ambiguous::Raise, NonExistent::Raise);
    FAIL();
  } catch (const ComputeError& e) {
    EXPECT_EQ(std::string(e.what()), "datetime '2024-03-10 02:30:00' is non-existent in time zone "
                                     "'America/New_York'. You may be able to use `non_existent='null'` to return "
                                     "`null` in this case.");
  }
  EXPECT_EQ(cursor.to_utc(overlap, Ambiguous::Earliest, NonExistent::Raise), overlap + 4 * kHour);
  EXPECT_EQ(cursor.to_utc(overlap, Ambiguous::Latest, NonExistent::Raise), overlap + 5 * kHour);
  EXPECT_EQ(cursor.to_utc(overlap, Ambiguous::Null, NonExistent::Raise), std::nullopt);
  EXPECT_THROW(cursor.to_utc(overlap, Ambiguous::Raise, NonExistent::Raise), ComputeError);
  // Sub-second values keep their fraction.
  EXPECT_EQ(cursor.utc_value(1704067200'123456LL, 1'000'000, Ambiguous::Raise, NonExistent::Raise),
            1704067200'123456LL + 5 * kHour * 1'000'000);
}

TEST(TimeZone, NamesAsPolarsSpellsThem) {
  EXPECT_EQ(canonical_name("+01:00"), "Etc/GMT-1");
  EXPECT_EQ(canonical_name("-0500"), "Etc/GMT+5");
  EXPECT_EQ(canonical_name("+00:00"), "UTC");
  EXPECT_EQ(canonical_name("utc"), "UTC");
  EXPECT_EQ(canonical_name("Asia/Tokyo"), "Asia/Tokyo");
  EXPECT_FALSE(TimeZone::exists("Mars/Olympus"));
  EXPECT_FALSE(TimeZone::exists("Fixed/UTC+01:00:00"));
  try {
    TimeZone::get("Europe/Amsterdma");
    FAIL();
  } catch (const ComputeError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("unable to parse time zone: 'Europe/Amsterdma'"), std::string::npos) << m;
    EXPECT_NE(m.find("did you mean 'Europe/Amsterdam'"), std::string::npos) << m;
  }
  EXPECT_THROW(parse_ambiguous("sometimes"), InvalidOperationError);
  EXPECT_EQ(parse_non_existent("null"), NonExistent::Null);
}

TEST(TimeZone, Formatting) {
  EXPECT_EQ(format_offset(9 * 3600 + 18 * 60 + 59), "+09:19");  // LMT of Tokyo, rounded as chrono
  EXPECT_EQ(format_offset(-(4 * 3600 + 56 * 60 + 2), false), "-0456");
  EXPECT_EQ(format_display(1704034800'000000LL, TimeUnit::Microseconds, "Asia/Tokyo"), "2024-01-01 00:00:00 JST");
  EXPECT_EQ(format_display(0, TimeUnit::Milliseconds, "Mars/Olympus"), "1970-01-01 00:00:00 Mars/Olympus");
}
