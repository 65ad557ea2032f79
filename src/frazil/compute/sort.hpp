// Sorting: arg-sort by several keys. Floats sort by total order (NaN greatest),
// nulls first or last per key.
#pragma once

#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

struct SortOptions {
  std::vector<bool> descending;  // per key (a single entry applies to all)
  std::vector<bool> nulls_last;  // per key (a single entry applies to all)
  bool stable = false;           // maintain_order: ties keep input order
  // Only the first `limit` rows of the order are needed (top-k); -1 for all.
  int64_t limit = -1;
};

// A permutation of [0, n) ordering the rows by the keys (all of length n).
// Ties: with stable, input order; without, still deterministic (input order) as frazil's
// implementation is stable anyway where that costs little.
std::vector<IdxSize> arg_sort(const std::vector<ArrayRef>& keys, const SortOptions& options);

// Sorted copy of one array.
ArrayRef sort_array(const Array& values, bool descending, bool nulls_last);

}  // namespace frazil::compute
