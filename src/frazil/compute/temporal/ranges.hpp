// Temporal ranges (Polars' pl.date_range, date_ranges, datetime_range, datetime_ranges,
// time_range, time_ranges): from start to end by an interval in Polars' duration language,
// the ends included or not by `closed` ("both", "left", "right", "none"). Calendar
// intervals step from the start (start + i * interval), in local time for a zoned range.
#pragma once

#include <string>

#include "frazil/compute/temporal/calendar_duration.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

// One range: start and end hold exactly one value each (ComputeError otherwise); a null
// end point gives an empty range. `dtype` is the output dtype (Date, Datetime(unit, zone)
// or Time); start and end are converted to it first (naive datetimes are local time of
// the output zone).
ArrayRef temporal_range(const Array& start, const Array& end, const CalendarDuration& interval,
                        const std::string& closed, const DataType& dtype);
// One range per row (a List(dtype) array; start and end of one value broadcast; a null
// end point gives a null list).
ArrayRef temporal_ranges(const Array& start, const Array& end, const CalendarDuration& interval,
                         const std::string& closed, const DataType& dtype);

}  // namespace frazil::compute
