// The vertical concatenation of a union's inputs: one pipeline per input ends in this one
// sink, the pipelines run one after the other in input order, and the last finalizes it.
// With `rechunk` (concat(rechunk=True)) every output column is one contiguous chunk.
#pragma once

#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

class UnionSink final : public CollectingSink {
 public:
  UnionSink(size_t inputs, bool rechunk) : inputs_(inputs), rechunk_(rechunk) {}
  std::string describe() const override {
    return "union of " + std::to_string(inputs_) + " inputs, in order" + (rechunk_ ? ", rechunked" : "");
  }

 protected:
  DataFrame finish(DataFrame all) override { return rechunk_ ? std::move(all).rechunk() : all; }

 private:
  size_t inputs_;
  bool rechunk_;
};

}  // namespace frazil::exec
