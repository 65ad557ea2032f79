// Hash partitioning of rows by key columns, shared by the parallel group-by and the
// distributed exchanges: the partition is chosen from the high bits of compute::hash_rows
// (the hash tables use the low bits), so rows with equal keys land in the same partition
// in every frame partitioned into the same count (co-partitioned joins stay co-partitioned).
#pragma once

#include <string>
#include <vector>

#include "frazil/compute/hash.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/frame.hpp"

namespace frazil::compute {

// The partition of a row hash among `parts` (> 0).
inline size_t hash_partition(uint64_t hash, size_t parts) {
  return static_cast<size_t>((static_cast<unsigned __int128>(hash) * parts) >> 64);
}

// The rows of each partition, ascending, for key columns of equal length.
std::vector<std::vector<IdxSize>> partition_rows(const std::vector<ArrayRef>& keys, size_t parts);

// `df` split into `parts` frames by the values of `key_columns` (rows keep their order
// within a partition; an empty partition keeps the schema).
std::vector<DataFrame> partition_frame(const DataFrame& df, const std::vector<std::string>& key_columns, size_t parts);

}  // namespace frazil::compute
