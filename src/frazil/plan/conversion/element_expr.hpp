// The expressions over a list's elements (list.eval's pl.element() expression, an
// InputRole::Element input of a function): converted, simplified, coerced and type-checked
// against the elements' own one-column schema {"": inner}, in an arena of their own, as an
// aggregation (the elements of each list are one group).
#pragma once

#include <memory>

#include "frazil/plan/aexpr.hpp"
#include "frazil/plan/expr_ir.hpp"

namespace frazil::plan {

struct ElementExprIR {
  std::shared_ptr<ExprArena> arena;
  ExprIR ir;
  Schema schema;  // {"": inner}
};

// The element schema's column name: Polars' pl.element() is col("").
inline constexpr const char* kElementColumn = "";

ElementExprIR element_expr_ir(const dsl::Expr& expr, const DataType& inner);
// What the expression gives per list over elements of dtype `inner`: its dtype T for a
// reduction (one value per list), List(T) for anything else.
DataType element_expr_dtype(const dsl::Expr& expr, const DataType& inner);

}  // namespace frazil::plan
