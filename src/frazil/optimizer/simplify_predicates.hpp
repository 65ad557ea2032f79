// Boolean clean-up of filter and scan predicates after pushdown has merged them: conjuncts
// that are literally true and repeated conjuncts go, a conjunct that is literally false or
// null makes the whole predicate that literal, and a filter left with nothing disappears.
// Builds new AND nodes; never rewrites a shared expression node in place.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node simplify_predicates(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
