// List kernels that look for values in each list (contains, count_matches), join a list of
// strings, and the set operations between two lists.
#pragma once

#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Whether each list holds `item` (one row: the same item for every list); a null item
// matches a null element when nulls_equal, else gives null.
ArrayRef list_contains(const Array& list, const Array& item, bool nulls_equal);
// How many elements of each list equal `item` (UInt32).
ArrayRef list_count_matches(const Array& list, const Array& item);
// The strings of each list joined with `separator` (a String, one row or one per list);
// a null element is skipped when ignore_nulls, else makes the row null.
ArrayRef list_join(const Array& list, const Array& separator, bool ignore_nulls);

enum class SetOp { Union, Intersection, Difference, SymmetricDifference };
// Row by row, the set operation of two lists (their inner dtypes cast to the supertype);
// the result holds distinct elements in the order they first appear (left list first).
ArrayRef list_set_operation(SetOp op, const Array& left, const Array& right);

}  // namespace frazil::compute
