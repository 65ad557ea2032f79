// The end of a join whose left side's output is gathered by its own pipeline and whose right
// side's rows are collected here; at finalize `run` joins the two whole frames (asof joins,
// inequality joins).
#pragma once

#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class GatheredJoinSink : public CollectingSink {
 public:
  // `left_schema`/`right_schema`: the inputs' planned schemas (the keys are bound to them).
  using Run = DataFrame (*)(const plan::IR& join, const DataFrame& left, const DataFrame& right,
                            const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea);

  GatheredJoinSink(Run run, const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                   const Schema& right_schema, SinkRef left, size_t left_pipeline)
      : join_(join), ea_(ea), left_pipeline_(left_pipeline), run_(run), left_schema_(left_schema),
        right_schema_(right_schema), left_(std::move(left)) {}

 protected:
  DataFrame finish(DataFrame all) final { return run_(join_, left_->output(), all, left_schema_, right_schema_, ea_); }

  const plan::IR& join_;
  const plan::ExprArena& ea_;
  size_t left_pipeline_;

 private:
  Run run_;
  Schema left_schema_, right_schema_;
  SinkRef left_;
};

}  // namespace frazil::exec
