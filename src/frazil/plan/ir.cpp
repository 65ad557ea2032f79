#include "frazil/plan/ir.hpp"

namespace frazil::plan {

const IRPayload& IR::payload() const {
  static const IRPayload kDefaults;
  return payload_ ? *payload_ : kDefaults;
}

IRPayload& IR::payload_mut() {
  // As AExpr's: planning runs on one thread per arena, and a payload another node (or a
  // copy of the arena) holds is never changed in place.
  if (!payload_) payload_ = std::make_shared<IRPayload>();
  else if (payload_.use_count() > 1) payload_ = std::make_shared<IRPayload>(*payload_);
  return *payload_;
}

std::vector<const ExprIR*> IR::all_exprs() const {
  std::vector<const ExprIR*> out;
  for (const auto& e : exprs) out.push_back(&e);
  for (const auto& e : keys) out.push_back(&e);
  for (const auto& e : keys2) out.push_back(&e);
  if (predicate) out.push_back(&*predicate);
  return out;
}

std::vector<ExprIR*> IR::all_exprs_mut() {
  std::vector<ExprIR*> out;
  for (auto& e : exprs) out.push_back(&e);
  for (auto& e : keys) out.push_back(&e);
  for (auto& e : keys2) out.push_back(&e);
  if (predicate) out.push_back(&*predicate);
  return out;
}

}  // namespace frazil::plan
