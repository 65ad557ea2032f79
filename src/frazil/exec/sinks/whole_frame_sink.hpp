// A select, with_columns or filter whose expressions need every row at once (aggregations
// beside columns, windows, a filter by an aggregate): the input is gathered, made one chunk,
// and the operator runs once over it.
#pragma once

#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class WholeFrameSink final : public CollectingSink {
 public:
  explicit WholeFrameSink(OperatorRef op) : op_(std::move(op)) {}
  std::string describe() const override { return op_->describe() + " over the whole input"; }

 protected:
  DataFrame finish(DataFrame all) override {
    physical::ExecState state;
    return run_operators({op_}, all.rechunk(), state);
  }

 private:
  OperatorRef op_;
};

}  // namespace frazil::exec
