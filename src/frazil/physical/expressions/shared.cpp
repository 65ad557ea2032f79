#include "frazil/physical/expressions/shared.hpp"

namespace frazil::physical {

namespace {

// One remembered result. The frame is kept (a vector of references to its arrays), so an
// array it points to cannot be freed and reused: the same array pointers mean the same
// data, and a deterministic expression gives the same result.
struct SharedResult {
  DataFrame frame;
  bool grouped = false;
  compute::Groups groups;  // a copy: a Groups object may be freed and its address reused
  Column result;
};

bool same_column(const Column& a, const Column& b) {
  if (a.name() != b.name() || a.length() != b.length() || a.is_scalar() != b.is_scalar()) return false;
  if (a.is_scalar()) return a.dtype() == b.dtype() && a.scalar_value() == b.scalar_value();
  if (a.num_chunks() != b.num_chunks()) return false;
  return a.chunks() == b.chunks();
}

bool same_frame(const DataFrame& a, const DataFrame& b) {
  if (a.height() != b.height() || a.width() != b.width()) return false;
  for (size_t i = 0; i < a.width(); ++i)
    if (!same_column(a.columns()[i], b.columns()[i])) return false;
  return true;
}

bool same_groups(const compute::Groups& a, const compute::Groups& b) {
  return a.group_ids == b.group_ids && a.first_rows == b.first_rows;
}

SharedResult* lookup(ExecState& state, const void* key, const DataFrame& df, const compute::Groups* groups) {
  auto it = state.shared_results.find(key);
  if (it == state.shared_results.end()) return nullptr;
  auto* r = static_cast<SharedResult*>(it->second.get());
  if (r->grouped != (groups != nullptr) || !same_frame(r->frame, df)) return nullptr;
  if (groups && !same_groups(r->groups, *groups)) return nullptr;
  return r;
}

void remember(ExecState& state, const void* key, const DataFrame& df, const compute::Groups* groups,
              const Column& result) {
  auto r = std::make_shared<SharedResult>();
  r->frame = df;
  r->grouped = groups != nullptr;
  if (groups) r->groups = *groups;
  r->result = result;
  state.shared_results[key] = std::move(r);
}

}  // namespace

Column SharedExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  if (SharedResult* r = lookup(state, this, df, nullptr)) return r->result;
  Column out = input_->evaluate(df, state);
  remember(state, this, df, nullptr, out);
  return out;
}

Column SharedExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  if (SharedResult* r = lookup(state, this, df, g.groups)) return r->result;
  Column out = input_->evaluate_on_groups(df, g, state);
  remember(state, this, df, g.groups, out);
  return out;
}

}  // namespace frazil::physical
