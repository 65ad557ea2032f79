#include "frazil/optimizer/delay_rechunk.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using plan::IR;
using plan::IRKind;
using plan::Node;

namespace {

// Operators that read their whole input (or its morsels) however it is chunked.
bool gathers_its_input(IRKind kind) {
  switch (kind) {
    case IRKind::GroupBy:
    case IRKind::Join:
    case IRKind::Sort:
    case IRKind::Distinct:
    case IRKind::Union: return true;
    default: return false;
  }
}

// Nodes that compute their output per morsel: the chunks of their input are not theirs to keep.
bool row_wise(IRKind kind) {
  switch (kind) {
    case IRKind::Filter:
    case IRKind::Select:
    case IRKind::HStack:
    case IRKind::SimpleProjection:
    case IRKind::Rename:
    case IRKind::Explode: return true;
    default: return false;
  }
}

class DelayRechunk final : public plan::OptimizationRule {
 public:
  explicit DelayRechunk(Node root) : root_(root) {}
  const char* name() const override { return "delay_rechunk"; }

  // Clears the rechunk of the union below `node` when `node` gathers its input; in place,
  // as Polars does (the consumer itself does not change), so the answer is always nullopt.
  std::optional<IR> optimize_plan(plan::IRArena& lp, plan::ExprArena& ea, Node node) override {
    if (!gathers_its_input(lp.get(node).kind())) return std::nullopt;
    for (Node in : lp.get(node).inputs) {
      const auto u = rechunked_union_below(in, lp, /*check_sharing=*/false);
      // Readers are counted only once a candidate is found: most plans have none.
      if (u && rechunked_union_below(in, lp, /*check_sharing=*/true)) clear_rechunk(*u, lp, ea);
    }
    return std::nullopt;
  }

 private:
  bool shared(Node n, const plan::IRArena& lp) {
    if (!parents_) parents_ = plan::count_parents(root_, lp);
    return n.idx < parents_->size() && (*parents_)[n.idx] > 1;
  }

  std::optional<Node> rechunked_union_below(Node n, const plan::IRArena& lp, bool check_sharing) {
    while (!check_sharing || !shared(n, lp)) {
      const IR& ir = lp.get(n);
      if (const auto* u = ir.get_if<plan::UnionNode>()) return u->rechunk ? std::optional<Node>(n) : std::nullopt;
      if (!row_wise(ir.kind())) return std::nullopt;
      n = ir.inputs[0];
    }
    return std::nullopt;
  }

  void clear_rechunk(Node u, plan::IRArena& lp, plan::ExprArena& ea) const {
    const bool trace = plan::RewriteTrace::enabled();
    std::string before = trace ? plan::explain_plan(u, lp, ea) : std::string();
    lp.get_mut(u).as_mut<plan::UnionNode>().rechunk = false;
    if (trace) plan::RewriteTrace::record({name(), std::move(before), plan::explain_plan(u, lp, ea)});
  }

  Node root_;
  std::optional<std::vector<uint32_t>> parents_;  // readers of each node (a shared union keeps its rechunk)
};

}  // namespace

Node delay_rechunk(Node root, plan::IRArena& lp, plan::ExprArena& ea) {
  DelayRechunk rule(root);
  plan::for_each_plan_node(root, lp, [&](Node n) { rule.optimize_plan(lp, ea, n); });
  return root;
}

}  // namespace frazil::optimizer
