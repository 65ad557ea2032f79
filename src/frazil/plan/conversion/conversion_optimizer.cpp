#include "frazil/plan/conversion/conversion_optimizer.hpp"

#include "frazil/core/error.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/conversion/simplify_expr.hpp"
#include "frazil/plan/conversion/type_coercion.hpp"

namespace frazil::plan {

ConversionOptimizer::ConversionOptimizer(bool simplify, bool coerce)
    : coerce_(std::make_unique<TypeCoercionRule>()), coerce_enabled_(coerce) {
  if (simplify) simplify_ = std::make_unique<SimplifyExprRule>();
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

void ConversionOptimizer::check_needs_no_coercion(ExprArena& arena, Node node, const Schema& schema,
                                                  const OptimizeExprContext& ctx) {
  std::optional<AExpr> out = coerce_->optimize_expr(arena, node, schema, ctx);
  if (!out) return;
  const std::string before = node_to_expr(node, arena).to_string();
  arena.replace(node, std::move(*out));  // the plan is abandoned: only the message reads it
  throw InvalidOperationError(err_msg("type coercion is off (QueryOptFlags.type_coercion=False) and ", before,
                                      " needs a cast: with coercion it is ", node_to_expr(node, arena).to_string()));
}

// Bottom-up with an explicit stack. A node is brought to its fixed point after its inputs
// are; a rewrite may create new inputs, which are brought to theirs before the next round
// (down to depth 200 below the root: deeper new nodes keep the form the rules gave them).
void ConversionOptimizer::visit(ExprArena& arena, Node root, const Schema& schema, OptimizeExprContext ctx,
                                int depth) {
  struct Frame {
    Node node;
    OptimizeExprContext ctx;
    int depth;
    int round;                // rewrite rounds done at this node
    std::vector<Node> todo;   // inputs still to visit before the next round
    size_t next = 0;
  };
  auto enter = [&](std::vector<Frame>& stack, Node node, OptimizeExprContext node_ctx, int node_depth) {
    // A node with several parents (the arena is a DAG) is brought to its fixed point once;
    // conversion never shares a node between two contexts.
    if (!done_.insert(node.idx).second) return;
    stack.push_back(Frame{node, node_ctx, node_depth, 0, arena.get(node).inputs, 0});
  };
  auto input_ctx = [&](const Frame& f) {
    OptimizeExprContext c = f.ctx;
    const AExpr& e = arena.get(f.node);
    c.is_filter_predicate = f.ctx.is_filter_predicate && passes_on_filter_predicate(e);
    // Inputs found before the first round leave an aggregation's context; those a rewrite
    // created keep it (as the rules created them for this context).
    if (f.round == 0 && (e.kind == AExprKind::Agg || e.kind == AExprKind::Window)) c.in_aggregation = false;
    return c;
  };
  std::vector<Frame> stack;
  enter(stack, root, ctx, depth);
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next < f.todo.size()) {
      const Node in = f.todo[f.next++];
      const OptimizeExprContext c = input_ctx(f);
      const int d = f.depth + 1;
      enter(stack, in, c, d);  // invalidates f
      continue;
    }
    FRAZIL_CHECK_LT(f.round, 1000);
    bool changed = false;
    if (simplify_ && apply(*simplify_, arena, f.node, schema, f.ctx)) changed = true;
    if (coerce_enabled_) {
      if (apply(*coerce_, arena, f.node, schema, f.ctx)) changed = true;
    } else {
      check_needs_no_coercion(arena, f.node, schema, f.ctx);
    }
    ++f.round;
    if (!changed) {
      stack.pop_back();
      continue;
    }
    // A rewrite may have created new children: bring them to the fixed point too.
    f.todo.clear();
    f.next = 0;
    if (f.depth < 200) f.todo = arena.get(f.node).inputs;
  }
}

}  // namespace frazil::plan
