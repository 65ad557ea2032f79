// Where each output column of a join comes from: which input and under which input name
// (right columns may carry the suffix; coalesced keys come from one side, or from both for
// a full join). Mirrors plan::join_schema.
#pragma once

#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

enum class JoinSide : uint8_t { Left, Right, Both };

struct JoinColumn {
  std::string output;
  JoinSide side;
  std::string input;  // name in the side's input (for Both: in the left input)
};

// In output order; `left` and `right` are the inputs' schemas.
std::vector<JoinColumn> join_columns(const plan::IR& join, const Schema& left, const Schema& right,
                                     const plan::ExprArena& arena);

}  // namespace frazil::optimizer
