// Calendar operations on Date and Datetime arrays (Polars' dt.offset_by, dt.truncate,
// dt.round, dt.month_start, dt.month_end). Durations are given in Polars' duration language
// as a String array of one value (for every row) or one per row; a null duration gives a
// null. Zoned values are moved and truncated in local time.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

ArrayRef offset_by(const Array& values, const Array& by);
// every must be positive ("cannot truncate a Datetime to a negative duration").
ArrayRef truncate(const Array& values, const Array& every);
ArrayRef round(const Array& values, const Array& every);
// The first / last day of the month, same time of day.
ArrayRef month_start(const Array& values);
ArrayRef month_end(const Array& values);

}  // namespace frazil::compute
