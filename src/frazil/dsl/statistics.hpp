// Statistics of two expressions, composed from the single-input functions (Polars' pl.corr),
// so C++ and Python users get the same definition.
#pragma once

#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

// Pearson correlation of a and b over the rows where both are not null, per group inside
// group_by().agg(); named after a. Two passes (deviations from the means are summed), which
// keeps it accurate for large values. No complete pair: null; one pair or a constant side:
// NaN, as in Polars.
Expr corr(const Expr& a, const Expr& b);

// Spearman's rank correlation (Polars' pl.corr(method="spearman")): Pearson's r of the
// average ranks of the rows where both are not null (NaN ranks above every number). No
// complete pair: NaN, as in Polars. propagate_nans: NaN when a compared value is NaN.
Expr spearman_corr(const Expr& a, const Expr& b, bool propagate_nans);

}  // namespace frazil::dsl
