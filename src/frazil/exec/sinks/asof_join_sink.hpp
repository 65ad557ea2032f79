// The end of a join_asof: at finalize every left row is matched against the right side's
// rows (operators/asof_join).
#pragma once

#include "frazil/exec/operators/asof_join.hpp"
#include "frazil/exec/sinks/gathered_join_sink.hpp"
#include "frazil/plan/format.hpp"

namespace frazil::exec {

class AsofJoinSink final : public GatheredJoinSink {
 public:
  AsofJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema, const Schema& right_schema,
               SinkRef left, size_t left_pipeline)
      : GatheredJoinSink(execute_asof_join, join, ea, left_schema, right_schema, std::move(left), left_pipeline) {}
  std::string describe() const override {
    const auto& j = join_.as<plan::AsofJoinNode>();
    return std::string("asof join (") + dsl::asof_strategy_name(j.options.strategy) + ") of pipeline " +
           std::to_string(left_pipeline_) + "'s output on " + plan::format_expr(j.left_on, ea_) +
           " and these rows on " + plan::format_expr(j.right_on, ea_) +
           (j.options.left_by.empty() ? "" : ", by groups") + ": a sorted merge, the left rows in ranges on every core";
  }
};

}  // namespace frazil::exec
