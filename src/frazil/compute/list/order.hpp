// List kernels that reorder or deduplicate each list's elements: sort, unique.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Each list sorted (floats by total order, NaN greatest; nulls first unless nulls_last).
ArrayRef list_sort(const Array& list, bool descending, bool nulls_last);
// Each list's distinct elements (null == null, NaN == NaN) in the order they first appear.
ArrayRef list_unique(const Array& list);

}  // namespace frazil::compute
