// Errors raised while a plan is converted to IR name where they happened, as Polars'
// do: the operation being resolved and the part of the plan resolved before it.
//
//   unable to find column "nam"; valid columns: ["amount", "name"]
//
//   Did you mean "name"?
//
//   Resolved plan until failure:
//
//   	---> FAILED HERE RESOLVING 'with_columns' <---
//   FILTER col("amount") > 1
//   FROM
//     DF ["amount", "name"]; PROJECT */2 COLUMNS
#pragma once

#include <optional>

#include "frazil/core/error.hpp"
#include "frazil/dsl/dsl_plan.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::plan {

// Polars' name of the operation a DslPlan node is: 'select', 'with_columns', 'group_by'...
const char* resolving_name(dsl::DslKind kind);

// Whether a message already carries a plan context (an inner node's failure).
bool has_plan_context(const std::string& message);

// Rethrows `e` (same kind) with the context appended; `input`: the root of what was
// resolved before the failure, if anything. Internal, out-of-memory and I/O errors pass
// as they are (a FileNotFoundError keeps its type).
[[noreturn]] void rethrow_with_plan_context(const Error& e, dsl::DslKind kind, std::optional<Node> input,
                                            const IRArena& lp_arena, const ExprArena& expr_arena);

}  // namespace frazil::plan
