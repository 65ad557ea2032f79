#include "frazil/optimizer/cse/cache_states.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "frazil/plan/cost/cost_model.hpp"
#include "frazil/plan/canonical/canonical_ir_map.hpp"
#include "frazil/plan/optimization_rule.hpp"

namespace frazil::optimizer::cse {

using plan::AExpr;
using plan::AExprKind;
using plan::CanonicalExprMap;
using plan::ExprIR;
using plan::IR;
using plan::IRKind;
using plan::Node;

namespace {

// Every node reachable from the root once, its first parent, and the Cache nodes per
// cache id in the order they were first met (outer caches before the caches inside them).
struct PlanWalk {
  std::vector<int64_t> parent;  // by node index, -1: none
  std::vector<uint64_t> order;
  std::unordered_map<uint64_t, std::vector<Node>> caches;
};

PlanWalk walk(Node root, const plan::IRArena& lp) {
  PlanWalk w;
  w.parent.assign(lp.size(), -1);
  std::vector<bool> seen(lp.size(), false);
  std::vector<Node> stack{root};
  seen[root.idx] = true;
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    const IR& ir = lp.get(n);
    if (ir.kind() == IRKind::Cache) {
      const uint64_t id = ir.as<plan::CacheNode>().id;
      auto& v = w.caches[id];
      if (v.empty()) w.order.push_back(id);
      v.push_back(n);
    }
    for (auto it = ir.inputs.rbegin(); it != ir.inputs.rend(); ++it) {
      if (seen[it->idx]) continue;
      seen[it->idx] = true;
      w.parent[it->idx] = n.idx;
      stack.push_back(*it);
    }
  }
  return w;
}

void split_conjuncts(Node root, const plan::ExprArena& ea, std::vector<Node>& out) {
  std::vector<Node> stack{root};  // left to right, without recursion (AND chains may be long)
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    const AExpr& e = ea.get(n);
    if (e.kind == AExprKind::BinaryExpr && e.op == dsl::Operator::And) {
      stack.push_back(e.inputs[1]);
      stack.push_back(e.inputs[0]);
      continue;
    }
    out.push_back(n);
  }
}

Node fold(const std::vector<Node>& nodes, dsl::Operator op, plan::ExprArena& ea) {
  Node acc = nodes[0];
  for (size_t i = 1; i < nodes.size(); ++i) acc = ea.add(AExpr::binary(acc, op, nodes[i]));
  return acc;
}

ExprIR predicate_ir(Node n, const plan::ExprArena& ea) {
  auto col = plan::leftmost_column(n, ea);
  return col ? ExprIR(n, plan::OutputName{plan::OutputNameKind::ColumnLhs, *col})
             : ExprIR(n, plan::OutputName{plan::OutputNameKind::LiteralLhs, "literal"});
}

Node add_filter(Node input, Node predicate, plan::IRArena& lp, const plan::ExprArena& ea) {
  return lp.add(plan::make_filter(input, predicate_ir(predicate, ea), lp.get(input).schema));
}

// Replaces the IR at `n` by a copy of its input's: `n` now is what it read.
void bypass(Node n, plan::IRArena& lp) {
  IR below = lp.get(lp.get(n).inputs[0]);
  lp.replace(n, std::move(below));
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// One consumer of a cache: the Filter/SimpleProjection nodes directly above its Cache node
// (bottom to top) and the node above those (none at the root).
struct CacheUse {
  Node cache;
  std::vector<Node> chain;
  std::optional<Node> consumer;
  std::vector<std::pair<Node, plan::CanonicalExprId>> conjuncts;  // of every filter in the chain
};

class CacheStates {
 public:
  CacheStates(Node root, plan::IRArena& lp, plan::ExprArena& ea, const CacheStateOptions& options)
      : root_(root), lp_(lp), ea_(ea), options_(options) {}

  // Outer caches first: a cache inside another's subplan waits for the outer one, since
  // reconciling the outer one may re-run pushdown over its subplan, which must not reach an
  // already shared inner input. Caches of one round are independent (none inside another,
  // and each changes only its own nodes and the filters directly above them), so one walk
  // of the plan serves the whole round.
  Node run() {
    std::unordered_set<uint64_t> done;
    for (;;) {
      PlanWalk w = walk(root_, lp_);
      std::unordered_set<uint64_t> nested;
      std::vector<bool> seen(lp_.size(), false);
      for (uint64_t id : w.order) {
        if (done.count(id)) continue;
        for (Node c : w.caches[id]) collect_caches(lp_.get(c).inputs[0], seen, nested);
      }
      std::vector<uint64_t> round;
      for (uint64_t id : w.order)
        if (!done.count(id) && !nested.count(id)) round.push_back(id);
      if (round.empty())  // only if nesting were cyclic; never leave a cache unchecked
        for (uint64_t id : w.order)
          if (!done.count(id)) {
            round.push_back(id);
            break;
          }
      if (round.empty()) break;
      for (uint64_t id : round) {
        done.insert(id);
        process(id, w.caches[id], w);
      }
    }
    return root_;
  }

  void collect_caches(Node n, std::vector<bool>& seen, std::unordered_set<uint64_t>& out) const {
    std::vector<Node> stack{n};
    while (!stack.empty()) {
      Node m = stack.back();
      stack.pop_back();
      if (seen[m.idx]) continue;
      seen[m.idx] = true;
      const IR& ir = lp_.get(m);
      if (ir.kind() == IRKind::Cache) out.insert(ir.as<plan::CacheNode>().id);
      for (Node in : ir.inputs) stack.push_back(in);
    }
  }

 private:
  void trace(uint64_t cache_id, const std::string& before, const std::string& after) {
    if (!plan::RewriteTrace::enabled()) return;
    std::ostringstream id;
    id << "CACHE[id: " << std::hex << cache_id << "] ";
    plan::RewriteTrace::record({"cache_states", id.str() + before, after});
  }

  void remove_all(const std::vector<Node>& caches) {
    for (Node c : caches) bypass(c, lp_);
  }

  CacheUse use_of(Node cache, const PlanWalk& w, CanonicalExprMap& exprs) {
    CacheUse u;
    u.cache = cache;
    int64_t p = w.parent[cache.idx];
    while (p >= 0) {
      const IR& ir = lp_.get(Node(static_cast<uint32_t>(p)));
      if (ir.kind() == IRKind::Filter) {
        std::vector<Node> parts;
        split_conjuncts(ir.as<plan::FilterNode>().predicate.node(), ea_, parts);
        for (Node part : parts) u.conjuncts.emplace_back(part, exprs.resolve(part, ea_));
      } else if (ir.kind() != IRKind::SimpleProjection) {
        break;
      }
      u.chain.push_back(Node(static_cast<uint32_t>(p)));
      p = w.parent[p];
    }
    if (p >= 0) u.consumer = Node(static_cast<uint32_t>(p));
    return u;
  }

  // The columns of the cache this consumer reads; nullopt: all of them.
  std::optional<std::vector<std::string>> needed_columns(const CacheUse& u) {
    std::vector<std::string> cols;
    for (Node n : u.chain) {
      const IR& ir = lp_.get(n);
      if (ir.kind() == IRKind::SimpleProjection) {
        for (const auto& name : ir.schema->names())
          if (std::find(cols.begin(), cols.end(), name) == cols.end()) cols.push_back(name);
        return cols;  // filters above a projection read only what it keeps
      }
      plan::collect_columns(ir.as<plan::FilterNode>().predicate.node(), ea_, cols);
    }
    if (!u.consumer) return std::nullopt;
    const IR& top = lp_.get(*u.consumer);
    // Nodes that name what they read; any other consumer (join, union, sort, ...) passes
    // the columns on, so it needs them all.
    if (top.kind() != IRKind::Select && top.kind() != IRKind::GroupBy) return std::nullopt;
    for (const ExprIR* e : top.all_exprs()) plan::collect_columns(e->node(), ea_, cols);
    return cols;
  }

  void process(uint64_t cache_id, const std::vector<Node>& caches, const PlanWalk& w) {
    const size_t k = caches.size();
    if (k == 1) {
      remove_all(caches);
      trace(cache_id, "has a single consumer", "removed");
      return;
    }
    plan::CanonicalIRMap map;
    const plan::CanonicalIRId first = map.resolve(lp_.get(caches[0]).inputs[0], lp_, ea_);
    for (Node c : caches)
      if (map.resolve(lp_.get(c).inputs[0], lp_, ea_) != first) {
        remove_all(caches);
        trace(cache_id, "consumers' copies of the subplan differ after pushdown", "removed");
        return;
      }
    CanonicalExprMap& exprs = map.expr_map();
    std::vector<CacheUse> uses;
    for (Node c : caches) uses.push_back(use_of(c, w, exprs));

    const Node base = lp_.get(caches[0]).inputs[0];
    const SchemaRef full = lp_.get(base).schema;

    // Columns: the union of what the consumers read.
    std::vector<std::string> wanted;
    bool all_columns = false;
    for (const auto& u : uses) {
      auto cols = needed_columns(u);
      if (!cols) {
        all_columns = true;
        break;
      }
      for (auto& c : *cols)
        if (std::find(wanted.begin(), wanted.end(), c) == wanted.end()) wanted.push_back(std::move(c));
    }
    SchemaRef narrowed = full;
    if (!all_columns) {
      Schema s;
      for (const auto& f : full->fields())
        if (std::find(wanted.begin(), wanted.end(), f.name) != wanted.end()) s.push(f);
      if (s.empty() && !full->empty()) s.push(full->field(0));  // keeps the height
      if (s.size() < full->size()) narrowed = std::make_shared<const Schema>(std::move(s));
    }

    // Predicates: conjuncts on every consumer go below; the rest stay above.
    const bool all_filter = std::all_of(uses.begin(), uses.end(), [](const CacheUse& u) { return !u.conjuncts.empty(); });
    std::vector<Node> common;
    std::unordered_set<uint32_t> common_ids;
    if (all_filter) {
      for (const auto& [node, id] : uses[0].conjuncts) {
        if (common_ids.count(id.value) || exprs.is_nondeterministic(id)) continue;
        // (A structured binding is captured by copy: clang before 16 cannot capture it.)
        bool everywhere = std::all_of(uses.begin() + 1, uses.end(), [&, want = id](const CacheUse& u) {
          return std::any_of(u.conjuncts.begin(), u.conjuncts.end(), [&](const auto& c) { return c.second == want; });
        });
        if (!everywhere) continue;
        common_ids.insert(id.value);
        common.push_back(node);
      }
    }
    // The OR of what remains, when every consumer keeps a deterministic filter of its own.
    std::optional<Node> any_of_rest;
    if (all_filter) {
      std::vector<Node> alternatives;
      std::vector<std::vector<uint32_t>> seen_sets;
      bool usable = true;
      for (const auto& u : uses) {
        std::vector<Node> rest;
        std::vector<uint32_t> ids;
        for (const auto& [node, id] : u.conjuncts) {
          if (common_ids.count(id.value)) continue;
          if (exprs.is_nondeterministic(id)) usable = false;
          if (std::find(ids.begin(), ids.end(), id.value) != ids.end()) continue;
          ids.push_back(id.value);
          rest.push_back(node);
        }
        if (rest.empty()) {  // this consumer keeps every shared row (and there is nothing to fold)
          usable = false;
          break;
        }
        std::sort(ids.begin(), ids.end());
        if (std::find(seen_sets.begin(), seen_sets.end(), ids) != seen_sets.end()) continue;
        seen_sets.push_back(ids);
        alternatives.push_back(fold(rest, dsl::Operator::And, ea_));
      }
      if (usable && alternatives.size() > 1) any_of_rest = fold(alternatives, dsl::Operator::Or, ea_);
    }

    // The reconciled shared input (built aside; it stays unused if the caches go).
    Node shared = base;
    if (!common.empty()) shared = add_filter(shared, fold(common, dsl::Operator::And, ea_), lp_, ea_);
    if (any_of_rest) shared = add_filter(shared, *any_of_rest, lp_, ea_);
    if (narrowed != full) {
      shared = lp_.add(plan::make_simple_projection(shared, narrowed));
    }

    // Cost: recomputing per consumer against materialising once.
    std::ostringstream what;
    what << k << " consumers";
    if (!common.empty()) what << ", " << common.size() << " shared conjunct(s) below";
    if (any_of_rest) what << ", OR of the consumers' filters below";
    if (narrowed != full) what << ", " << narrowed->size() << "/" << full->size() << " columns";
    if (options_.use_cost_model) {
      auto per_copy = plan::estimate_cost(base, lp_, ea_);
      auto once = plan::estimate_cost(shared, lp_, ea_);
      if (!per_copy || !once) {
        trace(cache_id, what.str() + "; no row estimate", "kept");
      } else {
        const double removal = static_cast<double>(k) * per_copy->work;
        const double keep = once->work + static_cast<double>(k) * once->rows;
        what << "; removal " << sci(removal) << " rows, keep " << sci(keep) << " rows";
        if (removal <= keep) {
          remove_all(caches);
          trace(cache_id, what.str(), "removed: recomputing is not more expensive");
          if (options_.reoptimize)
            for (const auto& u : uses) reoptimize_at(u.chain.empty() ? u.cache : u.chain.back());
          return;
        }
        trace(cache_id, what.str(), "kept");
      }
    } else {
      trace(cache_id, what.str(), "kept (cost model off)");
    }

    if (options_.reoptimize && shared != base) shared = options_.reoptimize(shared);
    for (Node c : caches) {
      IR& ir = lp_.get_mut(c);
      ir.inputs[0] = shared;
      ir.schema = lp_.get(shared).schema;
    }
    for (const auto& u : uses) rewrite_chain(u, common_ids, exprs);
  }

  // Drops the shared conjuncts from a consumer's filters (a filter left with none goes),
  // then gives each remaining filter its input's schema again, bottom-up (the cache's may
  // be narrower now). Walks by position from the top: a bypassed node takes its input's
  // place.
  void rewrite_chain(const CacheUse& u, const std::unordered_set<uint32_t>& common_ids, CanonicalExprMap& exprs) {
    if (u.chain.empty()) return;
    std::vector<Node> kept;
    Node pos = u.chain.back();
    for (;;) {
      IR& ir = lp_.get_mut(pos);
      if (ir.kind() == IRKind::SimpleProjection) {
        kept.push_back(pos);
        pos = ir.inputs[0];
        continue;
      }
      if (ir.kind() != IRKind::Filter) break;  // the cache
      std::vector<Node> parts, rest;
      split_conjuncts(ir.as<plan::FilterNode>().predicate.node(), ea_, parts);
      for (Node part : parts)
        if (!common_ids.count(exprs.resolve(part, ea_).value)) rest.push_back(part);
      if (rest.empty()) {
        bypass(pos, lp_);
        continue;
      }
      if (rest.size() != parts.size())
        ir.as_mut<plan::FilterNode>().predicate = predicate_ir(fold(rest, dsl::Operator::And, ea_), ea_);
      kept.push_back(pos);
      pos = ir.inputs[0];
    }
    for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
      IR& ir = lp_.get_mut(*it);
      if (ir.kind() == IRKind::Filter) ir.schema = lp_.get(ir.inputs[0]).schema;
    }
  }

  void reoptimize_at(Node n) {
    Node r = options_.reoptimize(n);
    if (r != n) lp_.replace(n, IR(lp_.get(r)));
  }

  Node root_;
  plan::IRArena& lp_;
  plan::ExprArena& ea_;
  const CacheStateOptions& options_;
};

}  // namespace

Node set_cache_states(Node root, plan::IRArena& lp, plan::ExprArena& ea, const CacheStateOptions& options) {
  return CacheStates(root, lp, ea, options).run();
}

}  // namespace frazil::optimizer::cse
