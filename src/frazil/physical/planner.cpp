#include "frazil/physical/planner.hpp"

#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"

namespace frazil::physical {

using plan::AExpr;
using plan::AExprKind;
using plan::Node;

namespace {

PhysicalExprRef create_inner(Node node, const plan::ExprArena& arena, const Schema& schema,
                             const Substitutions* subs) {
  if (subs) {
    auto it = subs->find(node);
    if (it != subs->end()) return it->second;
  }
  const AExpr& e = arena.get(node);
  dsl::Expr source = plan::node_to_expr(node, arena);
  auto child = [&](size_t i) { return create_inner(e.inputs[i], arena, schema, subs); };
  switch (e.kind) {
    case AExprKind::Column: return std::make_shared<ColumnExpr>(e.name, std::move(source));
    case AExprKind::Literal:
      if (e.literal.is_series()) return std::make_shared<LiteralExpr>(e.literal.series, std::move(source));
      return std::make_shared<LiteralExpr>(e.literal.materialized_scalar(), std::move(source));
    case AExprKind::BinaryExpr: return std::make_shared<BinaryExpr>(child(0), e.op, child(1), std::move(source));
    case AExprKind::Cast: return std::make_shared<CastExpr>(child(0), e.dtype, e.strict, std::move(source));
    case AExprKind::Agg:
      return std::make_shared<AggExpr>(child(0), e.agg, e.agg_options, plan::is_elementwise_rec(e.inputs[0], arena),
                                       std::move(source));
    case AExprKind::Len: return std::make_shared<LenExpr>(std::move(source));
    case AExprKind::Ternary: return std::make_shared<TernaryExpr>(child(0), child(1), child(2), std::move(source));
    case AExprKind::Function: {
      std::vector<PhysicalExprRef> inputs;
      for (size_t i = 0; i < e.inputs.size(); ++i) inputs.push_back(child(i));
      return std::make_shared<FunctionExpr>(std::move(inputs), e.function, std::move(source));
    }
    case AExprKind::Sort: return std::make_shared<SortExpr>(child(0), std::vector<PhysicalExprRef>{}, e.sort, std::move(source));
    case AExprKind::SortBy: {
      std::vector<PhysicalExprRef> by;
      for (size_t i = 1; i < e.inputs.size(); ++i) by.push_back(child(i));
      return std::make_shared<SortExpr>(child(0), std::move(by), e.sort, std::move(source));
    }
    case AExprKind::Filter:
      return std::make_shared<FilterExpr>(
          child(0), child(1),
          plan::is_elementwise_rec(e.inputs[0], arena) && plan::is_elementwise_rec(e.inputs[1], arena),
          std::move(source));
    case AExprKind::Window: {
      std::vector<PhysicalExprRef> by;
      for (size_t i = 1; i < e.inputs.size(); ++i) by.push_back(child(i));
      bool row_wise = plan::is_elementwise_rec(e.inputs[0], arena);
      return std::make_shared<WindowExpr>(child(0), std::move(by), row_wise, std::move(source));
    }
  }
  throw InternalError("unknown expression kind");
}

}  // namespace

PhysicalExprRef create_physical_expr(const plan::ExprIR& expr, const plan::ExprArena& arena, const Schema& schema,
                                     const Substitutions* substitutions) {
  PhysicalExprRef inner = create_inner(expr.node(), arena, schema, substitutions);
  return std::make_shared<AliasExpr>(std::move(inner), expr.output_name(), plan::node_to_expr(expr.node(), arena));
}

std::vector<PhysicalExprRef> create_physical_exprs(const std::vector<plan::ExprIR>& exprs,
                                                   const plan::ExprArena& arena, const Schema& schema) {
  std::vector<PhysicalExprRef> out;
  for (const auto& e : exprs) out.push_back(create_physical_expr(e, arena, schema));
  return out;
}

}  // namespace frazil::physical
