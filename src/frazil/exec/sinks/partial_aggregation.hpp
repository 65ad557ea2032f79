// Which aggregations split into per-chunk partial states that combine exactly: sum, min,
// max, count, len and mean (as sum and count) of row-wise inputs. Shared by the parallel
// sinks for select-of-aggregations and for group_by with few groups.
#pragma once

#include <vector>

#include "frazil/plan/aexpr.hpp"

namespace frazil::exec {

// Collects the decomposable aggregations (and len()) of `node` into `aggs`; false when the
// expression has another shape (a bare column, a non-decomposable aggregation, a window...).
bool collect_partial_aggs(plan::Node node, const plan::ExprArena& arena, const Schema& schema,
                          std::vector<plan::Node>& aggs);

}  // namespace frazil::exec
