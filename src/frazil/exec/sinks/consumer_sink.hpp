// The end of a pipeline whose rows go to the caller as they are made (execute_plan_into:
// the streaming file sinks), in row order. The sink takes its input in waves of a few
// batches (wave()): each wave runs in parallel, then its rows are handed over in order and
// released, so only a wave's rows are in memory at a time. It keeps no output.
#pragma once

#include <functional>

#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class ConsumerSink final : public Sink {
 public:
  ConsumerSink(std::function<void(const DataFrame&)> consume, size_t wave)
      : consume_(std::move(consume)), wave_(wave) {}
  std::string describe() const override;
  size_t wave() const override { return wave_; }
  std::unique_ptr<LocalSinkState> make_local() const override;
  void sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const override;
  void combine(LocalSinkState& local) override;
  void finalize() override {}
  DataFrame output() override { return DataFrame(); }
  int64_t output_rows() const override { return rows_; }
  void release() override {}

 private:
  std::function<void(const DataFrame&)> consume_;
  size_t wave_;
  int64_t rows_ = 0;
};

}  // namespace frazil::exec
