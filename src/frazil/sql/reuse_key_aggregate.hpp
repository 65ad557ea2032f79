// GROUP BY over a join whose one side, T, is also aggregated by its join keys elsewhere in
// the query reads that aggregate instead of T (eager aggregation, where it costs nothing):
//
//   SELECT o.a, sum(t.q) FROM t JOIN o ON t.k = o.k WHERE o.k IN (SELECT k FROM t GROUP BY k
//   HAVING sum(q) > 300) GROUP BY o.a
//
// Each joined row of a group pairs an o row with a t row of the same key, so a group's
// sum(t.q) is the sum, over its o rows, of the key's sum(q): the join of the subquery's
// aggregate (one row per key) with o, summed again. Min and max alike. The aggregate is
// then read twice and computed once (common subplan elimination caches it), so T is
// scanned once: PDS-H q18 as its DataFrame form runs it.
#pragma once

#include <optional>
#include <vector>

#include "frazil/api/lazy_frame.hpp"

namespace frazil::sql {

// `input.group_by(keys).agg(aggs)` reading the other aggregate, or nullopt when `input` is
// not such a join: an inner join on plain columns, with every aggregation a sum of an
// integer column or a min or max of a column of T that the other aggregate (T grouped by
// exactly T's join keys) also computes, and no group key a column of T but its join keys.
std::optional<LazyFrame> reuse_key_aggregate(const LazyFrame& input, const std::vector<Expr>& keys,
                                             const std::vector<Expr>& aggs);

}  // namespace frazil::sql
