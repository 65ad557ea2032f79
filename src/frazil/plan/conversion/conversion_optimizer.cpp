#include "frazil/plan/conversion/conversion_optimizer.hpp"

#include "frazil/core/error.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/conversion/simplify_expr.hpp"
#include "frazil/plan/conversion/type_coercion.hpp"

namespace frazil::plan {

ConversionOptimizer::ConversionOptimizer(bool simplify, bool coerce) {
  if (simplify) simplify_ = std::make_unique<SimplifyExprRule>();
  if (coerce) coerce_ = std::make_unique<TypeCoercionRule>();
}

ConversionOptimizer::~ConversionOptimizer() = default;

void ConversionOptimizer::optimize(ExprArena& arena, Node root, const Schema& schema,
                                   bool is_filter_predicate, bool in_aggregation) {
  OptimizeExprContext ctx;
  ctx.is_filter_predicate = is_filter_predicate;
  ctx.in_aggregation = in_aggregation;
  ctx.dtypes = &dtypes_;
  done_.clear();
  dtypes_.clear();
  visit(arena, root, schema, ctx, 0);
}

bool ConversionOptimizer::apply(OptimizationRule& rule, ExprArena& arena, Node node, const Schema& schema,
                                const OptimizeExprContext& ctx) {
  bool changed = false;
  for (int guard = 0;; ++guard) {
    FRAZIL_CHECK_LT(guard, 10000);  // rules strictly shrink the tree; a loop is a bug
    std::optional<AExpr> out = rule.optimize_expr(arena, node, schema, ctx);
    if (!out) return changed;
    if (RewriteTrace::enabled()) {
      std::string before = node_to_expr(node, arena).to_string();
      arena.replace(node, std::move(*out));
      RewriteTrace::record({rule.name(), before, node_to_expr(node, arena).to_string()});
    } else {
      arena.replace(node, std::move(*out));
    }
    // Its dtype may have changed. Nothing above it has one yet: nodes are rewritten
    // bottom-up, before any rule asks for their parents' dtypes.
    dtypes_.erase(node.idx);
    changed = true;
  }
}

void ConversionOptimizer::visit(ExprArena& arena, Node node, const Schema& schema, OptimizeExprContext ctx,
                                int depth) {
  // A node with several parents (the arena is a DAG) is brought to its fixed point once;
  // conversion never shares a node between two contexts.
  if (!done_.insert(node.idx).second) return;
  OptimizeExprContext child_ctx = ctx;
  const AExpr& e = arena.get(node);
  child_ctx.is_filter_predicate = ctx.is_filter_predicate && passes_on_filter_predicate(e);
  if (e.kind == AExprKind::Agg || e.kind == AExprKind::Window) child_ctx.in_aggregation = false;
  std::vector<Node> inputs = e.inputs;
  for (Node in : inputs) visit(arena, in, schema, child_ctx, depth + 1);

  for (int round = 0;; ++round) {
    FRAZIL_CHECK_LT(round, 1000);
    bool changed = false;
    if (simplify_ && apply(*simplify_, arena, node, schema, ctx)) changed = true;
    if (coerce_ && apply(*coerce_, arena, node, schema, ctx)) changed = true;
    if (!changed) break;
    // A rewrite may have created new children: bring them to the fixed point too.
    if (depth < 200) {
      const AExpr& now = arena.get(node);
      OptimizeExprContext again = ctx;
      again.is_filter_predicate = ctx.is_filter_predicate && passes_on_filter_predicate(now);
      std::vector<Node> now_inputs = now.inputs;
      for (Node in : now_inputs) visit(arena, in, schema, again, depth + 1);
    }
  }
}

}  // namespace frazil::plan
