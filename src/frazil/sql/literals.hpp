// SQL literals: typed strings (DATE '1994-01-01', TIMESTAMP '...', TIME '...',
// INTERVAL '90 days'), calendar arithmetic on them, and SQL type names.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/core/scalar.hpp"

namespace frazil::sql {

// An interval: calendar months and a fixed duration (microseconds), kept apart because
// a month has no fixed length.
struct Interval {
  int64_t months = 0;
  int64_t micros = 0;
};

// "1 day", "90 days", "2 hours 30 minutes", "1 year 2 months", "-3 weeks", "1:30:00",
// or a bare number with `unit_mask` (PostgreSQL's interval field bits of `INTERVAL '90'
// DAY`). nullopt when the text is not an interval.
// A number's text as a double; nullopt when it is not a number or lies beyond a double's
// range (`1e400`), so that the caller names the literal instead of a library exception.
std::optional<double> parse_double(const std::string& text);

std::optional<Interval> parse_interval(const std::string& text, int unit_mask = 0);

// The scalar a typed string literal denotes, parsed as the engine's cast parses it;
// nullopt when the text does not parse as that type.
std::optional<Scalar> parse_typed_literal(const std::string& text, const DataType& dtype);

// A date or datetime scalar moved by an interval (months with the day clamped to the
// month's length, as PostgreSQL and Polars' offset_by do).
Scalar add_interval(const Scalar& value, const Interval& interval, int sign);

// A SQL type name (lower case, PostgreSQL's canonical names and the usual aliases) with
// its modifiers -> a frazil dtype; nullopt when unknown.
std::optional<DataType> sql_type(const std::string& name, const std::vector<int64_t>& modifiers);
// Every type name sql_type() knows, for "did you mean".
std::vector<std::string> sql_type_names();

}  // namespace frazil::sql
