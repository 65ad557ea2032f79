// Text <-> value conversions used by cast(): Polars' float and temporal formatting, and the
// parsers for String -> Date / Datetime / Decimal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "frazil/core/dtype.hpp"
#include "frazil/core/utf8.hpp"

namespace frazil::compute {

// Polars' String cast of floats: shortest round-trip digits, ".0" on whole numbers,
// scientific ("1e-7", "1.2e+16") outside [1e-5, 1e16) for Float64 and [1e-6, 1e13) for
// Float32; "NaN", "inf", "-inf".
std::string format_float(double v);
std::string format_float(float v);
// Polars' short display of a float in messages: "300.5", "-1.0", "NaN", "1.0000e10".
std::string format_float_short(double v);
// "2024-01-31 12:00:00.000000": fraction digits fixed by unit (3, 6 or 9), as Polars' cast.
std::string format_datetime_fixed(int64_t value, TimeUnit unit);
// "01:02:03" (Polars' Time -> String cast drops the fraction).
std::string format_time_seconds(int64_t nanos);
// Decimal digits with `scale` places: "-3.99", "12.00".
std::string format_decimal(__int128 value, int scale);

using ::frazil::is_valid_utf8;  // core/utf8.hpp

// "YYYY-MM-DD" (also 1-digit month/day, '/' separators, leading whitespace, '+' sign).
bool parse_date(std::string_view s, int32_t& days);
// A date, optionally followed by [ T]HH:MM[:SS[.fraction]] and an optional "Z" or ±HH[:]MM
// offset (converted to UTC). Fractions finer than `unit` are truncated; out of range fails.
bool parse_datetime(std::string_view s, TimeUnit unit, int64_t& value);
// [+-]digits[.digits][e[+-]digits], rounded half to even to `scale` places; fails when the
// value needs more than `precision` digits.
bool parse_decimal(std::string_view s, int precision, int scale, __int128& value);

}  // namespace frazil::compute
