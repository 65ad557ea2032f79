// The runs an external sort has spilled, in input order: each a spill file of rows sorted
// by the sort keys, whose last column (kRunKeyColumn) is the row encoding of those keys.
// When there are more runs than a merge may read at once (one batch of each in memory),
// consecutive runs are merged into longer ones first, which keeps the merge stable.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/exec/spill/run_merger.hpp"
#include "frazil/exec/spill/spill_file.hpp"

namespace frazil::exec::spill {

class SortedRuns {
 public:
  // Writes `sorted` (key column last) as the next run, in batches of `batch_rows` rows.
  void add(const DataFrame& sorted, int64_t batch_rows);
  size_t size() const { return runs_.size(); }
  int64_t rows() const;
  // Merges runs `fan_in` at a time (consecutive ones, so ties keep their order) until at
  // most `fan_in` are left; the merged runs are written in batches of `batch_rows`.
  void reduce(size_t fan_in, int64_t batch_rows);
  // The runs to merge, in input order (valid while this lives).
  std::vector<const SpillFile*> files() const;

 private:
  std::vector<std::unique_ptr<SpillFile>> runs_;
};

}  // namespace frazil::exec::spill
