// Rows spilled by hash partition: `parts` spill files, each taking the rows whose key hash
// falls in it, appended in the order they come (so a partition keeps the input's order).
// Used by the sinks that split their state by key (group-by now, the join build side
// later): every row of a key lands in one partition, which is then read back and finished
// on its own, one partition in memory at a time. A partition too big to read back is split
// again into a SpillPartitions of the next `level`, which takes other bits of the hash.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/exec/spill/spill_file.hpp"

namespace frazil::exec::spill {

class SpillPartitions {
 public:
  // `prefix` names the owner in the file names; `level` 0 for the first split.
  SpillPartitions(std::string prefix, size_t parts, int level = 0);

  size_t parts() const { return files_.size(); }
  int level() const { return level_; }
  // The partition of a row with key hash `hash` at this level.
  size_t partition_of(uint64_t hash) const;
  // Writes each row of `rows` to the partition of its hash (one hash per row).
  void append(const DataFrame& rows, const std::vector<uint64_t>& hashes);
  // Closes every file for writing; then partitions can be read.
  void finish();

  int64_t rows(size_t p) const { return rows_[p]; }
  // What partition p's rows took in memory when written (what reading it back costs).
  int64_t bytes(size_t p) const { return bytes_[p]; }
  // Partition p's file (nullptr when no row went there); valid until drop(p).
  const SpillFile* file(size_t p) const { return files_[p].get(); }
  // Removes partition p's file (once it has been read back).
  void drop(size_t p) { files_[p].reset(); }

 private:
  std::string prefix_;
  int level_;
  std::vector<std::unique_ptr<SpillFile>> files_;
  std::vector<int64_t> rows_;
  std::vector<int64_t> bytes_;
};

}  // namespace frazil::exec::spill
