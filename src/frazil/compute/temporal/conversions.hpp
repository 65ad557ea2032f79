// Conversions between temporal dtypes and numbers (Polars' dt.date, dt.time,
// dt.timestamp, dt.cast_time_unit, dt.total_days .. total_nanoseconds).
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// dt.date / dt.time: the local date / time of day of a Datetime (a Date stays itself for
// date; a Time for time).
ArrayRef local_date(const Array& values);
ArrayRef local_time(const Array& values);
// dt.timestamp: Int64 count of `unit` since the epoch (Date, Datetime: its UTC instant).
ArrayRef timestamp(const Array& values, TimeUnit unit);
// dt.cast_time_unit: the same instants (durations) in another unit, keeping the zone.
ArrayRef cast_time_unit(const Array& values, TimeUnit unit);

enum class DurationUnit { Days, Hours, Minutes, Seconds, Milliseconds, Microseconds, Nanoseconds };
// dt.total_*: a Duration as an Int64 count of whole units (truncated toward zero), or
// Float64 when `fractional`.
ArrayRef duration_total(const Array& values, DurationUnit unit, bool fractional);

}  // namespace frazil::compute
