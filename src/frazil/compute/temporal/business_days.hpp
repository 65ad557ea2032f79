// Business days (Polars' dt.add_business_days, dt.is_business_day, pl.business_day_count):
// a week mask of the seven days Monday..Sunday that are business days, and holidays as a
// List(Date) array of one list for every row or one list per row.
#pragma once

#include <array>
#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

using WeekMask = std::array<bool, 7>;

// What to do when the start is not a business day: "raise", "forward", "backward".
ArrayRef add_business_days(const Array& start, const Array& n, const WeekMask& week_mask, const Array& holidays,
                           const std::string& roll);
ArrayRef is_business_day(const Array& dates, const WeekMask& week_mask, const Array& holidays);
// The business days in [start, end) (negative when end is before start), Int32.
ArrayRef business_day_count(const Array& start, const Array& end, const WeekMask& week_mask, const Array& holidays);

}  // namespace frazil::compute
