// A filter over an inner join whose predicate is an OR of ANDs mixing both sides, as in
// PDS-H q19:
//     (p_brand == "Brand#12" & l_quantity.is_between(1, 11)) | (p_brand == "Brand#23" & ...)
// cannot be pushed below the join as it is. But each side can be filtered by what every
// disjunct asks of it alone: (p_brand == "Brand#12") | (p_brand == "Brand#23") for the
// right side, (l_quantity.is_between(1, 11)) | (...) for the left. Such a derived predicate
// is implied by the original (a row the original keeps satisfies some disjunct, hence that
// disjunct's one-sided conjuncts), so adding it as one more conjunct changes no result
// while predicate pushdown carries it down to the scans. The original stays in place.
// Null-safe: a filter keeps a row only when its predicate is true, and under Kleene logic
// a true OR has a true disjunct and a true AND has all conjuncts true.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node derive_join_predicates(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
