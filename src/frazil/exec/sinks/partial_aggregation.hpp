// Which aggregations split into per-chunk partial states that combine exactly: sum, min,
// max, count, len and mean (as sum and count) of row-wise inputs. Shared by the parallel
// sinks for select-of-aggregations and for group_by with few groups.
#pragma once

#include <unordered_set>
#include <vector>

#include "frazil/plan/aexpr.hpp"

namespace frazil::exec {

// Collects the decomposable aggregations (and len()) of `node` into `aggs`; false when the
// expression has another shape (a bare column, a non-decomposable aggregation, a window...).
// `seen` holds the nodes in `aggs` (callers over many expressions pass one, so that 100k
// aggregations are not deduplicated by a scan each); null: `aggs` is scanned.
bool collect_partial_aggs(plan::Node node, const plan::ExprArena& arena, const Schema& schema,
                          std::vector<plan::Node>& aggs, std::unordered_set<uint32_t>* seen = nullptr);

}  // namespace frazil::exec
