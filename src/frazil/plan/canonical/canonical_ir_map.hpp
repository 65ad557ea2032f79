// CanonicalIRMap: structural identity of subplans, the same algorithm as CanonicalExprMap
// one level up. A plan node's id is the interned pair (hash_excluding_inputs of the node,
// ids of its inputs); the equality behind the hash is ir_equal_shallow plus equal input
// ids. Expressions on a node are identified by their canonical expression id and output
// name, through the CanonicalExprMap this map embeds. Ids are dense, memoized per Node,
// computed bottom-up; each carries whether its subplan is non-deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "frazil/plan/canonical/canonical_expr_map.hpp"
#include "frazil/plan/canonical/ir_hash.hpp"

namespace frazil::plan {

struct CanonicalIRId {
  uint32_t value = UINT32_MAX;
  bool valid() const { return value != UINT32_MAX; }
  auto operator<=>(const CanonicalIRId&) const = default;
};

struct CanonicalIRHooks {
  CanonicalExprHooks expr;
  uint64_t (*shallow_hash)(const IR&) = nullptr;  // default: hash_excluding_inputs
};

class CanonicalIRMap {
 public:
  using Hooks = CanonicalIRHooks;

  explicit CanonicalIRMap(Hooks hooks = {}) : hooks_(hooks), expr_map_(hooks.expr) {}

  CanonicalIRId resolve(Node node, const IRArena& lp_arena, const ExprArena& expr_arena);
  CanonicalIRId lookup(Node node) const {
    return node.idx < memo_.size() ? CanonicalIRId{memo_[node.idx]} : CanonicalIRId{};
  }

  bool is_nondeterministic(CanonicalIRId id) const { return classes_[id.value].nondeterministic; }
  Node representative(CanonicalIRId id) const { return classes_[id.value].representative; }
  std::span<const uint32_t> children(CanonicalIRId id) const {
    const Class& c = classes_[id.value];
    return {child_ids_.data() + c.first_child, c.num_children};
  }
  size_t num_classes() const { return classes_.size(); }
  uint64_t comparisons() const { return table_.comparisons(); }
  CanonicalExprMap& expr_map() { return expr_map_; }

 private:
  struct Class {
    uint64_t hash;
    Node representative;
    uint32_t first_child;
    uint32_t num_children;
    bool nondeterministic;
  };

  uint32_t intern(Node node, const IR& ir, const IRArena& lp_arena, const ExprArena& expr_arena);

  Hooks hooks_;
  CanonicalExprMap expr_map_;
  InternTable table_;
  std::vector<Class> classes_;
  std::vector<uint32_t> child_ids_;
  std::vector<uint32_t> memo_;
  std::vector<uint32_t> scratch_;
  std::vector<std::pair<Node, uint32_t>> stack_;
  const IRArena* arena_ = nullptr;
  uint32_t arena_version_ = 0;
};

}  // namespace frazil::plan
