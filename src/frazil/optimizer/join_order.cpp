#include "frazil/optimizer/join_order.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/cost/cost_model.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/plan/row_order.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::ExprIR;
using plan::IR;
using plan::IRArena;
using plan::Node;

namespace {

using Names = std::set<std::string>;

// An inner join on plain columns of one name on both sides, coalesced: its keys, or nullopt.
std::optional<Names> run_join_keys(const IR& ir, const ExprArena& ea) {
  const auto* j = ir.get_if<plan::JoinNode>();
  if (!j || j->options.how != compute::JoinType::Inner || !j->options.coalesce || j->left_on.empty()) return {};
  Names keys;
  for (size_t i = 0; i < j->left_on.size(); ++i) {
    const plan::AExpr& l = ea.get(j->left_on[i].node());
    const plan::AExpr& r = ea.get(j->right_on[i].node());
    if (!l.is_column() || !r.is_column() || l.name != r.name || j->left_on[i].output_name() != l.name ||
        j->right_on[i].output_name() != r.name || !keys.insert(l.name).second)
      return {};
  }
  return keys;
}

Names names_of(const IR& ir) {
  const auto& v = ir.schema->names();
  return Names(v.begin(), v.end());
}

Names intersection(const Names& a, const Names& b) {
  Names out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

// The cost model's inner join of two estimated inputs (plan/cost: the side with more rows
// before its filters is the fact table; the output keeps the share the other side's
// filters kept).
plan::PlanCost joined(const plan::PlanCost& a, const plan::PlanCost& b) {
  const bool a_fact = a.rows / std::max(a.kept, 1e-9) >= b.rows / std::max(b.kept, 1e-9);
  plan::PlanCost out;
  out.rows = a_fact ? a.rows * b.kept : b.rows * a.kept;
  out.kept = a.kept * b.kept;
  return out;
}

struct Run {
  std::vector<Node> leaves;  // in written order (left to right)
  std::vector<Names> leaf_names;
  bool valid = true;
};

// Collects the run below `n` (a run join): its inputs that are not run joins of their own
// (or are shared with another consumer) are leaves. Returns the names of `n`'s output.
Names collect(Node n, const IRArena& lp, const ExprArena& ea, const std::vector<uint32_t>& parents, bool top,
              Run& run) {
  const IR& ir = lp.get(n);
  const bool shared = !top && parents[n.idx] > 1;
  const std::optional<Names> keys = shared ? std::nullopt : run_join_keys(ir, ea);
  if (!keys) {
    run.leaves.push_back(n);
    run.leaf_names.push_back(names_of(ir));
    return run.leaf_names.back();
  }
  Names left = collect(ir.inputs[0], lp, ea, parents, false, run);
  Names right = collect(ir.inputs[1], lp, ea, parents, false, run);
  // The names both sides have must be this join's keys: no column is suffixed.
  if (intersection(left, right) != *keys) run.valid = false;
  left.insert(right.begin(), right.end());
  return left;
}

// The sum of the intermediate row estimates of the written tree, and its estimate.
plan::PlanCost written_cost(Node n, const IRArena& lp, const ExprArena& ea, const std::vector<uint32_t>& parents,
                            bool top, const std::vector<Node>& leaves, const std::vector<plan::PlanCost>& costs,
                            double& total) {
  const IR& ir = lp.get(n);
  const bool shared = !top && parents[n.idx] > 1;
  if (shared || !run_join_keys(ir, ea)) {
    const size_t i = static_cast<size_t>(std::find(leaves.begin(), leaves.end(), n) - leaves.begin());
    return costs[i];
  }
  plan::PlanCost l = written_cost(ir.inputs[0], lp, ea, parents, false, leaves, costs, total);
  plan::PlanCost r = written_cost(ir.inputs[1], lp, ea, parents, false, leaves, costs, total);
  plan::PlanCost out = joined(l, r);
  total += out.rows;
  return out;
}

// Replaces the run rooted at `n` by a cheaper join tree; true when it did.
bool reorder(Node n, IRArena& lp, ExprArena& ea, const std::vector<uint32_t>& parents) {
  Run run;
  collect(n, lp, ea, parents, true, run);
  const size_t k = run.leaves.size();
  if (!run.valid || k < 3 || k > 64) return false;
  std::vector<plan::PlanCost> costs;
  for (Node leaf : run.leaves) {
    auto c = plan::estimate_cost(leaf, lp, ea);
    if (!c) return false;
    costs.push_back(*c);
  }
  double written = 0;
  written_cost(n, lp, ea, parents, true, run.leaves, costs, written);

  // Greedy: the cheapest connected pair (the earlier input on the left), then the
  // cheapest connected input each step. Ties keep the written order.
  auto shares = [&](const Names& a, const Names& b) { return !intersection(a, b).empty(); };
  std::optional<std::pair<size_t, size_t>> first;
  plan::PlanCost first_cost;
  for (size_t i = 0; i < k; ++i)
    for (size_t j = i + 1; j < k; ++j) {
      if (!shares(run.leaf_names[i], run.leaf_names[j])) continue;
      plan::PlanCost c = joined(costs[i], costs[j]);
      if (!first || c.rows < first_cost.rows) first = {i, j}, first_cost = c;
    }
  if (!first) return false;
  std::vector<size_t> order{first->first, first->second};
  std::vector<bool> used(k, false);
  used[first->first] = used[first->second] = true;
  Names names = run.leaf_names[first->first];
  names.insert(run.leaf_names[first->second].begin(), run.leaf_names[first->second].end());
  plan::PlanCost acc = first_cost;
  double total = acc.rows;
  while (order.size() < k) {
    std::optional<size_t> best;
    plan::PlanCost best_cost;
    for (size_t i = 0; i < k; ++i) {
      if (used[i] || !shares(names, run.leaf_names[i])) continue;
      plan::PlanCost c = joined(acc, costs[i]);
      if (!best || c.rows < best_cost.rows) best = i, best_cost = c;
    }
    if (!best) return false;  // the written tree has a cross product somewhere: keep it
    order.push_back(*best);
    used[*best] = true;
    names.insert(run.leaf_names[*best].begin(), run.leaf_names[*best].end());
    acc = best_cost;
    total += acc.rows;
  }
  // Only a clear win replaces what the user wrote.
  if (!(total < written * 0.9)) return false;
  bool same = true;
  for (size_t i = 0; i < k; ++i) same = same && order[i] == i;
  if (same) return false;

  // Copied: adding nodes may move the arena.
  const dsl::JoinOptions options = lp.get(n).as<plan::JoinNode>().options;
  const SchemaRef out_schema = lp.get(n).schema;
  Node tree = run.leaves[order[0]];
  Names tree_names = run.leaf_names[order[0]];
  for (size_t step = 1; step < k; ++step) {
    const Node leaf = run.leaves[order[step]];
    const Names& leaf_names = run.leaf_names[order[step]];
    plan::JoinNode j;
    j.options = options;
    const Schema& ls = *lp.get(tree).schema;
    const Schema& rs = *lp.get(leaf).schema;
    for (const std::string& key : intersection(tree_names, leaf_names)) {
      // A key of one dtype on both sides: the written joins had no casts (plain columns).
      if (!(ls.dtype_of(key) == rs.dtype_of(key))) return false;
      const plan::OutputName out{plan::OutputNameKind::ColumnLhs, key};
      j.left_on.emplace_back(ea.add(plan::AExpr::column(key)), out);
      j.right_on.emplace_back(ea.add(plan::AExpr::column(key)), out);
    }
    SchemaRef schema = plan::join_schema(ls, rs, j.left_on, j.right_on, j.options, ea);
    tree = lp.add(IR(std::move(j), {tree, leaf}, std::move(schema)));
    tree_names.insert(leaf_names.begin(), leaf_names.end());
  }
  lp.replace(n, IR(plan::SimpleProjectionNode{out_schema->names()}, {tree}, out_schema));
  return true;
}

}  // namespace

Node join_order(Node root, IRArena& lp, ExprArena& ea) {
  // A run of three inputs has a run join below a run join; most plans have none, and pay
  // for this look only (not for the row-order and parent analyses).
  bool any = false;
  plan::for_each_plan_node(root, lp, [&](Node n) {
    if (any || !run_join_keys(lp.get(n), ea)) return;
    for (Node in : lp.get(n).inputs) any = any || run_join_keys(lp.get(in), ea).has_value();
  });
  if (!any) return root;
  const std::vector<uint32_t> parents = plan::count_parents(root, lp);
  const std::vector<bool> unordered = plan::unordered_outputs(root, lp, ea);
  const bool trace = plan::RewriteTrace::enabled();
  plan::for_each_plan_node(root, lp, [&](Node n) {
    // Nodes made here are past `unordered`: the walk goes into them without rewriting.
    if (n.idx >= unordered.size() || !unordered[n.idx] || !run_join_keys(lp.get(n), ea)) return;
    const std::string before = trace ? plan::explain_plan(n, lp, ea) : std::string();
    if (reorder(n, lp, ea, parents) && trace)
      plan::RewriteTrace::record({"join_order", before, plan::explain_plan(n, lp, ea)});
  });
  return root;
}

}  // namespace frazil::optimizer
