// Casting between dtypes with Polars' semantics.
#pragma once

#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// strict=true: a value that cannot be represented raises InvalidOperationError naming
// the failing values and both dtypes, as Polars does ("conversion from `str` to `i64`
// failed in column 'c' for 2 out of 3 values: [\"x\", \"y\"]"; `column` fills the name);
// strict=false: such values become null.
// Supported:
//   Null -> any; any -> Null (only nulls convert);
//   numeric <-> numeric: float -> int truncates; out of range or NaN fails; int -> float
//     rounds; Float64 -> Float32 may give ±inf (as Polars);
//   Boolean <-> numeric (non-zero -> true, NaN -> true);
//   numeric, Boolean, Date, Datetime (fixed fraction digits per unit), Time ("HH:MM:SS"),
//     Decimal and Binary (must be UTF-8) -> String; String -> Binary;
//   String -> integers ([+-]digits, nothing else), floats ("1.5", "1e3", ".5", "inf",
//     "NaN", overflow -> inf), Boolean ("true"/"false", any case; Polars has no such cast),
//     Decimal (half to even); String -> Date/Datetime/Time is an error, as in Polars 2
//     (str.to_date / to_datetime / to_time parse text);
//   zoned Datetime -> String: local time and UTC offset ("2024-01-01 00:00:00.000000+09:00");
//     other casts of zoned values are of their UTC instants (Date, Time, naive Datetime,
//     another zone: the same instant), as Polars;
//   Date -> Datetime; Datetime -> Date (floor), Time, Datetime of another unit (floor when
//     coarser; overflow fails); Duration -> Duration (truncates when coarser);
//   Date/Datetime/Duration/Time <-> numbers through their physical integers (Time must
//     lie within a day);
//   Decimal <-> Decimal (half to even; precision checked), Decimal <-> numeric;
//   List(a) -> List(b) and Struct -> Struct (same field count) elementwise.
// Anything else raises InvalidOperationError ("casting from X to Y not supported").
ArrayRef cast(const Array& values, const DataType& to, bool strict = true, const std::string& column = "");

// Whether cast(from -> to) is supported at all.
bool can_cast(const DataType& from, const DataType& to);
// Raises what cast() raises for every input of `from`: InvalidOperationError for an
// unsupported pair (Polars' wording), ComputeError for an unknown time zone (used by the
// type checker).
void check_cast(const DataType& from, const DataType& to);

}  // namespace frazil::compute
