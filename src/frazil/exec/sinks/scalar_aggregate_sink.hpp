// The sink of a select of aggregations only (no keys): each morsel becomes a one-row frame
// of partial states where the pipeline made it, and finalize folds them and evaluates what
// stands above the aggregations. Lowering may have fused the pipeline's last filter into the
// partial states (fuse_filter_into_partial_select): the filter's mask is read as nulls.
#pragma once

#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class ScalarAggregateSink final : public CollectingSink {
 public:
  ScalarAggregateSink(std::string select_text, PartialAggregation partial)
      : select_text_(std::move(select_text)), partial_(std::move(partial)) {}
  std::string describe() const override;
  bool splits_morsels() const override { return true; }

 protected:
  DataFrame per_morsel(DataFrame rows, physical::ExecState& state) const override {
    return partial_.partial->execute(rows, state);
  }
  DataFrame finish(DataFrame all) override { return partial_.combine(all); }

 private:
  std::string select_text_;
  PartialAggregation partial_;
};

}  // namespace frazil::exec
