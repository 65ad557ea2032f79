// Executes a MergeSorted plan node: two frames sorted ascending by one key column merged
// into one sorted frame in one pass (equal keys: the left rows first). Nulls go where the
// inputs have them: first when an input starts with a null, else last (as Polars).
#pragma once

#include <string>
#include <vector>

#include "frazil/compute/selection.hpp"
#include "frazil/core/frame.hpp"

namespace frazil::exec {

DataFrame execute_merge_sorted(const std::vector<DataFrame>& inputs, const std::string& key);

// The merge order of two sorted key arrays: an index < left.length() is a left row, the
// others right rows shifted by left.length().
std::vector<compute::IdxSize> merge_order(const ArrayRef& left, const ArrayRef& right);

}  // namespace frazil::exec
