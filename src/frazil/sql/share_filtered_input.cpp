#include "frazil/sql/share_filtered_input.hpp"

#include <memory>
#include <vector>

#include "frazil/sql/column_stats.hpp"
#include "frazil/sql/expr_util.hpp"

namespace frazil::sql {

using dsl::DslFilter;
using dsl::DslKind;
using dsl::DslPlan;
using dsl::DslPlanRef;

namespace {

// The outer filter must keep at most this share of T (by the cost model's estimate).
constexpr double kMaxKeptShare = 0.5;

void conjuncts_of(const Expr& e, std::vector<Expr>& out) {
  if (e.kind() == dsl::ExprKind::BinaryExpr && e.node().op == dsl::Operator::And) {
    conjuncts_of(e.inputs()[0], out);
    conjuncts_of(e.inputs()[1], out);
    return;
  }
  out.push_back(e);
}

// `node` with its filter directly over `table` reading `shared` (the outer's filter node)
// instead, or nullptr when the single-input path down from `node` has no such filter.
DslPlanRef rewrite(const DslPlanRef& node, const DslPlanRef& table, const DslPlanRef& shared,
                   const std::vector<Expr>& outer_conjuncts) {
  if (node->inputs.size() != 1) return nullptr;
  if (node->kind() == DslKind::Filter && node->inputs[0] == table) {
    std::vector<Expr> rest;
    conjuncts_of(node->as<DslFilter>().predicate, rest);
    for (const Expr& c : outer_conjuncts) {
      auto it = rest.begin();
      while (it != rest.end() && !exprs_equal(*it, c)) ++it;
      if (it == rest.end()) return nullptr;
      rest.erase(it);
    }
    if (rest.empty()) return shared;
    Expr predicate = rest[0];
    for (size_t i = 1; i < rest.size(); ++i) predicate = predicate & rest[i];
    return std::make_shared<DslPlan>(DslPlan{DslFilter{predicate}, {shared}});
  }
  DslPlanRef in = rewrite(node->inputs[0], table, shared, outer_conjuncts);
  return in ? std::make_shared<DslPlan>(DslPlan{node->node, {in}}) : nullptr;
}

}  // namespace

std::optional<LazyFrame> share_filtered_input(const LazyFrame& outer, const LazyFrame& sub) {
  const DslPlanRef& shared = outer.plan();
  if (shared->kind() != DslKind::Filter) return std::nullopt;
  const DslPlanRef& table = shared->inputs[0];
  std::vector<Expr> outer_conjuncts;
  conjuncts_of(shared->as<DslFilter>().predicate, outer_conjuncts);
  DslPlanRef rewritten = rewrite(sub.plan(), table, shared, outer_conjuncts);
  if (!rewritten) return std::nullopt;
  if (estimate_rows(outer) > kMaxKeptShare * estimate_rows(LazyFrame(table))) return std::nullopt;
  return LazyFrame(rewritten);
}

}  // namespace frazil::sql
