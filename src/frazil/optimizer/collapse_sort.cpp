#include "frazil/optimizer/collapse_sort.hpp"

#include <optional>
#include <vector>

#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using plan::IR;
using plan::IRKind;
using plan::Node;
using plan::SortNode;

namespace {

// A per-key flag of a sort with n keys (one flag given applies to every key).
std::vector<bool> per_key(const std::vector<bool>& flags, size_t n) {
  if (flags.size() == 1 && n != 1) return std::vector<bool>(n, flags[0]);
  return flags;
}

// The outer keys must mean the same over the inner sort's input as over its output: a
// key that reads other rows (cum_sum, rank, shift) depends on their order.
bool keys_row_local(const SortNode& sort, const plan::ExprArena& ea) {
  for (const auto& k : sort.by)
    if (!plan::is_row_local(k.node(), ea)) return false;
  return true;
}

class CollapseSort final : public plan::OptimizationRule {
 public:
  const char* name() const override { return "collapse_sort"; }

  std::optional<IR> optimize_plan(plan::IRArena& lp, plan::ExprArena& ea, Node node) override {
    const IR& ir = lp.get(node);
    if (ir.kind() != IRKind::Sort) return std::nullopt;
    const IR& in = lp.get(ir.inputs[0]);
    if (in.kind() != IRKind::Sort) return std::nullopt;
    const SortNode& outer = ir.as<SortNode>();
    const SortNode& inner = in.as<SortNode>();
    // A top-k inner sort chooses rows, not only their order.
    if (inner.slice || !keys_row_local(outer, ea)) return std::nullopt;
    SortNode merged = outer;
    if (outer.options.maintain_order) {
      merged.options.descending = per_key(outer.options.descending, outer.by.size());
      merged.options.nulls_last = per_key(outer.options.nulls_last, outer.by.size());
      const auto in_desc = per_key(inner.options.descending, inner.by.size());
      const auto in_nulls = per_key(inner.options.nulls_last, inner.by.size());
      for (size_t i = 0; i < inner.by.size(); ++i) {
        bool present = false;
        for (const auto& k : merged.by) present = present || plan::expr_equal(k.node(), inner.by[i].node(), ea);
        if (present) continue;
        merged.by.push_back(inner.by[i]);
        merged.options.descending.push_back(in_desc[i]);
        merged.options.nulls_last.push_back(in_nulls[i]);
      }
      merged.options.maintain_order = inner.options.maintain_order;
    }
    return IR(std::move(merged), {in.inputs[0]}, ir.schema);
  }
};

}  // namespace

Node collapse_sort(Node root, plan::IRArena& lp, plan::ExprArena& ea) {
  CollapseSort rule;
  const bool trace = plan::RewriteTrace::enabled();
  plan::for_each_plan_node(root, lp, [&](Node n) {
    // Repeated: the new input may be a sort as well.
    while (auto rewritten = rule.optimize_plan(lp, ea, n)) {
      std::string before = trace ? plan::explain_plan(n, lp, ea) : std::string();
      lp.replace(n, std::move(*rewritten));
      if (trace) plan::RewriteTrace::record({rule.name(), std::move(before), plan::explain_plan(n, lp, ea)});
    }
  });
  return root;
}

}  // namespace frazil::optimizer
