// A Cache node (common subplan elimination): its input is computed once, by one pipeline,
// and every consumer reads this sink's output. Lowering makes one per cache id.
#pragma once

#include "frazil/exec/exec_options.hpp"
#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class CacheSink final : public CollectingSink {
 public:
  CacheSink(uint64_t id, size_t consumers, ExecStats* stats) : id_(id), consumers_(consumers), stats_(stats) {}
  std::string describe() const override {
    return "cache " + std::to_string(id_) + ", read by " + std::to_string(consumers_) +
           (consumers_ == 1 ? " consumer" : " consumers");
  }
  void finalize() override {
    if (stats_) ++stats_->cache_computations;
    CollectingSink::finalize();
  }
  // Each read after the first is served by the computed result.
  DataFrame output() override {
    if (stats_ && reads_++ > 0) ++stats_->cache_reuses;
    return CollectingSink::output();
  }
  void add_consumer() { ++consumers_; }

 protected:
  DataFrame finish(DataFrame all) override { return all; }

 private:
  uint64_t id_;
  size_t consumers_;
  ExecStats* stats_;
  int64_t reads_ = 0;
};

}  // namespace frazil::exec
