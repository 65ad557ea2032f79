// Polars' FilterConstraintRule: in a predicate (a filter's, or one pushed into a scan),
// the comparisons of one column with literals (`>`, `>=`, `<`, `<=`, `==`, `!=`, either
// side) merge into the tightest: `x > 5 & x > 3` -> `x > 5`, `x > 5 & x == 7` -> `x == 7`,
// `x >= 3 & x != 3` -> `x > 3`. Bounds that cannot all hold, or an `is_in` set none of
// whose members is in range, make the predicate `false`: a row whose column is null fails
// it either way, so no row changes fate. That collapse drops the other conjuncts'
// evaluation, so it happens only when none of them can raise (errors are kept, as
// predicate pushdown keeps them). Numeric columns compared with literals of their own
// dtype only; floats in frazil's total order (NaN greatest, -0.0 == 0.0). Switched by
// simplify_expression, as in Polars.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node filter_constraint(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
