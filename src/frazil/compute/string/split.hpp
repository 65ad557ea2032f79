// Splitting strings (Polars' str.split, str.split_exact, str.splitn): List(String) and
// Struct results whose values are views into the input strings (no copy).
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// List(String) of the parts between occurrences of `by` (a String array of one value or
// one per row; literal=false: a regular expression). inclusive: each part keeps its
// separator. An empty separator splits into characters.
// A regex `by` (literal=false) that does not compile fails, or with strict=false gives null.
ArrayRef str_split(const Array& values, const Array& by, bool inclusive, bool literal = true, bool strict = true);
// Struct of n + 1 fields "field_0".."field_n": the first n + 1 parts (missing ones null).
ArrayRef str_split_exact(const Array& values, const Array& by, int64_t n, bool inclusive);
// Struct of n fields: the first n - 1 parts and the remainder.
ArrayRef str_splitn(const Array& values, const Array& by, int64_t n);
DataType split_struct_dtype(int64_t fields);

}  // namespace frazil::compute
