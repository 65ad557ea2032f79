#include "frazil/plan/canonical/canonical_expr_map.hpp"

#include <cmath>

namespace frazil::plan {

bool CanonicalExprMap::same_shallow(const AExpr& a, const AExpr& b) const {
  if (!a.equal_shallow(b)) return false;
  // Literal equality treats -0.0 as 0.0 (right for grouping, wrong for identity: 1 / -0.0
  // is -inf), so a float literal must also agree in its sign bit.
  if (a.kind == AExprKind::Literal && !a.literal().is_series()) {
    const auto* x = std::get_if<double>(&a.literal().scalar.value());
    const auto* y = std::get_if<double>(&b.literal().scalar.value());
    if (x && y && std::signbit(*x) != std::signbit(*y)) return false;
  }
  return true;
}

uint32_t CanonicalExprMap::intern(Node node, const AExpr& e, const ExprArena& arena) {
  scratch_.clear();
  uint64_t h = hooks_.shallow_hash ? hooks_.shallow_hash(e) : e.hash_shallow();
  bool nondeterministic = hooks_.nondeterministic ? hooks_.nondeterministic(e) : is_nondeterministic_top_level(e);
  for (Node in : e.inputs) {
    uint32_t c = memo_[in.idx];
    scratch_.push_back(c);
    h = hash_combine(h, c);
    nondeterministic |= classes_[c].nondeterministic;
  }
  const auto new_id = static_cast<uint32_t>(classes_.size());
  auto [id, inserted] = table_.find_or_insert(h, new_id, [&](uint32_t other) {
    const Class& c = classes_[other];
    if (c.num_children != scratch_.size()) return false;
    for (size_t i = 0; i < scratch_.size(); ++i)
      if (child_ids_[c.first_child + i] != scratch_[i]) return false;
    return same_shallow(arena.get(c.representative), e);
  });
  if (inserted) {
    classes_.push_back(Class{h, node, static_cast<uint32_t>(child_ids_.size()),
                             static_cast<uint32_t>(scratch_.size()), nondeterministic});
    child_ids_.insert(child_ids_.end(), scratch_.begin(), scratch_.end());
  }
  return id;
}

CanonicalExprId CanonicalExprMap::resolve(Node root, const ExprArena& arena) {
  if (arena_ == nullptr) {
    arena_ = &arena;
    arena_version_ = arena.version();
  }
  FRAZIL_CHECK(arena_ == &arena);
  FRAZIL_CHECK_EQ(arena_version_, arena.version());
  if (memo_.size() < arena.size()) memo_.resize(arena.size(), UINT32_MAX);
  if (memo_[root.idx] != UINT32_MAX) return CanonicalExprId{memo_[root.idx]};

  // Post-order without recursion: a node is interned once all its inputs have ids.
  stack_.clear();
  stack_.emplace_back(root, 0);
  while (!stack_.empty()) {
    auto [node, next] = stack_.back();
    const AExpr& e = arena.get(node);
    if (next < e.inputs.size()) {
      stack_.back().second = next + 1;
      Node child = e.inputs[next];
      if (memo_[child.idx] == UINT32_MAX) stack_.emplace_back(child, 0);
      continue;
    }
    stack_.pop_back();
    if (memo_[node.idx] == UINT32_MAX) memo_[node.idx] = intern(node, e, arena);
  }
  return CanonicalExprId{memo_[root.idx]};
}

}  // namespace frazil::plan
