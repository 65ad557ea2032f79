// Parsing text into temporal values (Polars' str.strptime, str.to_date, str.to_datetime,
// str.to_time) with chrono's strptime rules: numbers of up to the specifier's width after
// optional whitespace, a space in the format matching any run of whitespace, month and
// weekday names in any case, "%.f" fractions, "%z"/"%:z"/"%#z" offsets, "%s" timestamps.
// Without a format the first non-null value picks one of Polars' patterns (year-month-day
// or day-month-year, with or without time and offset).
#pragma once

#include <optional>
#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

struct StrptimeOptions {
  std::optional<std::string> format;  // nullopt: inferred from the data
  bool strict = true;   // unparsable values raise (false: they become null)
  bool exact = true;    // false: the format may match anywhere inside the text
};

// Polars' check of a format (hour without minute, ...), raising ComputeError.
void check_strptime_format(const std::string& format);
// Whether a format parses a UTC offset (%z, %:z, %::z, %:::z, %#z, or "%+").
bool format_has_offset(const std::string& format);

// String -> Date.
ArrayRef str_to_date(const Array& values, const StrptimeOptions& options);
// String -> Datetime(unit, time_zone): local time in `time_zone` (`ambiguous`: a String
// array of one value or one per row); a format with an offset gives instants, shown in
// `time_zone` or else UTC.
ArrayRef str_to_datetime(const Array& values, TimeUnit unit, const std::optional<std::string>& time_zone,
                         const StrptimeOptions& options, const Array& ambiguous);
// String -> Time.
ArrayRef str_to_time(const Array& values, const StrptimeOptions& options);

}  // namespace frazil::compute
