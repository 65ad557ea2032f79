// list.eval: an expression over the elements of each list (pl.element() is the elements as
// the column ""), each list a group of the elements' frame: a reduction gives each list one
// value (a list of one), anything else a list of its results. An elementwise expression is
// evaluated once over all the elements and the lists' offsets kept.
#pragma once

#include "frazil/physical/physical_expr.hpp"
#include "frazil/plan/conversion/element_expr.hpp"

namespace frazil::physical {

class ListEvalExpr final : public PhysicalExpr {
 public:
  ListEvalExpr(PhysicalExprRef list, plan::ElementExprIR element, PhysicalExprRef element_expr, bool elementwise,
               DataType dtype, dsl::Expr source);
  bool is_scalar() const override { return list_->is_scalar(); }

 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  // In agg(): a list that is one value per group (implode(), an aggregation) is evaluated
  // group by group's list; a list column per row goes through the default (per row, then
  // gathered into the groups).
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;

 private:
  Column eval_column(const Column& lists, ExecState& state) const;
  ArrayRef eval_array(const Array& list, ExecState& state) const;
  ArrayRef eval_lists(const Array& list, ExecState& state) const;

  PhysicalExprRef list_;
  plan::ElementExprIR element_;  // keeps the element expression's arena alive
  PhysicalExprRef element_expr_;
  bool elementwise_;
  DataType dtype_;  // List(the element expression's dtype)
};

}  // namespace frazil::physical
