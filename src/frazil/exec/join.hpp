// Executes a Join plan node over its two materialised inputs. The build side's hash table
// is built once (compute/join_table.hpp); the probe side is probed and gathered morsel by
// morsel on every core, without first being copied into one piece.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

// `left_schema`/`right_schema` are the inputs' planned schemas (the key expressions are
// bound against them).
DataFrame execute_join(const plan::IR& ir, const DataFrame& left, const DataFrame& right,
                       const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea,
                       int64_t morsel_size);

}  // namespace frazil::exec
