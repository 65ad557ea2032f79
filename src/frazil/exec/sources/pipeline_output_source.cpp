#include "frazil/exec/sources/pipeline_output_source.hpp"

#include "frazil/exec/pipeline/morsels.hpp"

namespace frazil::exec {

std::string PipelineOutputSource::describe() const {
  if (stream_) return "output of pipeline " + std::to_string(pipeline_) + ", streamed: " + stream_->describe();
  return "output of pipeline " + std::to_string(pipeline_) + (whole_ ? ", handed over whole" : ", in morsels");
}

void PipelineOutputSource::open() {
  if ((stream_ = sink_->output_stream())) {
    stream_->open();
    return;
  }
  DataFrame df = sink_->output();
  rows_ = df.height();
  batches_ = whole_ ? std::vector<DataFrame>{std::move(df)} : split_morsels(df, morsel_size_);
}

}  // namespace frazil::exec
