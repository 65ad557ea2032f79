#include "frazil/exec/explode.hpp"

namespace frazil::exec {

DataFrame ExplodeOperator::execute(const DataFrame& morsel, physical::ExecState&) const {
  return compute::explode_frame(morsel, columns_, options_);
}

OperatorRef make_explode_operator(const plan::ExplodeNode& node) {
  return std::make_shared<ExplodeOperator>(node.columns, node.options);
}

}  // namespace frazil::exec
