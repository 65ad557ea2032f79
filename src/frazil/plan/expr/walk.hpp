// Walks over an expression DAG in the arena, with explicit stacks: an expression of a
// hundred thousand chained operations is walked without overflowing the call stack, and a
// subtree shared by several parents is visited once. Every pass and property that walks
// expressions builds on these instead of writing its own recursion.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "frazil/plan/aexpr.hpp"

namespace frazil::plan {

// Nodes already reached by one walk. The arena is a DAG (conversion shares the subtrees the
// user shared), so a walk that does not remember where it has been is exponential in the
// depth of the sharing. Small walks stay in the inline array (no allocation).
class NodeSet {
 public:
  NodeSet() = default;
  explicit NodeSet(Node first) { insert(first); }
  // True the first time `n` is seen.
  bool insert(Node n) {
    if (set_.empty()) {
      for (uint32_t i = 0; i < small_n_; ++i)
        if (small_[i] == n.idx) return false;
      if (small_n_ < kSmall) {
        small_[small_n_++] = n.idx;
        return true;
      }
      set_.insert(small_, small_ + small_n_);
    }
    return set_.insert(n.idx).second;
  }

 private:
  static constexpr uint32_t kSmall = 16;
  uint32_t small_[kSmall];
  uint32_t small_n_ = 0;
  std::unordered_set<uint32_t> set_;
};

// What a check says of one node.
enum class Verdict : uint8_t {
  Fail,     // the property does not hold: stop
  Holds,    // it holds here and below (the inputs are not looked at)
  Descend,  // it holds here if it holds for the inputs `follow` accepts
};

// True when `check(node, e)` never fails over the nodes reachable from `root` through the
// inputs `follow(e, i)` accepts; each node is checked once.
template <typename Check, typename Follow>
bool all_reachable(Node root, const ExprArena& arena, Check&& check, Follow&& follow) {
  std::vector<Node> stack{root};
  NodeSet seen(root);
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    const AExpr& e = arena.get(n);
    switch (check(n, e)) {
      case Verdict::Fail: return false;
      case Verdict::Holds: continue;
      case Verdict::Descend: break;
    }
    for (size_t i = 0; i < e.inputs.size(); ++i)
      if (follow(e, i) && seen.insert(e.inputs[i])) stack.push_back(e.inputs[i]);
  }
  return true;
}

template <typename Check>
bool all_reachable(Node root, const ExprArena& arena, Check&& check) {
  return all_reachable(root, arena, std::forward<Check>(check), [](const AExpr&, size_t) { return true; });
}

// True when some node reachable from `root` satisfies `pred(e)`.
template <typename Pred>
bool any_reachable(Node root, const ExprArena& arena, Pred&& pred) {
  return !all_reachable(root, arena, [&](Node, const AExpr& e) { return pred(e) ? Verdict::Fail : Verdict::Descend; });
}

// Calls visit(node, e) for every node reachable from `root`, each once, its inputs before it.
template <typename Visit>
void post_order(Node root, const ExprArena& arena, Visit&& visit) {
  std::vector<std::pair<Node, size_t>> stack{{root, 0}};
  NodeSet seen(root);
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    const AExpr& e = arena.get(n);
    if (next < e.inputs.size()) {
      const Node in = e.inputs[next++];
      if (seen.insert(in)) stack.emplace_back(in, 0);
      continue;
    }
    const Node done = n;
    stack.pop_back();
    visit(done, arena.get(done));
  }
}

// Rebuilds the DAG bottom-up: `leaf(node, e)` may replace a node outright (nullopt: keep
// looking at its inputs); a node whose inputs changed is copied with the new inputs, one
// that kept them stays itself (every node is copied with `copy_all`). Shared subtrees are
// rebuilt once. Returns the new root.
template <typename Leaf>
Node rebuild_bottom_up(Node root, ExprArena& arena, Leaf&& leaf, bool copy_all = false) {
  std::unordered_map<uint32_t, Node> done;
  std::vector<std::pair<Node, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [n, expanded] = stack.back();
    stack.pop_back();
    if (done.count(n.idx)) continue;
    if (!expanded) {
      if (std::optional<Node> replaced = leaf(n, arena.get(n))) {
        done.emplace(n.idx, *replaced);
        continue;
      }
      stack.emplace_back(n, true);
      for (Node in : arena.get(n).inputs)
        if (!done.count(in.idx)) stack.emplace_back(in, false);
      continue;
    }
    std::vector<Node> inputs = arena.get(n).inputs;
    bool changed = false;
    for (Node& in : inputs) {
      const Node now = done.at(in.idx);
      changed |= now != in;
      in = now;
    }
    Node out = n;
    if (changed || copy_all) {
      AExpr copy = arena.get(n);  // a copy: add() may move the arena's storage
      copy.inputs = std::move(inputs);
      out = arena.add(std::move(copy));
    }
    done.emplace(n.idx, out);
  }
  return done.at(root.idx);
}

// Names of the columns a subtree reads, appended to `out` in first-seen (left to right) order.
void collect_columns(Node node, const ExprArena& arena, std::vector<std::string>& out);
// The distinct column names a subtree reads.
std::vector<std::string> columns_of(Node node, const ExprArena& arena);
// The leftmost column name, the name Polars gives an unaliased expression.
std::optional<std::string> leftmost_column(Node node, const ExprArena& arena);

}  // namespace frazil::plan
