// create_physical_expr: one match over AExpr per node, producing the PhysicalExpr tree.
#pragma once

#include <unordered_map>

#include "frazil/physical/physical_expr.hpp"
#include "frazil/plan/expr_ir.hpp"

namespace frazil::physical {

// Subtrees to take as given instead of planning them (e.g. an aggregation whose result a
// parallel sink already computed).
using Substitutions = std::unordered_map<plan::Node, PhysicalExprRef>;

// The tree for `expr` over inputs of `schema`; the result carries the output name.
PhysicalExprRef create_physical_expr(const plan::ExprIR& expr, const plan::ExprArena& arena,
                                     const Schema& schema, const Substitutions* substitutions = nullptr);
std::vector<PhysicalExprRef> create_physical_exprs(const std::vector<plan::ExprIR>& exprs,
                                                   const plan::ExprArena& arena, const Schema& schema);

}  // namespace frazil::physical
