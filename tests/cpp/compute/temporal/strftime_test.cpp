#include "frazil/compute/temporal/strftime.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

// polars: datetime(2024, 2, 29, 13, 45, 59, 123456).dt.strftime(...) and to_string("iso").
TEST(Strftime, ChronoSpecifiers) {
  ArrayRef t = make<int64_t>(DataType::datetime(TimeUnit::Microseconds), {1709214359123456LL, N});
  auto fmt = [&](const char* f) { return strs_of(*strftime(*t, f))[0].value_or("null"); };
  EXPECT_EQ(fmt("%Y-%m-%d %H:%M:%S"), "2024-02-29 13:45:59");
  EXPECT_EQ(fmt("%A %e %B %y %I:%M %p %j"), "Thursday 29 February 24 01:45 PM 060");
  EXPECT_EQ(fmt("%.f|%.3f|%3f|%f"), ".123456|.123|123|123456000");
  EXPECT_EQ(fmt("%G-W%V-%u %U %W %w"), "2024-W09-4 08 09 4");
  EXPECT_EQ(fmt("%-d/%-m %_H %%"), "29/2 13 %");
  EXPECT_EQ(fmt("%s"), "1709214359");
  EXPECT_EQ(strs_of(*strftime(*t, "iso"))[0], "2024-02-29 13:45:59.123456");
  EXPECT_EQ(strs_of(*strftime(*t, "iso:strict"))[0], "2024-02-29T13:45:59.123456");
  EXPECT_THROW(strftime(*t, "%z"), ComputeError);  // a naive value has no offset
  EXPECT_THROW(strftime(*t, "%Q"), ComputeError);
}

TEST(Strftime, ZonedDatesTimesDurations) {
  ArrayRef z = make<int64_t>(DataType::datetime(TimeUnit::Milliseconds, "Asia/Kolkata"), {0});
  EXPECT_EQ(strs_of(*strftime(*z, "%F %T %Z %z %:z")), (Opt<std::string>{"1970-01-01 05:30:00 IST +0530 +05:30"}));
  ArrayRef d = make<int32_t>(DataType::date(), {-1});
  EXPECT_EQ(strs_of(*strftime(*d, "%d.%m.%Y %a")), (Opt<std::string>{"31.12.1969 Wed"}));
  EXPECT_THROW(strftime(*d, "%H"), ComputeError);
  ArrayRef tm = make<int64_t>(DataType::time(), {3723'000004000LL});
  EXPECT_EQ(strs_of(*strftime(*tm, "iso")), (Opt<std::string>{"01:02:03.000004"}));
  ArrayRef du = make<int64_t>(DataType::duration(TimeUnit::Microseconds), {-90'000000LL, 273600000005LL, 0});
  EXPECT_EQ(strs_of(*strftime(*du, "iso")), (Opt<std::string>{"-PT1M30S", "P3DT4H0.000005S", "PT0S"}));
  EXPECT_EQ(strs_of(*strftime(*du, "polars")), (Opt<std::string>{"-1m -30s", "3d 4h 5µs", "0µs"}));
  EXPECT_THROW(strftime(*du, "%H"), InvalidOperationError);
}
