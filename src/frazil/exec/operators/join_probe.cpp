#include "frazil/exec/operators/join_probe.hpp"

#include "frazil/compute/join.hpp"
#include "frazil/exec/sinks/join_build_sink.hpp"
#include "frazil/exec/sinks/join_sinks.hpp"
#include "frazil/plan/format.hpp"

namespace frazil::exec {

std::string join_label(const plan::IR& join, const plan::ExprArena& ea) {
  const auto& j = join.as<plan::JoinNode>();
  std::string how = compute::join_type_name(j.options.how);
  for (auto& c : how) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (j.options.how == compute::JoinType::Cross) return "cross join";
  auto keys = [&](const std::vector<plan::ExprIR>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + plan::format_expr(v[i], ea);
    return s + "]";
  };
  return how + " join on " + keys(j.left_on) + " = " + keys(j.right_on);
}

// --- JoinProbe ---

JoinProbe::JoinProbe(std::string label, std::shared_ptr<JoinBuildSink> build, size_t build_pipeline)
    : label_(std::move(label)), build_(std::move(build)), build_pipeline_(build_pipeline) {}

DataFrame JoinProbe::execute(const DataFrame& morsel, physical::ExecState& state) const {
  return probe_->execute(morsel, state);
}

std::string JoinProbe::describe() const {
  return "join probe: " + label_ + ", the left side streams (in its order) against the table of pipeline " +
         std::to_string(build_pipeline_);
}

std::optional<Reroute> JoinProbe::start(const PipelineStart&) {
  probe_ = build_->probe();
  FRAZIL_CHECK(probe_ != nullptr);
  return std::nullopt;
}

SourceRef JoinProbe::tail_source() const { return build_->spilled_tail(); }

// --- KeyFilter ---

KeyFilter::KeyFilter(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                     const Schema& grouped_schema, SinkRef left, size_t left_pipeline, double grouped_rows_estimate)
    : join_(join),
      ea_(ea),
      left_schema_(left_schema),
      grouped_schema_(grouped_schema),
      left_(std::move(left)),
      left_pipeline_(left_pipeline),
      grouped_rows_(grouped_rows_estimate) {}

DataFrame KeyFilter::execute(const DataFrame& morsel, physical::ExecState& state) const {
  return filter_ ? filter_->execute(morsel, state) : morsel;
}

std::string KeyFilter::describe() const {
  const auto max_left = static_cast<int64_t>(grouped_rows_ / 16);
  return "key filter: keeps the rows whose " + join_label(join_, ea_) + " right keys the left side (pipeline " +
         std::to_string(left_pipeline_) + ") has; adaptive: only when that side has at most " +
         std::to_string(max_left) + " rows at run time (1/16 of the " +
         std::to_string(static_cast<int64_t>(grouped_rows_)) + " rows estimated to be grouped), else every row passes";
}

std::optional<Reroute> KeyFilter::start(const PipelineStart&) {
  const DataFrame left = left_->output();
  if (static_cast<double>(left.height()) * 16 <= grouped_rows_)
    filter_ = make_right_key_filter(join_, left, left_schema_, grouped_schema_, ea_);
  return std::nullopt;
}

// --- UnorderedJoinProbe ---

UnorderedJoinProbe::UnorderedJoinProbe(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                                       const Schema& right_schema, SinkRef left, size_t left_pipeline)
    : join_(join),
      ea_(ea),
      left_schema_(left_schema),
      right_schema_(right_schema),
      left_(std::move(left)),
      left_pipeline_(left_pipeline) {}

DataFrame UnorderedJoinProbe::execute(const DataFrame& morsel, physical::ExecState& state) const {
  return probe_->execute(morsel, state);
}

std::string UnorderedJoinProbe::describe() const {
  return "join probe: " + join_label(join_, ea_) + ", built on the left side (pipeline " +
         std::to_string(left_pipeline_) +
         "), the right side streams on through it in any order" +
         (join_.as<plan::JoinNode>().options.how == compute::JoinType::Left ? ", unmatched left rows after it" : "") +
         "; adaptive: when the right side's source has no more rows than the left side at run time, the right side "
         "is gathered and built instead and the left side streams";
}

std::optional<Reroute> UnorderedJoinProbe::start(const PipelineStart& info) {
  DataFrame left = left_->output();
  if (info.source_rows > left.height()) {
    built_ = std::make_shared<UnorderedLeftBuildJoin>(join_, std::move(left), left_schema_, right_schema_, ea_);
    probe_ = built_->probe_operator();
    return std::nullopt;
  }
  // The estimate was wrong: the right side is the smaller after all.
  const int64_t morsel_size = info.morsel_size;
  return Reroute{[this, left = std::move(left), morsel_size](DataFrame right) {
    OperatorRef probe = make_join_probe(join_, right, left_schema_, right_schema_, ea_);
    return std::make_pair(frame_source(left, morsel_size), std::move(probe));
  }};
}

std::optional<DataFrame> UnorderedJoinProbe::tail() const {
  if (!built_ || !built_->keeps_unmatched()) return std::nullopt;
  return built_->unmatched_rows();
}

// --- LeftBuildMatch ---

DataFrame LeftBuildMatch::execute(const DataFrame& morsel, physical::ExecState& state) const {
  return match_ ? match_->execute(morsel, state) : morsel;
}

std::string LeftBuildMatch::describe() const {
  return "join match: keeps the right rows whose keys the left side's table has (see the sink)";
}

std::optional<Reroute> LeftBuildMatch::start(const PipelineStart& info) {
  match_ = join_->decide(info.source_rows);
  return std::nullopt;
}

}  // namespace frazil::exec
