// Temporal kernels (Polars' `dt` namespace) on Date and Datetime (time zone ignored
// beyond UTC for now).
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class DatePart { Year, Month, Day, Hour, Minute, Second, Millisecond, Microsecond,
                      Nanosecond, Weekday, Ordinal, Quarter };

// Year -> Int32, Month/Day/Hour/Minute/Second/Weekday(1=Monday)/Quarter -> Int8,
// Ordinal -> Int16, sub-second parts -> Int32, as Polars. Date supports the calendar parts
// (Year, Month, Day, Weekday, Ordinal, Quarter); Time the clock parts (Hour..Nanosecond);
// Datetime all of them (negative values floor to the previous day, as Polars). Other
// combinations raise InvalidOperationError. Nulls stay null.
ArrayRef date_part(const Array& values, DatePart part);
DataType date_part_dtype(DatePart part);

}  // namespace frazil::compute
