// Equi-join row matching. Null keys never match (Polars' default nulls_equal=False);
// floats match by total-order equality (-0.0 == 0.0, NaN == NaN).
#pragma once

#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

enum class JoinType { Inner, Left, Right, Full, Semi, Anti, Cross };

const char* join_type_name(JoinType how);  // "INNER", "LEFT", ...

struct JoinIndices {
  // Matching row pairs. For Left/Full, right_index may be kNullIdx; for Right/Full,
  // left_index may be kNullIdx. For Semi/Anti only left_index is filled.
  std::vector<IdxSize> left_index;
  std::vector<IdxSize> right_index;
};

// Row order follows Polars with maintain_order="left" (resp. "right" for Right joins):
// Inner and Left keep the left row order (for each left row its matches in right row
// order); Right keeps the right order (for each right row its matches in left order);
// Full: left order (unmatched left rows in place), then the unmatched right rows in right
// order; Semi/Anti: left order. Keys are pairwise of the same dtype (SchemaError if not),
// at least one pair. The hash table is built on the smaller side; the order is the same
// either way. Cross ignores the key values and uses their lengths (see cross_join).
JoinIndices hash_join(const std::vector<ArrayRef>& left_keys,
                      const std::vector<ArrayRef>& right_keys, JoinType how);

// Every (left, right) pair, left-major: (0, 0), (0, 1), ..., (1, 0), ...
JoinIndices cross_join(int64_t left_rows, int64_t right_rows);

}  // namespace frazil::compute
