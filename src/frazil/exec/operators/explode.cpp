#include "frazil/exec/operators/explode.hpp"

namespace frazil::exec {

DataFrame ExplodeOperator::execute(const DataFrame& morsel, physical::ExecState&) const {
  return compute::explode_frame(morsel, columns_, options_);
}

std::string ExplodeOperator::describe() const { return "explode " + names_text(columns_); }

OperatorRef make_explode_operator(const plan::ExplodeNode& node) {
  return std::make_shared<ExplodeOperator>(node.columns, node.options);
}

}  // namespace frazil::exec
