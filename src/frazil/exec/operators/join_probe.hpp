// The join operators of a physical plan: the streaming halves of the join strategies that
// lowering chooses (exec/lower/join_strategy.hpp). Each reads a pipeline that ran before
// its own (a build side, a left side to filter by) and binds to it when its pipeline starts.
#pragma once

#include <memory>

#include "frazil/exec/operators/join.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class JoinBuildSink;
class LeftBuildJoinSink;

// "inner join on [col("a")] = [col("b")]", for explain text.
std::string join_label(const plan::IR& join, const plan::ExprArena& ea);

// Probe-left-streams: each left morsel probes the hash table a JoinBuildSink built on the
// right side, in left order (inner, left, semi and anti joins with row-local keys).
class JoinProbe final : public Operator {
 public:
  JoinProbe(std::string label, std::shared_ptr<JoinBuildSink> build, size_t build_pipeline);
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
  std::string describe() const override;
  std::optional<Reroute> start(const PipelineStart& info) override;
  // The spilled partition pairs, when the build side spilled (a grace hash join).
  SourceRef tail_source() const override;

 private:
  std::string label_;
  std::shared_ptr<JoinBuildSink> build_;
  size_t build_pipeline_;
  OperatorRef probe_;
};

// Sideways information passing: a group-by by the right join keys feeds a join whose left
// side ran first; only groups whose keys the left side has can reach the join's output, so
// the rows of the others are dropped before grouping. Adaptive rule: the filter is made only
// when the left side turned out small (at most 1/16 of the rows estimated to be grouped);
// otherwise every row passes.
class KeyFilter final : public Operator {
 public:
  KeyFilter(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema, const Schema& grouped_schema,
            SinkRef left, size_t left_pipeline, double grouped_rows_estimate);
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
  std::string describe() const override;
  std::optional<Reroute> start(const PipelineStart& info) override;
  bool active() const { return filter_ != nullptr; }

 private:
  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, grouped_schema_;
  SinkRef left_;
  size_t left_pipeline_;
  double grouped_rows_;
  OperatorRef filter_;
};

// Unordered left build (inner and left joins whose output order nobody observes): the table
// is built on the left side, the right side streams through and the pipeline goes on past
// the join; a left join's unmatched left rows follow as a tail. Adaptive rule (build side:
// the smaller one at run time): when the right side's source has no more rows than the left
// side, the right side is gathered and built instead and the left side streams through.
class UnorderedJoinProbe final : public Operator {
 public:
  UnorderedJoinProbe(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                     const Schema& right_schema, SinkRef left, size_t left_pipeline);
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
  std::string describe() const override;
  std::optional<Reroute> start(const PipelineStart& info) override;
  std::optional<DataFrame> tail() const override;

 private:
  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, right_schema_;
  SinkRef left_;
  size_t left_pipeline_;
  std::shared_ptr<UnorderedLeftBuildJoin> built_;
  OperatorRef probe_;
};

// The streaming half of a left-build join (LeftBuildJoinSink holds the other): each right
// morsel keeps its rows that match the left side's table, or passes whole when the sink's
// adaptive rule chose the whole join.
class LeftBuildMatch final : public Operator {
 public:
  explicit LeftBuildMatch(std::shared_ptr<LeftBuildJoinSink> join) : join_(std::move(join)) {}
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
  std::string describe() const override;
  std::optional<Reroute> start(const PipelineStart& info) override;

 private:
  std::shared_ptr<LeftBuildJoinSink> join_;
  OperatorRef match_;
};

}  // namespace frazil::exec
