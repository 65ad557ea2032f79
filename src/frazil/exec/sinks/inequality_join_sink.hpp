// The end of a join_where's IEJoin or nested-loop join: the left side's output is gathered
// by its own pipeline, the right side's rows here; finalize joins them
// (operators/inequality_join).
#pragma once

#include "frazil/exec/operators/inequality_join.hpp"
#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class InequalityJoinSink final : public CollectingSink {
 public:
  InequalityJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                     const Schema& right_schema, SinkRef left, size_t left_pipeline)
      : join_(join), ea_(ea), left_schema_(left_schema), right_schema_(right_schema), left_(std::move(left)),
        left_pipeline_(left_pipeline) {}
  std::string describe() const override {
    const bool nl = join_.as<plan::InequalityJoinNode>().nested_loop;
    return std::string(nl ? "nested-loop join" : "IEJoin (right rows sorted by the first key, binary search per left row)") +
           " of pipeline " + std::to_string(left_pipeline_) + "'s output and these rows";
  }

 protected:
  DataFrame finish(DataFrame all) override {
    return execute_inequality_join(join_, left_->output(), all, left_schema_, right_schema_, ea_);
  }

 private:
  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, right_schema_;
  SinkRef left_;
  size_t left_pipeline_;
};

}  // namespace frazil::exec
