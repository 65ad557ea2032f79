#include "frazil/optimizer/fused_arithmetic.hpp"

#include <optional>
#include <unordered_map>
#include <vector>

#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/expr/walk.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;
using plan::ExprArena;
using plan::IR;
using plan::IRKind;
using plan::Node;

namespace {

// Rewrites the expressions of one plan node (all read one input schema).
class FuseExpressions {
 public:
  FuseExpressions(ExprArena& ea, const Schema& schema) : ea_(ea), schema_(schema) {}

  Node rewrite(Node root) {
    std::vector<Node> order;
    plan::post_order(root, ea_, [&](Node n, const AExpr&) { order.push_back(n); });
    for (Node n : order) {
      if (done_.count(n.idx)) continue;
      AExpr e = ea_.get(n);  // a copy: adding nodes may move the arena's storage
      std::optional<Node> out = fuse(n, e);
      if (!out) {
        bool changed = false;
        for (Node& in : e.inputs) {
          const Node now = done_.at(in.idx);
          changed |= now != in;
          in = now;
        }
        out = changed ? ea_.add(std::move(e)) : n;
      }
      done_.emplace(n.idx, *out);
    }
    return done_.at(root.idx);
  }

 private:
  const DataType& dtype(Node n) {
    auto it = dtypes_.find(n.idx);
    if (it == dtypes_.end()) it = dtypes_.emplace(n.idx, plan::node_dtype(n, ea_, schema_, memo_)).first;
    return it->second;
  }

  // fma/fms/fsm of the rewritten inputs, when `n` (original `e`) is one Polars fuses.
  std::optional<Node> fuse(Node n, const AExpr& e) {
    if (e.kind != AExprKind::BinaryExpr || (e.op != Operator::Plus && e.op != Operator::Minus)) return std::nullopt;
    auto is_mul = [&](Node x) {
      const AExpr& m = ea_.get(x);
      return m.kind == AExprKind::BinaryExpr && m.op == Operator::Multiply;
    };
    // Polars looks at the left first and gives up when that product is not eligible.
    const bool mul_left = is_mul(e.inputs[0]);
    if (!mul_left && !is_mul(e.inputs[1])) return std::nullopt;
    const Node mul = e.inputs[mul_left ? 0 : 1], other = e.inputs[mul_left ? 1 : 0];
    const Node a = ea_.get(mul).inputs[0], b = ea_.get(mul).inputs[1];
    for (Node x : {a, b})
      if (!dtype(x).is_float() || plan::is_scalar_ae(x, ea_)) return std::nullopt;
    const DataType& out = dtype(n);
    for (Node x : {a, b, other, mul})
      if (!(dtype(x) == out)) return std::nullopt;
    const char* fn = e.op == Operator::Plus ? "fma" : mul_left ? "fms" : "fsm";
    const Node ra = done_.at(a.idx), rb = done_.at(b.idx), rc = done_.at(other.idx);
    std::vector<Node> inputs = !mul_left && e.op == Operator::Minus ? std::vector<Node>{rc, ra, rb}
                                                                    : std::vector<Node>{ra, rb, rc};
    return ea_.add(AExpr::function_call(fn, std::move(inputs)));
  }

  ExprArena& ea_;
  const Schema& schema_;
  plan::DtypeMemo memo_;
  std::unordered_map<uint32_t, DataType> dtypes_;
  std::unordered_map<uint32_t, Node> done_;  // original node -> rewritten
};

// The expressions of the node kinds the rule rewrites (payloads detached from copies).
std::vector<plan::ExprIR*> own_exprs(IR& ir) {
  std::vector<plan::ExprIR*> out;
  auto add = [&](std::vector<plan::ExprIR>& v) {
    for (auto& e : v) out.push_back(&e);
  };
  switch (ir.kind()) {
    case IRKind::Select:
    case IRKind::HStack: add(plan::projection_exprs_mut(ir)); break;
    case IRKind::Filter: out.push_back(&ir.as_mut<plan::FilterNode>().predicate); break;
    case IRKind::Sort: add(ir.as_mut<plan::SortNode>().by); break;
    case IRKind::GroupBy: {
      auto& g = ir.as_mut<plan::GroupByNode>();
      add(g.keys);
      add(g.aggs);
      break;
    }
    default: break;
  }
  return out;
}

}  // namespace

Node fused_arithmetic(Node root, plan::IRArena& lp, ExprArena& ea) {
  const bool trace = plan::RewriteTrace::enabled();
  auto record = [&](const plan::ExprIR& before, const plan::ExprIR& after) {
    if (trace) plan::RewriteTrace::record({"fused_arithmetic", plan::format_expr(before, ea), plan::format_expr(after, ea)});
  };
  plan::for_each_plan_node(root, lp, [&](Node n) {
    const IRKind kind = lp.get(n).kind();
    if (kind == IRKind::DataFrameScan || kind == IRKind::Scan) {
      // A predicate pushed into a scan, as Polars (statistics pruning keeps what it cannot read).
      const plan::ExprIR* pred = plan::predicate_of(lp.get(n));
      if (!pred) return;
      FuseExpressions fuse(ea, plan::predicate_schema(lp.get(n)));
      const Node now = fuse.rewrite(pred->node());
      if (now == pred->node()) return;
      const plan::ExprIR before = *pred;
      plan::ExprIR after = before;
      after.set_node(now);
      plan::set_predicate(lp.get_mut(n), after);
      record(before, after);
      return;
    }
    if (kind != IRKind::Select && kind != IRKind::HStack && kind != IRKind::Filter && kind != IRKind::Sort &&
        kind != IRKind::GroupBy)
      return;
    const SchemaRef input = lp.get(lp.get(n).inputs[0]).schema;
    FuseExpressions fuse(ea, *input);
    for (plan::ExprIR* expr : own_exprs(lp.get_mut(n))) {
      const Node now = fuse.rewrite(expr->node());
      if (now == expr->node()) continue;
      const plan::ExprIR before = *expr;
      expr->set_node(now);
      record(before, *expr);
    }
  });
  return root;
}

}  // namespace frazil::optimizer
