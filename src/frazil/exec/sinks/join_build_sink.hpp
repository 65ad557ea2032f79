// The build side of a probe-left-streams join: gathers the right side's rows and, at
// finalize, builds the hash table on its keys (a semi or anti join keeps the keys only).
// The JoinProbe operators of the next pipeline probe it.
#pragma once

#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class JoinBuildSink final : public CollectingSink {
 public:
  JoinBuildSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                const Schema& right_schema);
  std::string describe() const override;
  // The probe of the built table, shared by every morsel of the probing pipeline.
  const OperatorRef& probe() const { return probe_; }
  int64_t output_rows() const override { return rows_; }
  void release() override {
    probe_.reset();
    CollectingSink::release();
  }

 protected:
  DataFrame finish(DataFrame all) override;

 private:
  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, right_schema_;
  OperatorRef probe_;
  int64_t rows_ = 0;
};

}  // namespace frazil::exec
