// The output of an external sort as a stream: the sorted runs merged as the batches are
// asked for (exec/spill/run_merger), so the sorted rows are never all in memory. The merge
// is sequential: batch i is made after batch i - 1, and a batch asked for early (by another
// worker of the same wave) waits in memory until it is taken; wave() keeps that to a few.
// A slice of the sorted rows (offset, length) is applied while merging, and the key column
// the runs carry is dropped.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "frazil/exec/sources/source.hpp"
#include "frazil/exec/spill/run_merger.hpp"
#include "frazil/exec/spill/sorted_runs.hpp"

namespace frazil::exec {

class MergedRunsSource final : public MorselSource {
 public:
  // `runs` stay alive as long as the source; rows [offset, offset + length) of the merge.
  MergedRunsSource(std::shared_ptr<const spill::SortedRuns> runs, int64_t offset, int64_t length, int64_t batch_rows,
                   size_t wave);
  std::string describe() const override;
  void open() override;
  size_t wave() const override { return wave_; }
  size_t num_batches() const override;
  DataFrame batch(size_t i) const override;
  int64_t total_rows() const override { return length_; }

 private:
  std::shared_ptr<const spill::SortedRuns> runs_;
  int64_t offset_;
  int64_t length_;
  int64_t batch_rows_;
  size_t wave_;
  mutable std::mutex mutex_;
  mutable std::unique_ptr<spill::RunMerger> merger_;
  mutable size_t made_ = 0;                      // batches merged so far
  mutable std::map<size_t, DataFrame> waiting_;  // merged, not yet taken
};

}  // namespace frazil::exec
