#include "frazil/compute/temporal/business_days.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
const WeekMask kMonFri{true, true, true, true, true, false, false};
// A List(Date) of one list for every row.
ArrayRef holidays(const std::vector<int32_t>& days) {
  ArrayRef child = make<int32_t>(DataType::date(), Opt<int32_t>(days.begin(), days.end()));
  Buffer off = Buffer::allocate(2 * sizeof(int64_t));
  off.mutable_as<int64_t>()[0] = 0;
  off.mutable_as<int64_t>()[1] = static_cast<int64_t>(days.size());
  return Array::make(DataType::list(DataType::date()), 1, Buffer(), {off}, {child});
}
// 2024-01-05 is a Friday (day 19727).
constexpr int32_t kFri = 19727;
}  // namespace

// polars: add_business_days(2024-01-05, 1) = 2024-01-08; with 2024-01-08 a holiday,
// 2024-01-09; -1 from Monday 2024-01-08 = Friday; Saturday start raises unless rolled.
TEST(BusinessDays, AddCountAndCheck) {
  ArrayRef none = holidays({});
  ArrayRef one = make<int64_t>(DataType::int64(), {1});
  EXPECT_EQ(values_of<int32_t>(*add_business_days(*make<int32_t>(DataType::date(), {kFri}), *one, kMonFri, *none, "raise")),
            (Opt<int32_t>{kFri + 3}));
  EXPECT_EQ(values_of<int32_t>(*add_business_days(*make<int32_t>(DataType::date(), {kFri}), *one, kMonFri,
                                                  *holidays({kFri + 3}), "raise")),
            (Opt<int32_t>{kFri + 4}));
  ArrayRef minus = make<int64_t>(DataType::int64(), {-1});
  EXPECT_EQ(values_of<int32_t>(*add_business_days(*make<int32_t>(DataType::date(), {kFri + 3}), *minus, kMonFri, *none,
                                                  "raise")),
            (Opt<int32_t>{kFri}));
  ArrayRef saturday = make<int32_t>(DataType::date(), {kFri + 1});
  EXPECT_THROW(add_business_days(*saturday, *one, kMonFri, *none, "raise"), ComputeError);
  EXPECT_EQ(values_of<int32_t>(*add_business_days(*saturday, *one, kMonFri, *none, "forward")), (Opt<int32_t>{kFri + 4}));
  // Two weeks from Friday to Friday: 10 business days; backwards: -10.
  ArrayRef a = make<int32_t>(DataType::date(), {kFri, kFri + 14}), b = make<int32_t>(DataType::date(), {kFri + 14, kFri});
  EXPECT_EQ(values_of<int32_t>(*business_day_count(*a, *b, kMonFri, *none)), (Opt<int32_t>{10, -10}));
  EXPECT_EQ(bools_of(*is_business_day(*make<int32_t>(DataType::date(), {kFri, kFri + 1, N}), kMonFri, *none)),
            (Opt<bool>{true, false, N}));
  EXPECT_THROW(is_business_day(*saturday, WeekMask{}, *none), ComputeError);
}
