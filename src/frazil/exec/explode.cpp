#include "frazil/exec/explode.hpp"

#include "frazil/core/error.hpp"

namespace frazil::exec {

DataFrame ExplodeOperator::execute(const DataFrame& morsel, physical::ExecState&) const {
  return compute::explode_frame(morsel, columns_, options_);
}

OperatorRef make_explode_operator(const plan::IR& ir) {
  if (ir.kind != plan::IRKind::MapFunction || ir.map != plan::MapKind::Explode)
    throw InternalError("not an explode node");
  return std::make_shared<ExplodeOperator>(ir.names, ir.explode);
}

}  // namespace frazil::exec
