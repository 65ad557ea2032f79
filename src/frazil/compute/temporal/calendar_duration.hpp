// Polars' duration language ("1mo2d", "-3h15m", "2i"): a calendar-aware duration of months,
// weeks, days and a fixed part, and the calendar arithmetic built on it: adding it to a
// datetime and truncating a datetime to a multiple of it, both in local time for a zoned
// value (a day is the same clock time on the next day, not 24 hours, across DST).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "frazil/core/dtype.hpp"
#include "frazil/core/tz.hpp"

namespace frazil::compute {

struct CalendarDuration {
  int64_t months = 0;  // "mo"; "q" is 3, "y" 12
  int64_t weeks = 0;
  int64_t days = 0;
  int64_t nanos = 0;   // "ns" .. "h" (and "i": an index count)
  bool negative = false;
  bool parsed_int = false;  // written with "i"

  // Polars' syntax: an optional leading sign, then number-unit pairs (ns us ms s m h d w mo q
  // y i). Malformed text raises InvalidOperationError with Polars' message.
  static CalendarDuration parse(std::string_view text);

  bool is_zero() const { return months == 0 && weeks == 0 && days == 0 && nanos == 0; }
  // A fixed length: no months, and (in a zone with DST) no weeks or days either.
  bool is_constant(bool zoned) const { return months == 0 && (!zoned || (weeks == 0 && days == 0)); }
  // The length with a month counted as 28 days (Polars' estimate, used by round), in `unit`.
  int64_t estimate(TimeUnit unit) const;
  // Polars' display: "1mo2d", "-3600s", "0s".
  std::string to_string() const;
};

// t (a Datetime value in `unit`, UTC instants when `zone` is given, else naive) plus d.
// Months clamp the day to the month's end; in a zone, the calendar parts move local time and
// an ambiguous or non-existent result keeps the DST state of t (RFC 5545), as Polars.
int64_t add_duration(const CalendarDuration& d, int64_t t, TimeUnit unit, tz::ZoneCursor* zone);
// t truncated to a multiple of `every` (> 0): fixed and day parts from the epoch, weeks from
// a Monday, months from January 1970, in local time for a zoned value. Mixing units of
// different kinds (months with days, ...) raises ComputeError.
int64_t truncate_to(const CalendarDuration& every, int64_t t, TimeUnit unit, tz::ZoneCursor* zone);

}  // namespace frazil::compute
