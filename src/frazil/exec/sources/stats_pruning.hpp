// Row-group pruning by Parquet statistics: whether a pushed-down predicate is false (or
// null) for every row of a group, judged from min/max/null counts alone. Conservative:
// anything not understood keeps the group. NaN is the greatest float in frazil, but
// writers leave NaN out of min/max, so predicates true for NaN (>, >=, !=) never prune
// float columns by their max.
#pragma once

#include "frazil/io/parquet/statistics.hpp"
#include "frazil/plan/aexpr.hpp"

namespace frazil::exec {

bool can_skip_row_group(plan::Node predicate, const plan::ExprArena& arena, const io::parquet::RowGroupStats& stats);

}  // namespace frazil::exec
