// The end of a join_where's IEJoin or nested-loop join: finalize joins the left side's
// output with the right side's rows (operators/inequality_join).
#pragma once

#include "frazil/exec/operators/inequality_join.hpp"
#include "frazil/exec/sinks/gathered_join_sink.hpp"

namespace frazil::exec {

class InequalityJoinSink final : public GatheredJoinSink {
 public:
  InequalityJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                     const Schema& right_schema, SinkRef left, size_t left_pipeline)
      : GatheredJoinSink(execute_inequality_join, join, ea, left_schema, right_schema, std::move(left),
                         left_pipeline) {}
  std::string describe() const override {
    const bool nl = join_.as<plan::InequalityJoinNode>().nested_loop;
    return std::string(nl ? "nested-loop join" : "IEJoin (right rows sorted by the first key, binary search per left row)") +
           " of pipeline " + std::to_string(left_pipeline_) + "'s output and these rows";
  }
};

}  // namespace frazil::exec
