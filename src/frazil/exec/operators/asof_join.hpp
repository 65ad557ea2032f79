// Executes an AsofJoin plan node over its two gathered inputs: every left row takes the
// right row whose key is the last <= its own (backward), the first >= (forward) or the
// closer of the two (nearest), within its `by` group, as Polars' join_asof.
//
// A sorted merge: the right rows (those with a key and no null `by` value) are bucketed by
// group, in order; the left rows are cut into ranges matched on every core, each range with
// one cursor per group that moves forward while the left keys ascend (a key below the
// previous one, possible only without the sortedness check, is found by binary search).
#pragma once

#include <vector>

#include "frazil/compute/selection.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

// `left_schema`/`right_schema`: the inputs' planned schemas (the keys are bound to them).
// InvalidOperationError when a key is not sorted (no `by` groups, check_sortedness).
DataFrame execute_asof_join(const plan::IR& ir, const DataFrame& left, const DataFrame& right,
                            const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea);

namespace asof {

// The matching alone, on physical keys (int64_t or double): for each left key, the index of
// its right row, or kNullIdx. `left_groups`/`right_groups` give each row's `by` group in
// [0, n_groups) (nullptr: all rows in group 0), kNullIdx for a row that takes no part (a
// null key or `by` value); right keys are sorted within each group. `left_sorted`: the
// left keys are known to ascend (checked), which allows a branch-free merge without groups.
template <typename T>
std::vector<compute::IdxSize> match(const T* left, int64_t n_left, const T* right, int64_t n_right,
                                    const compute::IdxSize* left_groups, const compute::IdxSize* right_groups,
                                    size_t n_groups, const dsl::AsofJoinOptions& options, bool left_sorted = false);

}  // namespace asof

}  // namespace frazil::exec
