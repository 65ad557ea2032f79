// The sink of a group_by. Two ways, chosen by lowering and, for the first, by an adaptive
// rule when the pipeline starts:
//  - two-phase (decomposable aggregations, more than one thread): each morsel becomes the
//    partial states of its groups right where the pipeline made it, and finalize combines
//    them; used when the source gives at least two morsels of rows at run time;
//  - whole: the input is gathered and grouped at once (execute_group_by, which itself runs
//    two phases over morsels, hash partitions, or one table, by size and threads).
// Under a memory limit the sink reserves what its finalize will need beside the state it
// keeps (about as much again); when the reservation cannot grow it spills: the kept rows
// (partial states or input rows) go by key hash to spill files (GroupBySpill), and
// finalize groups one partition at a time. The input then comes in waves of a few batches,
// so that kept state is counted before the next batch is read.
#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "frazil/core/memory_reservation.hpp"
#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/sinks/group_by_spill.hpp"
#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class GroupBySink final : public Sink {
 public:
  GroupBySink(const plan::IR& group_by, const plan::ExprArena& ea, std::optional<PartialAggregation> two_phase,
              int64_t morsel_size);
  std::string describe() const override;
  void start(const PipelineStart& info) override;
  bool splits_morsels() const override { return two_phase_on_; }
  size_t wave() const override;

  std::unique_ptr<LocalSinkState> make_local() const override;
  void sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const override;
  void combine(LocalSinkState& local) override;
  void finalize() override;
  DataFrame output() override { return output_; }
  int64_t output_rows() const override { return output_.height(); }
  void release() override { output_ = DataFrame(); }

 private:
  // Why the kept rows cannot go to disk, or empty when they can.
  std::string cannot_spill() const;
  void spill_kept();
  GroupedRows group_partition(const DataFrame& rows) const;
  std::vector<uint64_t> hash_keys(const DataFrame& rows) const;

  const plan::IR& ir_;
  const plan::ExprArena& ea_;
  std::optional<PartialAggregation> two_phase_;
  int64_t morsel_size_;
  bool two_phase_on_ = false;
  int64_t source_rows_ = 0;

  std::vector<DataFrame> kept_;       // morsels' rows or partial states, in source order
  uint64_t kept_first_seq_ = 0;       // input position of kept_'s first row
  int64_t kept_bytes_ = 0;
  MemoryReservation finalize_memory_;  // what finalizing kept_ in memory will need
  mutable std::atomic<int64_t> rows_in_{0};        // input rows sunk so far
  mutable std::atomic<int64_t> wave_bytes_in_{0};  // input bytes of the wave being sunk
  int64_t wave_bytes_out_ = 0;  // state bytes the wave being combined made so far
  int64_t last_wave_bytes_ = 0;  // input and state bytes of the last whole wave
  std::unique_ptr<GroupBySpill> spill_;
  DataFrame output_;
};

}  // namespace frazil::exec
