// Calendar and clock fields of temporal values (Polars' dt.year, dt.hour, dt.week, ...).
// A zoned Datetime gives the fields of its local time.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class DatePart { Year, Month, Day, Hour, Minute, Second, Millisecond, Microsecond,
                      Nanosecond, Weekday, Ordinal, Quarter, Week, IsoYear, Century, Millennium };

// Year/IsoYear/Century/Millennium -> Int32, Month/Day/Hour/Minute/Second/Weekday(1=Monday)/
// Quarter/Week (ISO 8601) -> Int8, Ordinal -> Int16, sub-second parts -> Int32, as Polars.
// Date supports the calendar parts; Time the clock parts (Hour..Nanosecond); Datetime all
// of them (negative values floor to the previous day, as Polars). Other combinations raise
// InvalidOperationError. Nulls stay null.
ArrayRef date_part(const Array& values, DatePart part);
DataType date_part_dtype(DatePart part);
const char* date_part_name(DatePart part);  // Polars' method name: "year", "ordinal_day", ...

// dt.is_leap_year (Boolean) and dt.days_in_month (Int8) of a Date or Datetime.
ArrayRef is_leap_year(const Array& values);
ArrayRef days_in_month(const Array& values);

}  // namespace frazil::compute
