#include "frazil/plan/canonical/canonical_ir_map.hpp"

#include <functional>

namespace frazil::plan {

namespace {

// Expressions of a plan node: the same canonical expression under the same output name.
class CanonicalExprHasher final : public ExprIRHasher {
 public:
  CanonicalExprHasher(CanonicalExprMap& map, const ExprArena& arena) : map_(map), arena_(arena) {}
  uint64_t hash(const ExprIR& e) override {
    uint64_t h = hash_combine(map_.resolve(e.node(), arena_).value, std::hash<std::string>()(e.output_name()));
    return hash_combine(h, static_cast<uint64_t>(e.output_name_inner().kind));
  }
  bool equal(const ExprIR& a, const ExprIR& b) override {
    return map_.resolve(a.node(), arena_) == map_.resolve(b.node(), arena_) &&
           a.output_name_inner() == b.output_name_inner();
  }

 private:
  CanonicalExprMap& map_;
  const ExprArena& arena_;
};

}  // namespace

uint32_t CanonicalIRMap::intern(Node node, const IR& ir, const IRArena& lp_arena, const ExprArena& expr_arena) {
  CanonicalExprHasher exprs(expr_map_, expr_arena);
  scratch_.clear();
  bool nondeterministic = false;
  for (const ExprIR* e : ir.all_exprs())
    nondeterministic |= expr_map_.is_nondeterministic(expr_map_.resolve(e->node(), expr_arena));
  uint64_t h = hooks_.shallow_hash ? hooks_.shallow_hash(ir) : hash_excluding_inputs(ir, exprs);
  for (Node in : ir.inputs) {
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
    return ir_equal_shallow(lp_arena.get(c.representative), ir, exprs);
  });
  if (inserted) {
    classes_.push_back(Class{h, node, static_cast<uint32_t>(child_ids_.size()),
                             static_cast<uint32_t>(scratch_.size()), nondeterministic});
    child_ids_.insert(child_ids_.end(), scratch_.begin(), scratch_.end());
  }
  return id;
}

CanonicalIRId CanonicalIRMap::resolve(Node root, const IRArena& lp_arena, const ExprArena& expr_arena) {
  if (arena_ == nullptr) {
    arena_ = &lp_arena;
    arena_version_ = lp_arena.version();
  }
  FRAZIL_CHECK(arena_ == &lp_arena);
  FRAZIL_CHECK_EQ(arena_version_, lp_arena.version());
  if (memo_.size() < lp_arena.size()) memo_.resize(lp_arena.size(), UINT32_MAX);
  if (memo_[root.idx] != UINT32_MAX) return CanonicalIRId{memo_[root.idx]};

  stack_.clear();
  stack_.emplace_back(root, 0);
  while (!stack_.empty()) {
    auto [node, next] = stack_.back();
    const IR& ir = lp_arena.get(node);
    if (next < ir.inputs.size()) {
      stack_.back().second = next + 1;
      Node child = ir.inputs[next];
      if (memo_[child.idx] == UINT32_MAX) stack_.emplace_back(child, 0);
      continue;
    }
    stack_.pop_back();
    if (memo_[node.idx] == UINT32_MAX) memo_[node.idx] = intern(node, ir, lp_arena, expr_arena);
  }
  return CanonicalIRId{memo_[root.idx]};
}

}  // namespace frazil::plan
