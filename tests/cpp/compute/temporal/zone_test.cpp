#include "frazil/compute/temporal/zone.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/temporal/fields.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
ArrayRef choice(const char* s) { return scalar_to_array(Scalar::string(s), 1); }
constexpr int64_t kUs = 1'000'000;
}  // namespace

// polars: datetime(2024,1,1) in Asia/Tokyo is 2023-12-31 15:00 UTC; its day and hour are
// 1 and 0 (local time).
TEST(Zone, FieldsReadLocalTime) {
  ArrayRef t = make<int64_t>(DataType::datetime(TimeUnit::Microseconds, "Asia/Tokyo"), {1704034800 * kUs, N});
  EXPECT_EQ(values_of<int8_t>(*date_part(*t, DatePart::Day)), (Opt<int8_t>{1, N}));
  EXPECT_EQ(values_of<int8_t>(*date_part(*t, DatePart::Hour)), (Opt<int8_t>{0, N}));
  EXPECT_EQ(values_of<int64_t>(*to_local_clock(*t)), (Opt<int64_t>{1704067200 * kUs, N}));
}

// polars: replace_time_zone("Europe/Amsterdam") of 2024-10-27 02:30 (twice) and
// 2024-03-31 02:30 (never).
TEST(Zone, ReplaceTimeZoneAmbiguousAndNonExistent) {
  const DataType naive = DataType::datetime(TimeUnit::Microseconds);
  ArrayRef overlap = make<int64_t>(naive, {1729996200 * kUs});
  EXPECT_EQ(values_of<int64_t>(*replace_time_zone(*overlap, "Europe/Amsterdam", *choice("earliest"), tz::NonExistent::Raise)),
            (Opt<int64_t>{1729989000 * kUs}));
  EXPECT_EQ(values_of<int64_t>(*replace_time_zone(*overlap, "Europe/Amsterdam", *choice("latest"), tz::NonExistent::Raise)),
            (Opt<int64_t>{1729992600 * kUs}));
  EXPECT_EQ(values_of<int64_t>(*replace_time_zone(*overlap, "Europe/Amsterdam", *choice("null"), tz::NonExistent::Raise)),
            (Opt<int64_t>{N}));
  EXPECT_THROW(replace_time_zone(*overlap, "Europe/Amsterdam", *choice("raise"), tz::NonExistent::Raise), ComputeError);
  ArrayRef gap = make<int64_t>(naive, {1711852200 * kUs, N});
  EXPECT_EQ(values_of<int64_t>(*replace_time_zone(*gap, "Europe/Amsterdam", *choice("raise"), tz::NonExistent::Null)),
            (Opt<int64_t>{N, N}));
  // Per-row choices; to None gives local clock values back.
  ArrayRef two = make<int64_t>(naive, {1729996200 * kUs, 1729996200 * kUs});
  ArrayRef choices = strs({"earliest", "latest"});
  ArrayRef zoned = replace_time_zone(*two, "Europe/Amsterdam", *choices, tz::NonExistent::Raise);
  EXPECT_EQ(values_of<int64_t>(*zoned), (Opt<int64_t>{1729989000 * kUs, 1729992600 * kUs}));
  EXPECT_EQ(values_of<int64_t>(*replace_time_zone(*zoned, std::nullopt, *choice("raise"), tz::NonExistent::Raise)),
            (Opt<int64_t>{1729996200 * kUs, 1729996200 * kUs}));
  EXPECT_EQ(replace_time_zone(*two, "+01:00", *choice("raise"), tz::NonExistent::Raise)->dtype().time_zone(),
            std::optional<std::string>("Etc/GMT-1"));
}

TEST(Zone, OffsetsAndConversion) {
  ArrayRef t = make<int64_t>(DataType::datetime(TimeUnit::Milliseconds, "Europe/Amsterdam"),
                             {1704067200'000LL, 1719792000'000LL});
  EXPECT_EQ(values_of<int64_t>(*base_utc_offset(*t)), (Opt<int64_t>{3600'000, 3600'000}));
  EXPECT_EQ(values_of<int64_t>(*dst_offset(*t)), (Opt<int64_t>{0, 3600'000}));
  EXPECT_EQ(convert_time_zone(*t, "UTC")->dtype(), DataType::datetime(TimeUnit::Milliseconds, "UTC"));
  EXPECT_THROW(convert_time_zone(*t, "Nowhere/Zone"), ComputeError);
}
