// Temporal values built from their parts: pl.datetime (and pl.date / pl.time through it),
// pl.duration, dt.replace and dt.combine. Part arrays are numbers of any width, each of
// one value (broadcast) or one per row.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// year, month, day, hour, minute, second, microsecond -> Datetime(unit, time_zone): the
// local time in `time_zone` (ambiguous per `ambiguous`, a String array; non-existent
// raises). A null part gives a null; an invalid date or time of day raises ComputeError
// naming the parts ("Invalid date components (2024, 2, 30) supplied").
ArrayRef datetime_from_parts(std::span<const ArrayRef> parts, const Array& ambiguous, TimeUnit unit,
                             const std::optional<std::string>& time_zone);
// weeks, days, hours, minutes, seconds, milliseconds, microseconds, nanoseconds ->
// Duration(unit); float parts are summed as floats and truncated, as Polars.
ArrayRef duration_from_parts(std::span<const ArrayRef> parts, TimeUnit unit);
// dt.replace: the fields given (a Null array or a null row keeps the value's own field)
// replaced in a Date or Datetime (local time for a zoned one, `ambiguous` as above).
ArrayRef replace_fields(const Array& values, std::span<const ArrayRef> parts, const Array& ambiguous);
// dt.combine: the date of a Date or Datetime (its UTC date, as Polars) with a Time ->
// Datetime(unit), in the zone of a zoned input.
ArrayRef combine(const Array& values, const Array& time, TimeUnit unit);

}  // namespace frazil::compute
