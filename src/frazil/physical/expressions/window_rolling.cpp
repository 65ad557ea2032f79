// Expr.rolling(index_column, period, offset, closed): the expression over each row's window.
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

Column WindowExpr::evaluate_rolling(const DataFrame&, ExecState&) const {
  throw InvalidOperationError("Expr.rolling is not supported yet");
}

}  // namespace frazil::physical
