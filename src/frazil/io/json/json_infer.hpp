// Schema inference of JSON values, as Polars infers NDJSON and JSON: null, boolean,
// integer (Int64), number (Float64), string, array (List of the elements' supertype) and
// object (Struct of its keys in first-seen order). Mixed types widen: integers and numbers
// to Float64, anything else mixed to String (a value then reads as its JSON text).
#pragma once

#include <simdjson.h>

#include "frazil/core/dtype.hpp"

namespace frazil::io::json {

DataType infer_value(simdjson::dom::element value);
// The type that holds both (the result of merging the types of two values).
DataType merge_types(const DataType& a, const DataType& b);

}  // namespace frazil::io::json
