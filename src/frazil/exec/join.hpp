// Executes a Join plan node over its two materialised inputs. The build side's hash table
// is built once (compute/join_table.hpp); the probe side is probed and gathered morsel by
// morsel on every core, without first being copied into one piece.
#pragma once

#include "frazil/exec/operators.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

// `left_schema`/`right_schema` are the inputs' planned schemas (the key expressions are
// bound against them).
DataFrame execute_join(const plan::IR& ir, const DataFrame& left, const DataFrame& right,
                       const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea,
                       int64_t morsel_size);

// Streaming joins, for the executor's pipelines: inner, left, semi and anti joins with
// row-local keys can build their table on the (materialised) right input and then probe
// the left input morsel by morsel as one more streaming operator, so the left side flows
// from its source through the join (and on into whatever consumes it) without ever being
// gathered. Left row order is kept.
bool join_streams_left(const plan::IR& ir, const plan::ExprArena& ea);
OperatorRef make_join_probe(const plan::IR& ir, const DataFrame& right, const Schema& left_schema,
                            const Schema& right_schema, const plan::ExprArena& ea);

}  // namespace frazil::exec
