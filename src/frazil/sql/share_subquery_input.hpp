// A correlated aggregate subquery over the table the outer query already joins on the
// correlation key reads the outer's semi-joined copy of that table instead of the whole
// table again:
//
//   SELECT ... FROM T, R WHERE T.c = R.y AND T.v < (SELECT agg(v) FROM T t2 WHERE t2.c = R.y)
//
// The outer rows with key k come from T rows with c = k that found an R row, so every T
// row with c = k is in X = T SEMI JOIN R ON c = y; the subquery's group k aggregated over X
// equals it aggregated over T. The outer join becomes X JOIN R (the same rows), and X,
// used twice, is computed once (common subplan elimination caches it). PDS-H q17 scans
// lineitem once instead of twice, as its DataFrame form does.
#pragma once

#include <optional>
#include <vector>

#include "frazil/api/lazy_frame.hpp"

namespace frazil::sql {

struct SharedSubqueryInput {
  LazyFrame outer;  // the outer relation's frame with T replaced by X inside its join
  LazyFrame inner;  // X: the subquery's input
};

// `inner`: the subquery's FROM (one table, no conditions of its own); `inner_keys` and
// `outer_keys`: the correlation equalities inner = outer, as plain columns. Nullopt when
// the outer frame has no such join (reached through filters and inner joins only), or
// when X is not expected to be much smaller than T (caching it would cost more memory than
// a second scan costs time).
std::optional<SharedSubqueryInput> share_subquery_input(const LazyFrame& outer, const LazyFrame& inner,
                                                        const std::vector<Expr>& inner_keys,
                                                        const std::vector<Expr>& outer_keys);

}  // namespace frazil::sql
