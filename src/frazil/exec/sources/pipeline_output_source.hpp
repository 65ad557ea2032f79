// The finalized output of another pipeline's sink: a plan node that does not stream (a
// group-by, a sort, a join gathered whole) becomes the source of the pipeline above it.
// `whole`: the consumer wants the node's output itself (it gathers its input anyway), so the
// frame is handed over as one batch; otherwise it is cut into morsels.
#pragma once

#include "frazil/exec/sinks/sink.hpp"
#include "frazil/exec/sources/source.hpp"

namespace frazil::exec {

class PipelineOutputSource final : public MorselSource {
 public:
  PipelineOutputSource(SinkRef sink, size_t pipeline, bool whole, int64_t morsel_size)
      : sink_(std::move(sink)), pipeline_(pipeline), whole_(whole), morsel_size_(morsel_size) {}
  std::string describe() const override;
  void open() override;
  bool reports_batches() const override { return stream_ ? stream_->reports_batches() : !whole_; }
  size_t wave() const override { return stream_ ? stream_->wave() : 0; }
  size_t num_batches() const override { return stream_ ? stream_->num_batches() : batches_.size(); }
  DataFrame batch(size_t i) const override { return stream_ ? stream_->batch(i) : batches_[i]; }
  int64_t total_rows() const override { return stream_ ? stream_->total_rows() : rows_; }

 private:
  SinkRef sink_;
  size_t pipeline_;
  bool whole_;
  int64_t morsel_size_;
  SourceRef stream_;  // the sink's output_stream(), when it has one
  std::vector<DataFrame> batches_;
  int64_t rows_ = 0;
};

}  // namespace frazil::exec
