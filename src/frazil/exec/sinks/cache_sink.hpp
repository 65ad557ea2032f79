// A Cache node (common subplan elimination): its input is computed once, by one pipeline,
// and every consumer reads this sink's output. Lowering makes one per cache id.
//
// Under a memory limit the cache keeps its rows while they and as much again for the
// consumers' work fit; past that it writes them (and the rest as they come) to one spill
// file, in input order, and each consumer streams the file back batch by batch
// (output_stream()), so the cached result never has to be in memory whole.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "frazil/core/memory_reservation.hpp"
#include "frazil/exec/exec_options.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/exec/spill/spill_file.hpp"

namespace frazil::exec {

class CacheSink final : public Sink {
 public:
  CacheSink(uint64_t id, size_t consumers, ExecStats* stats);
  std::string describe() const override;
  size_t wave() const override;
  std::unique_ptr<LocalSinkState> make_local() const override;
  void sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const override;
  void combine(LocalSinkState& local) override;
  void finalize() override;
  // Each read after the first is served by the computed result.
  DataFrame output() override;
  SourceRef output_stream() override;
  int64_t output_rows() const override;
  void release() override;
  void add_consumer() { ++consumers_; }

 private:
  void count_read();
  // Writes the kept rows to the spill file (made on first use) and lets them go.
  void spill_kept();

  uint64_t id_;
  size_t consumers_;
  ExecStats* stats_;
  int64_t reads_ = 0;

  std::vector<DataFrame> kept_;
  int64_t kept_bytes_ = 0;
  mutable std::atomic<int64_t> wave_bytes_in_{0};
  int64_t wave_bytes_out_ = 0;
  int64_t last_wave_bytes_ = 0;
  MemoryReservation room_;  // as much again as is kept, for the consumers
  std::shared_ptr<spill::SpillFile> file_;  // once spilled
  DataFrame output_;
};

}  // namespace frazil::exec
