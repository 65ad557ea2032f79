#include "frazil/plan/ir.hpp"

namespace frazil::plan {

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
