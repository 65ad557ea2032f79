#include "frazil/plan/conversion/element_expr.hpp"

#include "frazil/plan/conversion/conversion_optimizer.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/conversion/type_coercion.hpp"
#include "frazil/plan/expr/properties.hpp"

namespace frazil::plan {

ElementExprIR element_expr_ir(const dsl::Expr& expr, const DataType& inner) {
  ElementExprIR out;
  out.arena = std::make_shared<ExprArena>();
  out.schema = Schema({Field{kElementColumn, inner}});
  auto expanded = expand_expressions({expr}, out.schema);
  if (expanded.size() != 1)
    throw ComputeError(err_msg("the expression over the list elements, ", expr.to_string(), ", expands to ",
                               expanded.size(), " expressions; it must give one"));
  out.ir = to_expr_ir(expanded[0], *out.arena, out.schema, ConversionContext{false, true});
  ConversionOptimizer opt(true, true);
  opt.optimize(*out.arena, out.ir.node(), out.schema, false, true);
  type_check(out.ir.node(), *out.arena, out.schema);
  return out;
}

DataType element_expr_dtype(const dsl::Expr& expr, const DataType& inner) {
  ElementExprIR e = element_expr_ir(expr, inner);
  DataType t = node_dtype(e.ir.node(), *e.arena, e.schema);
  return is_scalar_ae(e.ir.node(), *e.arena) ? t : DataType::list(std::move(t));
}

}  // namespace frazil::plan
