#include "frazil/plan/row_order.hpp"

#include <unordered_map>

namespace frazil::plan {

namespace {

bool robust_rec(Node node, const ExprArena& arena, std::unordered_map<uint32_t, bool>& memo) {
  auto it = memo.find(node.idx);
  if (it != memo.end()) return it->second;
  const AExpr& e = arena.get(node);
  bool ok = true;
  switch (e.kind) {
    case AExprKind::Column:
    case AExprKind::Literal:
    case AExprKind::Len: break;
    case AExprKind::Agg:
      // first/last pick a row by its position.
      ok = e.agg != compute::AggKind::First && e.agg != compute::AggKind::Last;
      break;
    case AExprKind::Function: ok = e.spec().is_elementwise() || (e.spec().is_reduction() && !e.spec().order_sensitive); break;
    case AExprKind::BinaryExpr:
    case AExprKind::Cast:
    case AExprKind::Ternary:
    case AExprKind::Filter:  // keeps the rows it keeps in their input order
    case AExprKind::Window:  // each row gets its group's value (if the inner part is robust)
      break;
    case AExprKind::Sort:
    case AExprKind::SortBy: ok = false; break;
  }
  for (size_t i = 0; ok && i < e.inputs.size(); ++i) ok = robust_rec(e.inputs[i], arena, memo);
  memo.emplace(node.idx, ok);
  return ok;
}

bool all_robust(const std::vector<ExprIR>& exprs, const ExprArena& ea, std::unordered_map<uint32_t, bool>& memo) {
  for (const auto& e : exprs)
    if (!robust_rec(e.node(), ea, memo)) return false;
  return true;
}

class OrderWalk {
 public:
  OrderWalk(const IRArena& lp, const ExprArena& ea) : lp_(lp), ea_(ea), state_(lp.size(), kUnseen) {}

  // `free`: the consumer does not observe the order of node's rows. A node reached from
  // several parents (a shared subplan) is ordered as soon as one of them needs it to be.
  void visit(Node node, bool free) {
    uint8_t& s = state_[node.idx];
    if (s == kOrdered || (s == kFree && free)) return;
    s = free ? kFree : kOrdered;
    const IR& ir = lp_.get(node);
    for (size_t i = 0; i < ir.inputs.size(); ++i) visit(ir.inputs[i], input_free(ir, free));
  }

  std::vector<bool> result() const {
    std::vector<bool> out(state_.size());
    for (size_t i = 0; i < state_.size(); ++i) out[i] = state_[i] == kFree;
    return out;
  }

 private:
  static constexpr uint8_t kUnseen = 0, kFree = 1, kOrdered = 2;

  // Whether the inputs' order is unobserved, given whether this node's own order is.
  bool input_free(const IR& ir, bool free) {
    switch (ir.kind()) {
      case IRKind::Filter: return free && robust_rec(ir.as<FilterNode>().predicate.node(), ea_, memo_);
      case IRKind::Select:
      case IRKind::HStack: {
        const auto& exprs = ir.kind() == IRKind::Select ? ir.as<SelectNode>().exprs : ir.as<HStackNode>().exprs;
        if (!all_robust(exprs, ea_, memo_)) return false;
        if (free) return true;
        // A select of aggregations alone has one row whatever the input order.
        if (ir.kind() == IRKind::HStack) return false;
        for (const auto& e : exprs)
          if (!is_scalar_ae(e.node(), ea_)) return false;
        return !exprs.empty();
      }
      case IRKind::SimpleProjection:
      case IRKind::Union:
      case IRKind::Join:
      case IRKind::Cache:
      case IRKind::Rename:
      case IRKind::Explode: return free;
      case IRKind::GroupBy: {
        // Without maintain_order the groups come in an unspecified order (Polars' rule),
        // so only the aggregations can observe the input order.
        const auto& g = ir.as<GroupByNode>();
        return !g.maintain_order && all_robust(g.keys, ea_, memo_) && all_robust(g.aggs, ea_, memo_);
      }
      case IRKind::Distinct: {
        // Whole-row duplicates are indistinguishable; with a subset, keep="first" decides
        // which row survives by position.
        const auto& d = ir.as<DistinctNode>();
        return !d.maintain_order && d.subset.empty();
      }
      default: return false;  // sorts (ties keep input order), slices, scans
    }
  }

  const IRArena& lp_;
  const ExprArena& ea_;
  std::vector<uint8_t> state_;
  std::unordered_map<uint32_t, bool> memo_;
};

}  // namespace

bool is_order_robust(Node node, const ExprArena& arena) {
  std::unordered_map<uint32_t, bool> memo;
  return robust_rec(node, arena, memo);
}

std::vector<bool> unordered_outputs(Node root, const IRArena& lp, const ExprArena& ea) {
  OrderWalk walk(lp, ea);
  walk.visit(root, false);
  return walk.result();
}

}  // namespace frazil::plan
