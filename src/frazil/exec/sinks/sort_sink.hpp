// A sort of the whole input (parallel kernels, compute/sort.hpp). A sort followed by a
// slice (top-k) asks the kernel for the first offset + length rows only.
//
// Under a memory limit it is an external merge sort: the rows are kept until keeping more
// would pass the limit (the sort needs about as much again as it keeps); then the kept rows
// are sorted into a run, written to the spill directory with their keys' row encoding
// (exec/spill/sorted_runs), and released. At the end the runs are merged by that encoding
// (exec/spill/run_merger): the output is a stream (output_stream()) that merges as it is
// read, so a consumer that streams (sink_parquet, a group-by) never holds it whole. Runs
// are cut in input order and ties go to the earlier run, so a stable sort stays stable; a
// top-k keeps the first offset + length rows of each run only.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "frazil/compute/sort.hpp"
#include "frazil/core/memory_reservation.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/exec/spill/sorted_runs.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class SortSink final : public Sink {
 public:
  SortSink(const plan::SortNode& sort, const plan::ExprArena& ea, const Schema& input_schema);
  std::string describe() const override;
  size_t wave() const override;
  std::unique_ptr<LocalSinkState> make_local() const override;
  void sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const override;
  void combine(LocalSinkState& local) override;
  void finalize() override;
  DataFrame output() override;
  SourceRef output_stream() override;
  int64_t output_rows() const override;
  void release() override;

 private:
  // Why the input cannot be sorted in runs ("" when it can).
  std::string cannot_spill() const;
  std::vector<ArrayRef> sort_keys(const DataFrame& df) const;
  // key_ratio_ from a sample of the input (its keys row-encoded).
  void measure_key_ratio(const DataFrame& sample);
  // The kernel's options (a non-negative slice: stop after the rows it needs).
  compute::SortOptions sort_options() const;
  // Sorts the kept rows into a run on disk and lets them go.
  void spill_kept();
  // The slice's window of the merged runs.
  int64_t output_offset() const;

  const plan::SortNode& sort_;
  const plan::ExprArena& ea_;
  Schema input_schema_;

  std::vector<DataFrame> kept_;
  int64_t kept_bytes_ = 0;
  mutable std::atomic<int64_t> wave_bytes_in_{0};  // bytes sunk since the last combine
  int64_t wave_bytes_out_ = 0;                     // bytes combined in this wave
  int64_t last_wave_bytes_ = 0;
  MemoryReservation sort_memory_;  // what sorting the kept rows will need
  double key_ratio_ = 1.0;         // a run's key encoding over its rows' bytes
  bool key_ratio_measured_ = false;

  std::shared_ptr<spill::SortedRuns> runs_;  // once spilled
  int64_t run_batch_rows_ = 0;
  int64_t output_batch_rows_ = 0;
  DataFrame output_;
  bool output_made_ = false;
};

}  // namespace frazil::exec
