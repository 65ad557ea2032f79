#include "frazil/physical/planner.hpp"

#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/expressions/list_eval.hpp"
#include "frazil/physical/expressions/shared.hpp"
#include "frazil/plan/aexpr.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/expr/walk.hpp"

namespace frazil::physical {

using plan::AExpr;
using plan::AExprKind;
using plan::Node;

namespace {

// Plans one expression DAG: every arena node once, a node with several parents as one
// SharedExpr that computes its result once per frame for all of them.
struct Planner {
  const plan::ExprArena& arena;
  const Schema& schema;
  const Substitutions* subs;
  plan::NodeToExpr to_expr;
  std::unordered_map<uint32_t, uint32_t> parents;
  std::unordered_map<uint32_t, PhysicalExprRef> memo;
  plan::DtypeMemo dtypes;  // each node's dtype derived once

  Planner(const plan::ExprArena& a, const Schema& s, const Substitutions* sub)
      : arena(a), schema(s), subs(sub), to_expr(a) {}

  void count_parents(Node root) {
    std::vector<Node> stack{root};
    std::unordered_map<uint32_t, bool> seen{{root.idx, true}};
    while (!stack.empty()) {
      Node n = stack.back();
      stack.pop_back();
      if (subs && subs->count(n)) continue;
      for (Node in : arena.get(n).inputs) {
        ++parents[in.idx];
        if (seen.emplace(in.idx, true).second) stack.push_back(in);
      }
    }
  }

  // Row-wise, with substituted subtrees taken as given columns.
  bool elementwise(Node node) {
    if (!subs || subs->empty()) return plan::is_elementwise_rec(node, arena);
    std::unordered_set<uint32_t> leaves;
    for (const auto& [n, expr] : *subs) leaves.insert(n.idx);
    return plan::is_elementwise_rec(node, arena, leaves);
  }

  // Recursive over the expression's depth (queries run on a large stack; core/stack.hpp).
  PhysicalExprRef plan(Node node) {
    check_stack("physical planning");
    if (subs) {
      auto it = subs->find(node);
      if (it != subs->end()) return it->second;
    }
    if (auto it = memo.find(node.idx); it != memo.end()) return it->second;
    PhysicalExprRef out = create_inner(node);
    auto p = parents.find(node.idx);
    if (p != parents.end() && p->second > 1 && !arena.get(node).inputs.empty())
      out = std::make_shared<SharedExpr>(std::move(out), to_expr(node));
    memo.emplace(node.idx, out);
    return out;
  }

  PhysicalExprRef create_inner(Node node) {
  const AExpr& e = arena.get(node);
  dsl::Expr source = to_expr(node);
  auto child = [&](size_t i) { return plan(e.inputs[i]); };
  switch (e.kind) {
    case AExprKind::Column: return std::make_shared<ColumnExpr>(e.name, std::move(source));
    case AExprKind::Literal:
      if (e.literal().is_series()) return std::make_shared<LiteralExpr>(e.literal().series, std::move(source));
      return std::make_shared<LiteralExpr>(e.literal().materialized_scalar(), std::move(source));
    case AExprKind::BinaryExpr: return std::make_shared<BinaryExpr>(child(0), e.op, child(1), std::move(source));
    case AExprKind::Cast: return std::make_shared<CastExpr>(child(0), e.dtype(), e.strict, std::move(source));
    case AExprKind::Agg:
      return std::make_shared<AggExpr>(child(0), e.agg, e.agg_options(), elementwise(e.inputs[0]), std::move(source));
    case AExprKind::Len: return std::make_shared<LenExpr>(std::move(source));
    case AExprKind::Ternary: return std::make_shared<TernaryExpr>(child(0), child(1), child(2), std::move(source));
    case AExprKind::Function: {
      if (!e.element_exprs().empty()) {  // list.eval: its expression planned over the elements
        const DataType list_type = plan::node_dtype(e.inputs[0], arena, schema, dtypes);
        const DataType inner = list_type.is_list_like() ? list_type.inner() : DataType::null();
        plan::ElementExprIR el = plan::element_expr_ir(e.element_exprs()[0], inner);
        PhysicalExprRef sub = create_physical_expr(el.ir, *el.arena, el.schema);
        const bool elementwise = plan::is_elementwise_rec(el.ir.node(), *el.arena);
        DataType dtype = plan::node_dtype(node, arena, schema, dtypes);
        return std::make_shared<ListEvalExpr>(child(0), std::move(el), std::move(sub), elementwise, std::move(dtype),
                                              std::move(source));
      }
      std::vector<PhysicalExprRef> inputs;
      std::vector<bool> row_wise;
      for (size_t i = 0; i < e.inputs.size(); ++i) {
        inputs.push_back(child(i));
        row_wise.push_back(elementwise(e.inputs[i]));
      }
      std::optional<DataType> dtype;
      try {
        dtype = plan::node_dtype(node, arena, schema, dtypes);
      } catch (const Error&) {
      }
      return std::make_shared<FunctionExpr>(std::move(inputs), e.function(), std::move(row_wise), std::move(dtype),
                                            std::move(source));
    }
    case AExprKind::Sort: return std::make_shared<SortExpr>(child(0), std::vector<PhysicalExprRef>{}, e.sort(), std::move(source));
    case AExprKind::SortBy: {
      std::vector<PhysicalExprRef> by;
      for (size_t i = 1; i < e.inputs.size(); ++i) by.push_back(child(i));
      return std::make_shared<SortExpr>(child(0), std::move(by), e.sort(), std::move(source));
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
      const bool literal_only = plan::columns_of(e.inputs[0], arena).empty();
      return std::make_shared<WindowExpr>(child(0), std::move(by), row_wise, literal_only, e.window(),
                                          std::move(source));
    }
  }
  throw InternalError("unknown expression kind");
  }
};

}  // namespace

PhysicalExprRef create_physical_expr(const plan::ExprIR& expr, const plan::ExprArena& arena, const Schema& schema,
                                     const Substitutions* substitutions) {
  Planner planner(arena, schema, substitutions);
  planner.count_parents(expr.node());
  PhysicalExprRef inner = planner.plan(expr.node());
  return std::make_shared<AliasExpr>(std::move(inner), expr.output_name(), planner.to_expr(expr.node()));
}

std::vector<PhysicalExprRef> create_physical_exprs(const std::vector<plan::ExprIR>& exprs,
                                                   const plan::ExprArena& arena, const Schema& schema) {
  std::vector<PhysicalExprRef> out;
  for (const auto& e : exprs) out.push_back(create_physical_expr(e, arena, schema));
  return out;
}

}  // namespace frazil::physical
