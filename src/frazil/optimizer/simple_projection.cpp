#include "frazil/optimizer/simple_projection.hpp"

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using plan::IRKind;
using plan::Node;

namespace {

// The columns of a select whose every expression is a column under its own name (each
// once); nullopt otherwise. An empty select is not one: it has no rows, a projection of
// no columns would keep the input's height.
std::optional<std::vector<std::string>> plain_columns(const plan::SelectNode& select, const plan::ExprArena& ea) {
  if (select.exprs.empty()) return std::nullopt;
  std::vector<std::string> columns;
  std::unordered_set<std::string> seen;
  for (const plan::ExprIR& e : select.exprs) {
    const plan::AExpr& a = ea.get(e.node());
    if (!a.is_column() || a.name != e.output_name() || !seen.insert(a.name).second) return std::nullopt;
    columns.push_back(a.name);
  }
  return columns;
}

bool keeps_every_column(const plan::IR& projection, const plan::IR& input) {
  return projection.as<plan::SimpleProjectionNode>().columns == input.schema->names();
}

}  // namespace

Node simple_projection(Node root, plan::IRArena& lp, plan::ExprArena& ea) {
  // 1. Selects of plain columns become simple projections (in place: every reader of a
  //    shared node sees the same rows).
  const std::vector<Node> order = plan::plan_post_order(root, lp);
  for (Node n : order) {
    const plan::IR& ir = lp.get(n);
    if (ir.kind() != IRKind::Select) continue;
    if (auto columns = plain_columns(ir.as<plan::SelectNode>(), ea)) {
      plan::IR projection(plan::SimpleProjectionNode{std::move(*columns)}, ir.inputs, ir.schema);
      lp.replace(n, std::move(projection));
    }
  }
  // 2. Each input skips the projections that change nothing, and a projection reads
  //    through the projections below it (their columns include its own).
  auto resolve = [&](Node n) {
    while (lp.get(n).kind() == IRKind::SimpleProjection) {
      const plan::IR& p = lp.get(n);
      const plan::IR& input = lp.get(p.inputs[0]);
      if (!keeps_every_column(p, input)) break;
      n = p.inputs[0];
    }
    return n;
  };
  for (Node n : order) {
    plan::IR& ir = lp.get_mut(n);
    for (Node& in : ir.inputs) in = resolve(in);
    if (ir.kind() == IRKind::SimpleProjection) {
      while (lp.get(ir.inputs[0]).kind() == IRKind::SimpleProjection)
        ir.inputs[0] = resolve(lp.get(ir.inputs[0]).inputs[0]);
    }
  }
  return resolve(root);
}

}  // namespace frazil::optimizer
