// with_row_index(): a UInt32 row number prepended to the whole input.
#pragma once

#include "frazil/exec/sinks/sink.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class RowIndexSink final : public CollectingSink {
 public:
  explicit RowIndexSink(const plan::RowIndexNode& index) : index_(index) {}
  std::string describe() const override;

 protected:
  DataFrame finish(DataFrame all) override;

 private:
  const plan::RowIndexNode& index_;
};

}  // namespace frazil::exec
