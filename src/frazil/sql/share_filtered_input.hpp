// An uncorrelated subquery over the table the outer query filters reads the outer's
// filtered rows when its own conditions include the outer's:
//
//   SELECT ... FROM T WHERE P AND x > (SELECT avg(x) FROM T WHERE P AND Q)
//
// The subquery's input T WHERE P AND Q becomes (T WHERE P) WHERE Q: the same rows, and
// T WHERE P, now read twice, is computed once (common subplan elimination caches it).
// PDS-H q22 scans customer once instead of twice, as its DataFrame form does.
#pragma once

#include <optional>

#include "frazil/api/lazy_frame.hpp"

namespace frazil::sql {

// `outer`: the outer relation's frame, a filter over T; `sub`: the translated subquery.
// Nullopt when `sub` does not filter T directly (through single-input nodes) by every
// conjunct of the outer filter, or when the outer filter is not expected to keep at most
// half of T (caching the rows would cost more memory than a second scan costs time).
std::optional<LazyFrame> share_filtered_input(const LazyFrame& outer, const LazyFrame& sub);

}  // namespace frazil::sql
