// SharedExpr: a subexpression with several parents (the expression arena is a DAG when the
// user reused an expression, as in `c = (c + c) / 2`). It is planned once and its result is
// kept in the ExecState for the frame it was computed on, so every parent reuses it instead
// of evaluating the subtree again: evaluation stays linear in the size of the DAG.
#pragma once

#include "frazil/physical/physical_expr.hpp"

namespace frazil::physical {

class SharedExpr final : public PhysicalExpr {
 public:
  SharedExpr(PhysicalExprRef input, dsl::Expr source) : PhysicalExpr(std::move(source)), input_(std::move(input)) {}
  bool is_scalar() const override { return input_->is_scalar(); }
  bool implodes_directly() const override { return input_->implodes_directly(); }
  Column evaluate_empty(const DataFrame& df, ExecState& state) const override { return input_->evaluate_empty(df, state); }

 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;

 private:
  PhysicalExprRef input_;
};

}  // namespace frazil::physical
