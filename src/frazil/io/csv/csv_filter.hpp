// Applies a pushed-down predicate's Boolean mask to a freshly parsed chunk. Kept local to
// the reader (a small gather over the dtypes the reader produces) so that io/csv does not
// depend on the compute layer.
#pragma once

#include "frazil/core/frame.hpp"

namespace frazil::io::csv_detail {

// Rows where mask is true (null counts as false). Throws ComputeError when the mask is not
// Boolean or not of the frame's height.
DataFrame filter_by_mask(const DataFrame& frame, const ArrayRef& mask);

}  // namespace frazil::io::csv_detail
