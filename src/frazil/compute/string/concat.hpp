// Concatenating strings: across columns (Polars' pl.concat_str, pl.format) and down a
// column (str.join, an aggregation). Inputs of other dtypes are cast to String first.
#pragma once

#include <span>
#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Row i: the inputs' row i joined by `separator` (one-value inputs broadcast); a null
// makes the row null unless ignore_nulls (then nulls are skipped).
ArrayRef str_concat_horizontal(std::span<const ArrayRef> inputs, const std::string& separator, bool ignore_nulls);
// One string: the values joined by `delimiter`; with a null and !ignore_nulls, null.
ArrayRef str_join(const Array& values, const std::string& delimiter, bool ignore_nulls);
// Two string arrays elementwise (length-1 broadcasts); the + operator on strings.
ArrayRef str_concat(const Array& left, const Array& right);

}  // namespace frazil::compute
