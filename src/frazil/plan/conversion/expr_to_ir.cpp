#include "frazil/plan/conversion/expr_to_ir.hpp"

#include <algorithm>

#include "frazil/core/error.hpp"

namespace frazil::plan {

using dsl::Expr;
using dsl::ExprKind;
using dsl::ExprNode;

namespace {

// The columns a multi-output leaf stands for; nullopt for an ordinary node.
std::optional<std::vector<std::string>> leaf_columns(const Expr& e, const Schema& schema) {
  switch (e.kind()) {
    case ExprKind::Wildcard: return schema.names();
    case ExprKind::Columns:
      for (const auto& n : e.node().names) schema.dtype_of(n);
      return e.node().names;
    case ExprKind::Exclude: {
      auto inner = leaf_columns(e.inputs()[0], schema);
      if (!inner) throw InvalidOperationError("exclude() must follow a multi-column selection like col(\"*\")");
      std::vector<std::string> out;
      for (const auto& n : *inner)
        if (std::find(e.node().names.begin(), e.node().names.end(), n) == e.node().names.end()) out.push_back(n);
      return out;
    }
    case ExprKind::Nth: {
      int64_t i = e.node().literal.scalar.as_int64();
      int64_t w = static_cast<int64_t>(schema.size());
      if (i < 0) i += w;
      if (i < 0 || i >= w) throw ColumnNotFoundError(err_msg("nth(", e.node().literal.scalar.as_int64(), ") is out of bounds for a schema of ", w, " columns"));
      return std::vector<std::string>{schema.field(i).name};
    }
    default: return std::nullopt;
  }
}

// Finds the first multi-output leaf (depth-first, left to right).
const Expr* find_multi(const Expr& e, const Schema& schema) {
  switch (e.kind()) {
    case ExprKind::Wildcard:
    case ExprKind::Columns:
    case ExprKind::Exclude:
    case ExprKind::Nth: return &e;
    default:
      for (const auto& in : e.inputs())
        if (const Expr* m = find_multi(in, schema)) return m;
      return nullptr;
  }
}

Expr replace_leaf(const Expr& e, const Expr* leaf, const std::string& name) {
  if (&e == leaf) return dsl::col(name);
  if (e.inputs().empty()) return e;
  ExprNode n = e.node();
  bool changed = false;
  // Recurse into e's own inputs: `leaf` points into them, not into the copy `n`.
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const Expr& in = e.inputs()[i];
    Expr r = replace_leaf(in, leaf, name);
    changed |= r.valid() && &r.node() != &in.node();
    n.inputs[i] = r;
  }
  return changed ? Expr::make(std::move(n)) : e;
}

struct Converted {
  Node node;
  OutputName name;
};

Converted convert(const Expr& e, ExprArena& arena, const Schema& schema) {
  const ExprNode& n = e.node();
  auto recurse = [&](size_t i) { return convert(n.inputs[i], arena, schema); };
  AExpr out;
  OutputName name;
  switch (n.kind) {
    case ExprKind::Column:
      schema.dtype_of(n.names[0]);  // ColumnNotFoundError early, naming the column
      out = AExpr::column(n.names[0]);
      name = OutputName{OutputNameKind::ColumnLhs, n.names[0]};
      break;
    case ExprKind::Literal:
      out = AExpr::literal_value(n.literal);
      name = OutputName{OutputNameKind::LiteralLhs, "literal"};
      break;
    case ExprKind::Alias: {
      Converted c = recurse(0);
      return Converted{c.node, OutputName{OutputNameKind::Alias, n.names[0]}};
    }
    case ExprKind::Len:
      out.kind = AExprKind::Len;
      name = OutputName{OutputNameKind::Field, "len"};
      break;
    case ExprKind::Wildcard:
    case ExprKind::Columns:
    case ExprKind::Exclude:
    case ExprKind::Nth:
      throw InternalError("multi-output expression reached conversion unexpanded");
    default: {
      out.kind = [&] {
        switch (n.kind) {
          case ExprKind::BinaryExpr: return AExprKind::BinaryExpr;
          case ExprKind::Cast: return AExprKind::Cast;
          case ExprKind::Agg: return AExprKind::Agg;
          case ExprKind::Ternary: return AExprKind::Ternary;
          case ExprKind::Function: return AExprKind::Function;
          case ExprKind::Sort: return AExprKind::Sort;
          case ExprKind::SortBy: return AExprKind::SortBy;
          case ExprKind::Filter: return AExprKind::Filter;
          case ExprKind::Window: return AExprKind::Window;
          default: return AExprKind::Len;
        }
      }();
      std::vector<Converted> children;
      for (size_t i = 0; i < n.inputs.size(); ++i) children.push_back(recurse(i));
      for (const auto& c : children) out.inputs.push_back(c.node);
      out.op = n.op;
      out.dtype = n.dtype;
      out.strict = n.strict;
      out.agg = n.agg;
      out.agg_options = n.agg_options;
      out.function = n.function;
      out.sort = n.sort;
      // Polars names a ternary after its `then` branch, everything else after input 0.
      name = children[n.kind == ExprKind::Ternary ? 1 : 0].name;
      if (name.kind == OutputNameKind::Alias) name.kind = OutputNameKind::ColumnLhs;
      break;
    }
  }
  return Converted{arena.add(std::move(out)), std::move(name)};
}

}  // namespace

std::vector<Expr> expand_expressions(const std::vector<Expr>& exprs, const Schema& schema) {
  std::vector<Expr> out;
  for (const auto& e : exprs) {
    const Expr* leaf = find_multi(e, schema);
    if (!leaf) {
      out.push_back(e);
      continue;
    }
    auto names = *leaf_columns(*leaf, schema);
    std::vector<Expr> expanded;
    for (const auto& name : names) expanded.push_back(replace_leaf(e, leaf, name));
    // An alias over a multi-output expression would give every output the same name.
    if (e.kind() == ExprKind::Alias && names.size() > 1)
      throw DuplicateError(err_msg("the name '", e.node().names[0], "' is duplicate: ", e.to_string(),
                                   " expands to ", names.size(), " columns"));
    for (auto& x : expand_expressions(expanded, schema)) out.push_back(std::move(x));
  }
  return out;
}

ExprIR to_expr_ir(const Expr& expr, ExprArena& arena, const Schema& schema) {
  Converted c = convert(expr, arena, schema);
  return ExprIR(c.node, std::move(c.name));
}

Expr node_to_expr(Node node, const ExprArena& arena) {
  const AExpr& a = arena.get(node);
  ExprNode n;
  for (Node in : a.inputs) n.inputs.push_back(node_to_expr(in, arena));
  switch (a.kind) {
    case AExprKind::Column: return dsl::col(a.name);
    case AExprKind::Literal: n.kind = ExprKind::Literal; n.literal = a.literal; break;
    case AExprKind::BinaryExpr: n.kind = ExprKind::BinaryExpr; n.op = a.op; break;
    case AExprKind::Cast: n.kind = ExprKind::Cast; n.dtype = a.dtype; n.strict = a.strict; break;
    case AExprKind::Agg: n.kind = ExprKind::Agg; n.agg = a.agg; n.agg_options = a.agg_options; break;
    case AExprKind::Ternary: n.kind = ExprKind::Ternary; break;
    case AExprKind::Function: n.kind = ExprKind::Function; n.function = a.function; break;
    case AExprKind::Len: n.kind = ExprKind::Len; break;
    case AExprKind::Sort: n.kind = ExprKind::Sort; n.sort = a.sort; break;
    case AExprKind::SortBy: n.kind = ExprKind::SortBy; n.sort = a.sort; break;
    case AExprKind::Filter: n.kind = ExprKind::Filter; break;
    case AExprKind::Window: n.kind = ExprKind::Window; break;
  }
  return Expr::make(std::move(n));
}

}  // namespace frazil::plan
