#include "frazil/physical/expressions/shared.hpp"

namespace frazil::physical {

namespace {

// One remembered result, by the subexpression it is the result of. The subexpression is
// kept, so that its address cannot be reused by another expression planned later under the
// same ExecState (a group-by plans its aggregations one by one). The frame is kept too (a
// vector of references to its arrays), so an array it points to cannot be freed and
// reused: the same array pointers mean the same data, and a deterministic expression gives
// the same result.
struct SharedResult {
  PhysicalExprRef expr;
  DataFrame frame;
  bool grouped = false;
  compute::Groups groups;  // a copy: a Groups object may be freed and its address reused
  Column result;
};

SharedResult* lookup(ExecState& state, const PhysicalExprRef& expr, const DataFrame& df,
                     const compute::Groups* groups) {
  auto it = state.shared_results.find(expr.get());
  if (it == state.shared_results.end()) return nullptr;
  auto* r = static_cast<SharedResult*>(it->second.get());
  if (r->grouped != (groups != nullptr) || !same_frame(r->frame, df)) return nullptr;
  if (groups && !same_groups(r->groups, *groups)) return nullptr;
  return r;
}

void remember(ExecState& state, const PhysicalExprRef& expr, const DataFrame& df, const compute::Groups* groups,
              const Column& result) {
  auto r = std::make_shared<SharedResult>();
  r->expr = expr;
  r->frame = df;
  r->grouped = groups != nullptr;
  if (groups) r->groups = *groups;
  r->result = result;
  state.shared_results[expr.get()] = std::move(r);
}

}  // namespace

Column SharedExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  if (SharedResult* r = lookup(state, input_, df, nullptr)) return r->result;
  Column out = input_->evaluate(df, state);
  remember(state, input_, df, nullptr, out);
  return out;
}

Column SharedExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  if (SharedResult* r = lookup(state, input_, df, g.groups)) return r->result;
  Column out = input_->evaluate_on_groups(df, g, state);
  remember(state, input_, df, g.groups, out);
  return out;
}

}  // namespace frazil::physical
