#include "frazil/exec/partial_aggregation.hpp"

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

bool collect_partial_aggs(Node node, const plan::ExprArena& ea, const Schema& schema, std::vector<Node>& aggs) {
  const AExpr& e = ea.get(node);
  switch (e.kind) {
    case AExprKind::Agg:
      if (!decomposable(e, ea, schema)) return false;
      if (std::find(aggs.begin(), aggs.end(), node) == aggs.end()) aggs.push_back(node);
      return true;
    case AExprKind::Len:
      if (std::find(aggs.begin(), aggs.end(), node) == aggs.end()) aggs.push_back(node);
      return true;
    case AExprKind::Literal: return !e.literal().is_series();
    case AExprKind::BinaryExpr:
    case AExprKind::Cast:
    case AExprKind::Ternary:
      break;
    case AExprKind::Function:
      if (!e.spec().is_elementwise() || e.spec().has_set_input()) return false;
      break;
    default: return false;
  }
  for (Node in : e.inputs)
    if (!collect_partial_aggs(in, ea, schema, aggs)) return false;
  return true;
}

}  // namespace frazil::exec
