#include "frazil/exec/sinks/partial_aggregation.hpp"

#include <algorithm>

#include "frazil/plan/expr/properties.hpp"

namespace frazil::exec {

using compute::AggKind;
using plan::AExpr;
using plan::AExprKind;
using plan::Node;

namespace {

bool decomposable(const AExpr& e, const plan::ExprArena& ea, const Schema& schema) {
  if (!plan::is_elementwise_rec(e.inputs[0], ea)) return false;
  // lit(x).sum() aggregates one value, not one per row: the whole-frame path does that.
  if (plan::is_scalar_ae(e.inputs[0], ea)) return false;
  DataType t = plan::node_dtype(e.inputs[0], ea, schema);
  switch (e.agg) {
    case AggKind::Sum:
    case AggKind::Mean: return t.is_primitive_numeric() || t.is_boolean();
    case AggKind::Min:
    case AggKind::Max: return t.is_primitive_numeric() || t.is_temporal() || t.is_string() || t.is_boolean();
    case AggKind::Count:
    case AggKind::Len: return true;
    default: return false;
  }
}

}  // namespace

bool collect_partial_aggs(Node root, const plan::ExprArena& ea, const Schema& schema, std::vector<Node>& aggs,
                          std::unordered_set<uint32_t>* seen) {
  auto add = [&](Node node) {
    if (seen ? seen->insert(node.idx).second : std::find(aggs.begin(), aggs.end(), node) == aggs.end())
      aggs.push_back(node);
  };
  // An explicit stack: the expression may be deep.
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    const Node node = stack.back();
    stack.pop_back();
    const AExpr& e = ea.get(node);
    switch (e.kind) {
      case AExprKind::Agg:
        if (!decomposable(e, ea, schema)) return false;
        add(node);
        continue;
      case AExprKind::Len: add(node); continue;
      case AExprKind::Literal:
        if (e.literal().is_series()) return false;
        continue;
      case AExprKind::BinaryExpr:
      case AExprKind::Cast:
      case AExprKind::Ternary:
        break;
      case AExprKind::Function:
        if (!e.spec().is_elementwise() || e.spec().has_set_input()) return false;
        break;
      default: return false;
    }
    for (auto it = e.inputs.rbegin(); it != e.inputs.rend(); ++it) stack.push_back(*it);  // in order
  }
  return true;
}

}  // namespace frazil::exec
