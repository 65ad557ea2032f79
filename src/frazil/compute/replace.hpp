// Value mapping: replace and replace_strict (Polars' semantics).
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Each value equal to old[k] becomes new_values[k] (new_values of one row applies to every
// k); others stay. old is cast to the values' dtype, new_values to it too (the result keeps
// the values' dtype). Null equals null.
ArrayRef replace(const Array& values, const Array& old, const Array& new_values);
// The same, but the result has `out` dtype (the new values', or the one asked for) and a
// value not in old takes `fallback` (row-aligned or one row), or raises
// InvalidOperationError when there is none.
ArrayRef replace_strict(const Array& values, const Array& old, const Array& new_values, const Array* fallback,
                        const DataType& out);

}  // namespace frazil::compute
