// The state a group-by sink has spilled: its rows (raw input rows, or the partial states of
// a two-phase aggregation) split by key hash into spill files, each row tagged with its
// place in the input. finish() reads one partition back at a time and groups it (every row
// of a group is in one partition, so a partition's groups are final), then puts the groups
// back in the order they first appeared, which is the order the in-memory run gives. A
// partition too big to read back within the memory limit is split again by other hash bits.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/spill/spill_partitions.hpp"

namespace frazil::exec {

class GroupBySpill {
 public:
  // The key hash of each row of a frame (the same for equal keys in every frame).
  using HashKeys = std::function<std::vector<uint64_t>(const DataFrame&)>;
  // The groups of one partition's rows (which carry an extra column, kSeqColumn, to ignore).
  using GroupPartition = std::function<GroupedRows(const DataFrame&)>;
  static constexpr const char* kSeqColumn = "__frazil_spill_seq";

  GroupBySpill(size_t parts, HashKeys hash, GroupPartition group);
  // Writes `frames`, which are the rows from input position `first_seq` on, in order.
  void spill(const std::vector<DataFrame>& frames, uint64_t first_seq);
  int64_t spilled_rows() const { return spilled_rows_; }
  // Every group, in order of first appearance; the spill files are gone afterwards.
  DataFrame finish();

 private:
  void finish_partitions(spill::SpillPartitions& parts, std::vector<DataFrame>& out);
  void finish_partition(spill::SpillPartitions& parts, size_t p, std::vector<DataFrame>& out);

  HashKeys hash_;
  GroupPartition group_;
  spill::SpillPartitions parts_;
  int64_t spilled_rows_ = 0;
};

}  // namespace frazil::exec
