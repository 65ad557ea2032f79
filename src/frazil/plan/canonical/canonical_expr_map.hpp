// CanonicalExprMap: structural identity of expression subtrees. A node's id is the
// interned pair (shallow hash of the node, ids of its children): two nodes get the same id
// exactly when they are the same expression. Ids are dense (0, 1, 2, ...), computed
// bottom-up in post-order and memoized per Node, so a subtree is hashed once however
// often it is asked about. Each id carries whether its subtree is non-deterministic.
//
// The map reads the arena as it is when a node is first resolved: a pass that replaces
// nodes in place must not keep using a map that has seen them (appending is fine).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "frazil/plan/aexpr.hpp"
#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/canonical/intern_table.hpp"

namespace frazil::plan {

struct CanonicalExprId {
  uint32_t value = UINT32_MAX;
  bool valid() const { return value != UINT32_MAX; }
  auto operator<=>(const CanonicalExprId&) const = default;
};

// Replaceable parts, for tests: a deliberately colliding hash, or pretending some node
// kind is non-deterministic. nullptr means the default.
struct CanonicalExprHooks {
  uint64_t (*shallow_hash)(const AExpr&) = nullptr;    // default: AExpr::hash_shallow
  bool (*nondeterministic)(const AExpr&) = nullptr;  // default: is_nondeterministic_top_level
};

class CanonicalExprMap {
 public:
  using Hooks = CanonicalExprHooks;

  explicit CanonicalExprMap(Hooks hooks = {}) : hooks_(hooks) {}

  CanonicalExprId resolve(Node node, const ExprArena& arena);
  // The id of a node already resolved (or resolved as part of a parent); invalid if not.
  CanonicalExprId lookup(Node node) const {
    return node.idx < memo_.size() ? CanonicalExprId{memo_[node.idx]} : CanonicalExprId{};
  }

  bool is_nondeterministic(CanonicalExprId id) const { return classes_[id.value].nondeterministic; }
  // The first node that was given this id.
  Node representative(CanonicalExprId id) const { return classes_[id.value].representative; }
  std::span<const uint32_t> children(CanonicalExprId id) const {
    const Class& c = classes_[id.value];
    return {child_ids_.data() + c.first_child, c.num_children};
  }
  uint64_t hash_of(CanonicalExprId id) const { return classes_[id.value].hash; }
  size_t num_classes() const { return classes_.size(); }
  uint64_t comparisons() const { return table_.comparisons(); }
  const Hooks& hooks() const { return hooks_; }

 private:
  struct Class {
    uint64_t hash;
    Node representative;
    uint32_t first_child;
    uint32_t num_children;
    bool nondeterministic;
  };

  uint32_t intern(Node node, const AExpr& e, const ExprArena& arena);
  bool same_shallow(const AExpr& a, const AExpr& b) const;

  Hooks hooks_;
  InternTable table_;
  std::vector<Class> classes_;
  std::vector<uint32_t> child_ids_;
  std::vector<uint32_t> memo_;  // by node index; UINT32_MAX: not resolved
  std::vector<uint32_t> scratch_;
  std::vector<std::pair<Node, uint32_t>> stack_;
  const ExprArena* arena_ = nullptr;
  uint32_t arena_version_ = 0;
};

}  // namespace frazil::plan
