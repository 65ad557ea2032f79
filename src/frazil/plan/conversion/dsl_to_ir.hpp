// DslPlan -> IR: converts the user's plan into the two arenas, bottom-up, resolving every
// node's schema and running the ConversionOptimizer on each expression.
#pragma once

#include "frazil/dsl/dsl_plan.hpp"
#include "frazil/plan/ir.hpp"
#include "frazil/plan/opt_flags.hpp"

namespace frazil::plan {

Node to_alp(const dsl::DslPlanRef& plan, IRArena& lp_arena, ExprArena& expr_arena, const OptFlags& flags);

// Output schema of a join of `left` and `right` (shared with the optimizer).
SchemaRef join_schema(const Schema& left, const Schema& right, const std::vector<ExprIR>& left_on,
                      const std::vector<ExprIR>& right_on, const dsl::JoinOptions& options,
                      const ExprArena& arena);

// Output schema of exploding the List columns `columns` of `input`: each becomes its inner
// dtype. ColumnNotFoundError for an unknown name, InvalidOperationError for a non-List.
SchemaRef explode_schema(const Schema& input, const std::vector<std::string>& columns);

}  // namespace frazil::plan
