// The per-node rules of expression CSE: how a node may take part, and how long its
// output is relative to the frame it is evaluated on.
#pragma once

#include "frazil/plan/canonical/canonical_expr_map.hpp"

namespace frazil::optimizer::cse {

using plan::Height;  // one row, one per row of the frame, or anything else

enum class Role : uint8_t {
  Candidate,   // may be hoisted (if its subtree is valid and its height fits)
  Member,      // may be part of a hoisted expression, not hoisted alone (columns, literals)
  Refuse,      // neither, and no ancestor may be hoisted; its inputs still may
  RefuseSkip,  // as Refuse, and nothing below it is considered either
};

// Series literals at least this long are not hashed and compared for CSE.
inline constexpr int64_t kCheapSeriesLimit = 64;

Role classify(const plan::AExpr& e, bool in_group_by, const plan::CanonicalExprMap::Hooks& hooks);

// Whether input `i` of `e` is consumed row by row (a broadcast scalar there means the same
// as the scalar itself). False for aggregations, windows, sorts, shifts, is_in's set, ...
bool input_is_elementwise(const plan::AExpr& e, size_t i);

}  // namespace frazil::optimizer::cse
