// Null-rejecting predicates: a predicate that is null or false on every row where some
// set of columns is all null. A filter with such a predicate above an outer join removes
// exactly the rows that the join padded with nulls, which is what lets the optimizer turn
// the outer join into an inner one and push the predicate to the padded side.
#pragma once

#include <functional>
#include <string>

#include "frazil/plan/aexpr.hpp"

namespace frazil::optimizer {

// Whether `predicate` is null or false on every row on which all columns for which
// `is_null_column` holds are null, whatever the other columns hold. Conservative: false
// when unsure. fill_null, is_null, coalesce, when/then and eq_missing are never rejecting.
bool rejects_nulls(plan::Node predicate, const plan::ExprArena& arena,
                   const std::function<bool(const std::string&)>& is_null_column);

}  // namespace frazil::optimizer
