#include "frazil/exec/sinks/join_sinks.hpp"

#include "frazil/exec/operators/join_probe.hpp"
#include "frazil/plan/expr/properties.hpp"

namespace frazil::exec {

namespace {

// Whether execute_join picks its build side by the sides' sizes (it joins in one piece
// otherwise).
bool builds_on_smaller(const plan::IR& join, const plan::ExprArena& ea) {
  const auto& j = join.as<plan::JoinNode>();
  if (j.options.how == compute::JoinType::Cross || j.options.how == compute::JoinType::Full) return false;
  for (const auto* keys : {&j.left_on, &j.right_on})
    for (const auto& e : *keys)
      if (!plan::is_elementwise_rec(e.node(), ea)) return false;
  return true;
}

}  // namespace

WholeJoinSink::WholeJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                             const Schema& right_schema, SinkRef left, size_t left_pipeline, int64_t morsel_size)
    : join_(join),
      ea_(ea),
      left_schema_(left_schema),
      right_schema_(right_schema),
      left_(std::move(left)),
      left_pipeline_(left_pipeline),
      morsel_size_(morsel_size) {}

std::string WholeJoinSink::describe() const {
  return "whole join: " + join_label(join_, ea_) + " of pipeline " + std::to_string(left_pipeline_) +
         "'s output and these rows" +
         (builds_on_smaller(join_, ea_) ? "; build side: the smaller one at run time, the other probed morsel by morsel"
                                        : ", in one piece");
}

DataFrame WholeJoinSink::finish(DataFrame all) {
  return execute_join(join_, left_->output(), all, left_schema_, right_schema_, ea_, morsel_size_);
}

LeftBuildJoinSink::LeftBuildJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                                     const Schema& right_schema, SinkRef left, size_t left_pipeline,
                                     int64_t morsel_size)
    : join_(join),
      ea_(ea),
      left_schema_(left_schema),
      right_schema_(right_schema),
      left_sink_(std::move(left)),
      left_pipeline_(left_pipeline),
      morsel_size_(morsel_size) {}

std::string LeftBuildJoinSink::describe() const {
  return "left-build join: " + join_label(join_, ea_) + ", built on the left side (pipeline " +
         std::to_string(left_pipeline_) +
         "), the matches placed in left order; adaptive: when these rows' source has no more rows than the left side "
         "at run time, the whole join instead (built on the smaller side)";
}

OperatorRef LeftBuildJoinSink::decide(int64_t right_source_rows) {
  if (!decided_) {
    decided_ = true;
    left_ = left_sink_->output();
    if (right_source_rows > left_.height())
      built_ = std::make_unique<LeftBuildJoin>(join_, left_, left_schema_, right_schema_, ea_, morsel_size_);
  }
  return built_ ? built_->probe_operator() : nullptr;
}

DataFrame LeftBuildJoinSink::finish(DataFrame all) {
  DataFrame out = built_ ? built_->finish(all)
                         : execute_join(join_, left_, all, left_schema_, right_schema_, ea_, morsel_size_);
  built_.reset();
  left_ = DataFrame();
  return out;
}

}  // namespace frazil::exec
