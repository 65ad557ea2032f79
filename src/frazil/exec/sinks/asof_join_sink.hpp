// The end of a join_asof: the left side's output is gathered by its own pipeline, the right
// side's rows here; at finalize every left row is matched against them (operators/asof_join).
#pragma once

#include "frazil/exec/operators/asof_join.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/format.hpp"

namespace frazil::exec {

class AsofJoinSink final : public CollectingSink {
 public:
  AsofJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema, const Schema& right_schema,
               SinkRef left, size_t left_pipeline)
      : join_(join), ea_(ea), left_schema_(left_schema), right_schema_(right_schema), left_(std::move(left)),
        left_pipeline_(left_pipeline) {}
  std::string describe() const override {
    const auto& j = join_.as<plan::AsofJoinNode>();
    return std::string("asof join (") + dsl::asof_strategy_name(j.options.strategy) + ") of pipeline " +
           std::to_string(left_pipeline_) + "'s output on " + plan::format_expr(j.left_on, ea_) +
           " and these rows on " + plan::format_expr(j.right_on, ea_) +
           (j.options.left_by.empty() ? "" : ", by groups") + ": a sorted merge, the left rows in ranges on every core";
  }

 protected:
  DataFrame finish(DataFrame all) override {
    return execute_asof_join(join_, left_->output(), all, left_schema_, right_schema_, ea_);
  }

 private:
  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, right_schema_;
  SinkRef left_;
  size_t left_pipeline_;
};

}  // namespace frazil::exec
