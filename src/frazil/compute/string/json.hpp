// JSON in strings (Polars' str.json_decode, str.json_path_match), parsed with simdjson.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Each value decoded into `dtype` (numbers, strings, booleans, dates and datetimes from
// strings, lists, structs by field name; missing fields and out-of-range numbers are null).
// Malformed JSON or a value of another kind raises ComputeError.
ArrayRef str_json_decode(const Array& values, const DataType& dtype);
// The first value a JSONPath ($.a.b[0], $['key'], [*]) selects, as text: strings without
// quotes, other values in compact JSON; null when nothing matches or the text is not JSON.
ArrayRef str_json_path_match(const Array& values, const Array& path);

}  // namespace frazil::compute
