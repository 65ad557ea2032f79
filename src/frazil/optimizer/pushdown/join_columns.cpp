#include "frazil/optimizer/pushdown/join_columns.hpp"

#include <unordered_set>

namespace frazil::optimizer {

using compute::JoinType;
using plan::AExpr;
using plan::AExprKind;
using plan::Node;

std::vector<JoinColumn> join_columns(const plan::IR& join, const Schema& left, const Schema& right,
                                     const plan::ExprArena& arena) {
  std::vector<JoinColumn> out;
  const auto& spec = join.as<plan::JoinNode>();
  const JoinType how = spec.options.how;
  if (how == JoinType::Semi || how == JoinType::Anti) {
    for (const auto& f : left.fields()) out.push_back({f.name, JoinSide::Left, f.name});
    return out;
  }
  auto peel = [&](Node n) -> const AExpr& {
    while (arena.get(n).kind == AExprKind::Cast) n = arena.get(n).inputs[0];
    return arena.get(n);
  };
  std::unordered_set<std::string> drop_left, drop_right, both;
  if (spec.options.coalesce && how != JoinType::Cross) {
    for (size_t i = 0; i < spec.right_on.size(); ++i) {
      const AExpr& l = peel(spec.left_on[i].node());
      const AExpr& r = peel(spec.right_on[i].node());
      if (how == JoinType::Right) {
        if (l.kind == AExprKind::Column) drop_left.insert(l.name);
      } else if (r.kind == AExprKind::Column) {
        drop_right.insert(r.name);
        // A full join fills the left key from the right one where the left row is missing.
        if (how == JoinType::Full && l.kind == AExprKind::Column) both.insert(l.name);
      }
    }
  }
  std::unordered_set<std::string> names;
  for (const auto& f : left.fields()) {
    if (drop_left.count(f.name)) continue;
    out.push_back({f.name, both.count(f.name) ? JoinSide::Both : JoinSide::Left, f.name});
    names.insert(f.name);
  }
  for (const auto& f : right.fields()) {
    if (drop_right.count(f.name)) continue;
    std::string name = f.name;
    if (names.count(name)) name += spec.options.suffix;
    out.push_back({name, JoinSide::Right, f.name});
    names.insert(name);
  }
  return out;
}

}  // namespace frazil::optimizer
