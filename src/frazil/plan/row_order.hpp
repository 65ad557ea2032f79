// Which plan nodes' row order nobody observes. A group-by without maintain_order, a
// select of aggregations or a join feeding only such consumers may see its input rows in
// any order and give the same result (up to the order Polars leaves unspecified anyway).
// The executor uses this to let joins emit rows in the order that is cheapest to make
// (probe order, with a build side's unmatched rows last) instead of the left side's order.
#pragma once

#include <vector>

#include "frazil/plan/aexpr.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::plan {

// Whether permuting the input rows permutes the output rows the same way (row-wise
// expressions), or leaves the output unchanged (aggregations that ignore order: sum,
// min, len... but not first/last or cumulative functions). Sorts are not order-robust:
// equal keys keep their input order.
bool is_order_robust(Node node, const ExprArena& arena);

// unordered[n] is true when the rows plan node n produces may come in any order without
// changing the result of `root` (the root itself is ordered). Indexed by node index.
std::vector<bool> unordered_outputs(Node root, const IRArena& lp, const ExprArena& ea);

}  // namespace frazil::plan
