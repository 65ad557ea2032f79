// The vertical concatenation of a union's inputs: one pipeline per input ends in this one
// sink, the pipelines run one after the other in input order, and the last finalizes it.
#pragma once

#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class UnionSink final : public CollectingSink {
 public:
  explicit UnionSink(size_t inputs) : inputs_(inputs) {}
  std::string describe() const override { return "union of " + std::to_string(inputs_) + " inputs, in order"; }

 protected:
  DataFrame finish(DataFrame all) override { return all; }

 private:
  size_t inputs_;
};

}  // namespace frazil::exec
