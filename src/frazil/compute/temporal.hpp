// Temporal kernels (Polars' `dt` namespace) on Date and Datetime (time zone ignored
// beyond UTC for now).
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class DatePart { Year, Month, Day, Hour, Minute, Second, Millisecond, Microsecond,
                      Nanosecond, Weekday, Ordinal, Quarter };

// Year -> Int32, Month/Day/Hour/Minute/Second/Weekday(1=Monday)/Quarter -> Int8,
// Ordinal -> Int16, sub-second parts -> Int32, as Polars.
ArrayRef date_part(const Array& values, DatePart part);
DataType date_part_dtype(DatePart part);

}  // namespace frazil::compute
