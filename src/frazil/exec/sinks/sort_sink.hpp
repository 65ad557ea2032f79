// A sort of the whole input (parallel kernels, compute/sort.hpp). A sort followed by a
// slice (top-k) asks the kernel for the first offset + length rows only.
#pragma once

#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class SortSink final : public CollectingSink {
 public:
  SortSink(const plan::SortNode& sort, const plan::ExprArena& ea, const Schema& input_schema);
  std::string describe() const override;

 protected:
  DataFrame finish(DataFrame all) override;

 private:
  const plan::SortNode& sort_;
  const plan::ExprArena& ea_;
  Schema input_schema_;
};

}  // namespace frazil::exec
