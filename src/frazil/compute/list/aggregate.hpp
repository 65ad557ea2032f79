// List kernels that reduce each list to one value (sum, mean, min, max, median, std, var,
// n_unique, any, all, arg_min, arg_max) with the grouped aggregation kernels, each list a
// group; and diff, computed per list. A null list gives null; an empty list what an empty
// group gives (sum 0, others null).
#pragma once

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/statistics.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

// The groups of a list's elements: element k (of the child restricted to the rows) belongs
// to group row; an empty list is a group without rows.
Groups list_groups(const Array& list);

ArrayRef list_aggregate(AggKind kind, const Array& list, const AggOptions& options = {});
ArrayRef list_reduce(StatKind kind, const Array& list, const StatOptions& options = {});
ArrayRef list_diff(const Array& list, int64_t n);

}  // namespace frazil::compute
