// unique(): the first, last, any or no row of each distinct value of the subset's columns
// (all columns when the subset is empty), over the whole input.
#pragma once

#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class DistinctSink final : public CollectingSink {
 public:
  explicit DistinctSink(const plan::DistinctNode& distinct) : distinct_(distinct) {}
  std::string describe() const override;

 protected:
  DataFrame finish(DataFrame all) override;

 private:
  const plan::DistinctNode& distinct_;
};

}  // namespace frazil::exec
