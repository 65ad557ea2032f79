// The sinks that end a join whose output does not stream: the whole join of two gathered
// sides, and the left-build join that places the right side's matches in left order.
#pragma once

#include <memory>

#include "frazil/exec/operators/join.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

// The right side's rows are gathered here; at finalize the whole join runs over them and the
// left side's output (execute_join: built on the smaller side at run time and probed morsel
// by morsel; full and cross joins and keys that are not row-local in one piece).
class WholeJoinSink final : public CollectingSink {
 public:
  WholeJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                const Schema& right_schema, SinkRef left, size_t left_pipeline, int64_t morsel_size);
  std::string describe() const override;

 protected:
  DataFrame finish(DataFrame all) override;

 private:
  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, right_schema_;
  SinkRef left_;
  size_t left_pipeline_;
  int64_t morsel_size_;
};

// A left-build join (inner, left, semi and anti joins with row-local keys, in left order):
// the table is built on the left side, the right side streams through LeftBuildMatch, which
// keeps its matching rows, and finalize places them behind their left rows (each left row's
// matches in right order). Adaptive rule (build side: the smaller one at run time): when the
// right side's source has no more rows than the left side, LeftBuildMatch lets every row
// through and finalize runs the whole join instead.
class LeftBuildJoinSink final : public CollectingSink {
 public:
  LeftBuildJoinSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                    const Schema& right_schema, SinkRef left, size_t left_pipeline, int64_t morsel_size);
  std::string describe() const override;
  void start(const PipelineStart& info) override { decide(info.source_rows); }
  // Applies the adaptive rule once; the match operator, or nullptr for the whole join.
  OperatorRef decide(int64_t right_source_rows);

 protected:
  DataFrame finish(DataFrame all) override;

 private:
  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, right_schema_;
  SinkRef left_sink_;
  size_t left_pipeline_;
  int64_t morsel_size_;
  bool decided_ = false;
  DataFrame left_;
  std::unique_ptr<LeftBuildJoin> built_;
};

}  // namespace frazil::exec
