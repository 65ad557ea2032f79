// Executes an InequalityJoin plan node over its two gathered inputs.
//
// IEJoin (one or two inequalities): the right rows are sorted by the first inequality's key,
// so each left row's partners under it are one contiguous run of them, found by binary
// search; the second inequality is tested on the pairs of that run. Nested loop: blocks of
// left rows crossed with every right row, the predicate evaluated on each block's pairs.
// Output order is unspecified (as Polars'); null keys match nothing.
#pragma once

#include "frazil/core/frame.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

DataFrame execute_inequality_join(const plan::IR& ir, const DataFrame& left, const DataFrame& right,
                                  const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea);

}  // namespace frazil::exec
