#include "frazil/compute/temporal/strptime.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/kernel_context.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
StrptimeOptions fmt(const char* f, bool strict = false) {
  StrptimeOptions o;
  o.format = f;
  o.strict = strict;
  return o;
}
ArrayRef raise() { return scalar_to_array(Scalar::string("raise"), 1); }
}  // namespace

// polars: to_date("%Y-%m-%d", strict=False) of ["2024-01-31", "2024-1-5", "2024-02-30", "x",
// "2024/01/31", " 2024-01-31"] -> [2024-01-31, 2024-01-05, None, None, None, 2024-01-31].
TEST(Strptime, ChronoRulesForDates) {
  ArrayRef s = strs({"2024-01-31", "2024-1-5", "2024-02-30", "x", "2024/01/31", " 2024-01-31", N});
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*s, fmt("%Y-%m-%d"))), (Opt<int32_t>{19753, 19727, N, N, N, 19753, N}));
  // "2024105" with %Y%m%d reads 2024-10-05 (numbers take up to their width).
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*strs({"2024105"}), fmt("%Y%m%d"))), (Opt<int32_t>{20001}));
}

// polars: what a format without week or weekday fields lacks is taken from 0001-01-01:
// "2022-01" with "%Y-%m" -> 2022-01-01, "15" with "%d" -> 0001-01-15; with a weekday, nothing is
// filled ("2022 Tue" with "%Y %a" -> None).
TEST(Strptime, MissingFieldsDefaultToTheFirst) {
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*strs({"2022-01", "x"}), fmt("%Y-%m"))), (Opt<int32_t>{18993, N}));
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*strs({"15"}), fmt("%d"))), (Opt<int32_t>{-719148}));
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*strs({"2022 Tue"}), fmt("%Y %a"))), (Opt<int32_t>{N}));
}

// polars: "%Y-%m-%d %H:%M" of "2024-01-0510:00" (a space matches no whitespace too), leap
// second "10:00:60" -> 10:01, %.f optional, %I%p, %j, ISO weeks, %s.
TEST(Strptime, ChronoRulesForDatetimes) {
  const TimeUnit u = TimeUnit::Microseconds;
  auto parse = [&](const char* text, const char* f) {
    return values_of<int64_t>(*str_to_datetime(*strs({text}), u, std::nullopt, fmt(f), *raise()))[0];
  };
  const int64_t jan5_10h = 1704448800'000000LL;
  EXPECT_EQ(parse("2024-01-0510:00", "%Y-%m-%d %H:%M"), jan5_10h);
  EXPECT_EQ(parse("2024-01-05 09:59:60", "%Y-%m-%d %H:%M:%S"), jan5_10h);
  EXPECT_EQ(parse("2024-01-05 10:00:00", "%Y-%m-%d %H:%M:%S%.f"), jan5_10h);
  EXPECT_EQ(parse("2024-01-05 10:00:00.5", "%Y-%m-%d %H:%M:%S%.f"), jan5_10h + 500000);
  EXPECT_EQ(parse("2024-01-05 10:00:00.", "%Y-%m-%d %H:%M:%S%.f"), std::nullopt);
  EXPECT_EQ(parse("05 jan 2024 10:00AM", "%d %B %Y %I:%M%p"), jan5_10h);
  EXPECT_EQ(parse("2024-005 10:00", "%Y-%j %H:%M"), jan5_10h);
  EXPECT_EQ(parse("2024-W01-5 10:00", "%G-W%V-%u %H:%M"), jan5_10h);
  EXPECT_EQ(parse("1704448800", "%s"), jan5_10h);
  EXPECT_EQ(parse("Mon 05 Jan 2024 10:00", "%a %d %b %Y %H:%M"), std::nullopt);  // 2024-01-05 was a Friday
  EXPECT_EQ(parse("2024-01-05 10:00 +01:00", "%Y-%m-%d %H:%M %z"), jan5_10h - 3600'000000LL);
  EXPECT_EQ(parse("2024-01-05 10:00 Z", "%Y-%m-%d %H:%M %#z"), jan5_10h);
  // A format with an offset gives UTC instants.
  EXPECT_EQ(str_to_datetime(*strs({"2024-01-05 10:00 +01:00"}), u, std::nullopt, fmt("%Y-%m-%d %H:%M %z"), *raise())
                ->dtype(),
            DataType::datetime(u, "UTC"));
}

TEST(Strptime, InferenceAndErrors) {
  StrptimeOptions infer;
  infer.strict = true;
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*strs({N, "31/01/2024", "01/02/2024"}), infer)), (Opt<int32_t>{N, 19753, 19754}));
  EXPECT_THROW(str_to_date(*strs({"Jan 31 2024"}), infer), ComputeError);
  infer.strict = false;
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*strs({"Jan 31 2024"}), infer)), (Opt<int32_t>{N}));
  // Polars' strict message names the column and lists the values.
  const std::string column = "when";
  ColumnNameScope scope(column);
  try {
    str_to_date(*strs({"2024-01-31", "2024-13-01", N, "x"}), fmt("%Y-%m-%d", true));
    FAIL();
  } catch (const InvalidOperationError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.substr(0, m.find('\n')), "conversion from `str` to `date` failed in column 'when' for 2 out of 4 "
                                          "values: [\"2024-13-01\", \"x\"]");
  }
  EXPECT_THROW(check_strptime_format("%Y %H"), ComputeError);
  EXPECT_THROW(check_strptime_format("%I:%M"), ComputeError);
  EXPECT_TRUE(format_has_offset("%Y %:z"));
  EXPECT_TRUE(format_has_offset("%+"));
  EXPECT_FALSE(format_has_offset("%Y %Z"));
}

TEST(Strptime, NotExactAndTimes) {
  StrptimeOptions o = fmt("%Y-%m-%d");
  o.exact = false;
  EXPECT_EQ(values_of<int32_t>(*str_to_date(*strs({"on 2024-01-31!", "none"}), o)), (Opt<int32_t>{19753, N}));
  EXPECT_EQ(values_of<int64_t>(*str_to_time(*strs({"10:05", "24:00", "23:59:60"}), fmt("%H:%M:%S%.f"))),
            (Opt<int64_t>{N, N, N}));
  EXPECT_EQ(values_of<int64_t>(*str_to_time(*strs({"10:05:07.5"}), fmt("%H:%M:%S%.f"))),
            (Opt<int64_t>{36307'500000000LL}));
}
