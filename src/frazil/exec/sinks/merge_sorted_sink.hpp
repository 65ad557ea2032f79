// The end of a merge_sorted: the left input is gathered by its own pipeline, the right
// one's rows here; at finalize both are merged in one pass (operators/merge_sorted).
#pragma once

#include "frazil/exec/operators/merge_sorted.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class MergeSortedSink final : public CollectingSink {
 public:
  MergeSortedSink(const plan::MergeSortedNode& node, SinkRef left, size_t left_pipeline)
      : key_(node.key), left_(std::move(left)), left_pipeline_(left_pipeline) {}
  std::string describe() const override {
    return "merge of pipeline " + std::to_string(left_pipeline_) + "'s output and these rows, sorted by " + key_;
  }

 protected:
  DataFrame finish(DataFrame all) override { return execute_merge_sorted({left_->output(), all}, key_); }

 private:
  std::string key_;
  SinkRef left_;
  size_t left_pipeline_;
};

}  // namespace frazil::exec
