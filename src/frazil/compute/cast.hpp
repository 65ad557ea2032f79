// Casting between dtypes with Polars' semantics.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// strict=true: a value that cannot be represented raises InvalidOperationError naming
// the first offending value and both dtypes ("conversion from `str` to `i64` failed in
// column '...' for 1 out of 3 values: [\"x\"]"); strict=false: such values become null.
// Supported: Null -> any; numeric <-> numeric (float -> int truncates; out of range fails);
// Boolean <-> numeric; any primitive -> String; String -> numeric, Boolean, Date
// (YYYY-MM-DD), Datetime (ISO 8601); Date <-> Datetime; Datetime/Duration unit changes;
// Date/Datetime/Duration/Time <-> their physical integers; Decimal <-> numeric/String;
// List(a) -> List(b) elementwise. Anything else raises InvalidOperationError.
ArrayRef cast(const Array& values, const DataType& to, bool strict = true);

// Whether cast(from -> to) is supported at all (used by the type checker).
bool can_cast(const DataType& from, const DataType& to);

}  // namespace frazil::compute
