// The sink of a group_by. Two ways, chosen by lowering and, for the first, by an adaptive
// rule when the pipeline starts:
//  - two-phase (decomposable aggregations, more than one thread): each morsel becomes the
//    partial states of its groups right where the pipeline made it, and finalize combines
//    them; used when the source gives at least two morsels of rows at run time;
//  - whole: the input is gathered and grouped at once (execute_group_by, which itself runs
//    two phases over morsels, hash partitions, or one table, by size and threads).
#pragma once

#include <optional>

#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class GroupBySink final : public CollectingSink {
 public:
  GroupBySink(const plan::IR& group_by, const plan::ExprArena& ea, std::optional<PartialAggregation> two_phase,
              int64_t morsel_size);
  std::string describe() const override;
  void start(const PipelineStart& info) override;
  bool splits_morsels() const override { return two_phase_on_; }

 protected:
  DataFrame per_morsel(DataFrame rows, physical::ExecState& state) const override;
  DataFrame finish(DataFrame all) override;

 private:
  const plan::IR& ir_;
  const plan::ExprArena& ea_;
  std::optional<PartialAggregation> two_phase_;
  int64_t morsel_size_;
  bool two_phase_on_ = false;
};

}  // namespace frazil::exec
