#include "frazil/plan/expr/rewrite.hpp"

#include <unordered_set>

namespace frazil::plan {

using dsl::Operator;

namespace {

void split(Node root, Operator op, const ExprArena& arena, const Schema& schema, std::vector<Node>& out) {
  DtypeMemo dtypes;
  NodeSet seen(root);
  std::vector<Node> stack{root};  // operands left to right: the right one is pushed first
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    const AExpr& e = arena.get(n);
    // `&` and `|` are bitwise on integers: only Boolean operands split.
    if (e.kind == AExprKind::BinaryExpr && e.op == op && node_dtype(e.inputs[0], arena, schema, dtypes).is_boolean() &&
        node_dtype(e.inputs[1], arena, schema, dtypes).is_boolean()) {
      for (int i = 1; i >= 0; --i)
        if (seen.insert(e.inputs[i])) stack.push_back(e.inputs[i]);
      continue;
    }
    out.push_back(n);
  }
}

}  // namespace

void split_conjuncts(Node node, const ExprArena& arena, const Schema& schema, std::vector<Node>& out) {
  split(node, Operator::And, arena, schema, out);
}

void split_disjuncts(Node node, const ExprArena& arena, const Schema& schema, std::vector<Node>& out) {
  split(node, Operator::Or, arena, schema, out);
}

std::optional<Node> combine_conjuncts(const std::vector<Node>& nodes, ExprArena& arena) {
  if (nodes.empty()) return std::nullopt;
  Node out = nodes[0];
  for (size_t i = 1; i < nodes.size(); ++i) out = arena.add(AExpr::binary(out, Operator::And, nodes[i]));
  return out;
}

ExprIR predicate_ir(Node node, const ExprArena& arena) {
  if (auto name = leftmost_column(node, arena)) return ExprIR(node, OutputName{OutputNameKind::ColumnLhs, *name});
  return ExprIR(node, OutputName{OutputNameKind::LiteralLhs, "literal"});
}

Node rename_columns(Node node, ExprArena& arena, const std::unordered_map<std::string, std::string>& map) {
  if (map.empty()) return node;
  return rebuild_bottom_up(node, arena, [&](Node n, const AExpr& e) -> std::optional<Node> {
    if (e.kind != AExprKind::Column) return std::nullopt;
    auto it = map.find(e.name);
    if (it == map.end() || it->second == e.name) return n;
    return arena.add(AExpr::column(it->second));
  });
}

Node deep_copy(Node node, ExprArena& arena) {
  return rebuild_bottom_up(
      node, arena, [](Node, const AExpr&) -> std::optional<Node> { return std::nullopt; }, /*copy_all=*/true);
}

bool expr_equal(Node a, Node b, const ExprArena& arena) {
  std::vector<std::pair<Node, Node>> stack{{a, b}};
  std::unordered_set<uint64_t> seen;
  while (!stack.empty()) {
    auto [x, y] = stack.back();
    stack.pop_back();
    if (x == y) continue;
    const AExpr& ex = arena.get(x);
    const AExpr& ey = arena.get(y);
    if (!ex.equal_shallow(ey)) return false;
    if (!seen.insert(uint64_t{x.idx} << 32 | y.idx).second) continue;
    for (size_t i = 0; i < ex.inputs.size(); ++i) stack.emplace_back(ex.inputs[i], ey.inputs[i]);
  }
  return true;
}

}  // namespace frazil::plan
