// The explode operator: a map function that is row-local, so it runs morsel by morsel
// inside a pipeline (each morsel's rows explode into consecutive rows of the output).
#pragma once

#include <string>
#include <vector>

#include "frazil/compute/explode.hpp"
#include "frazil/exec/operators.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class ExplodeOperator final : public Operator {
 public:
  ExplodeOperator(std::vector<std::string> columns, compute::ExplodeOptions options)
      : columns_(std::move(columns)), options_(options) {}
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;

 private:
  std::vector<std::string> columns_;
  compute::ExplodeOptions options_;
};

// The operator of a MapFunction node of kind Explode.
OperatorRef make_explode_operator(const plan::ExplodeNode& node);

}  // namespace frazil::exec
