#include "frazil/plan/conversion/expr_to_ir.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

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

// Finds the first multi-output leaf (depth-first, left to right). A subtree shared by
// several parents is searched once: it had no leaf the first time.
const Expr* find_multi(const Expr& e, std::unordered_set<const ExprNode*>& seen) {
  switch (e.kind()) {
    case ExprKind::Wildcard:
    case ExprKind::Columns:
    case ExprKind::Exclude:
    case ExprKind::Nth: return &e;
    default:
      if (e.inputs().empty() || !seen.insert(&e.node()).second) return nullptr;
      for (const auto& in : e.inputs())
        if (const Expr* m = find_multi(in, seen)) return m;
      return nullptr;
  }
}

const Expr* find_multi(const Expr& e) {
  std::unordered_set<const ExprNode*> seen;
  return find_multi(e, seen);
}

// Copies the paths from `e` to `leaf`, memoized per node so that a shared subtree is
// copied once and stays shared.
Expr replace_leaf(const Expr& e, const Expr* leaf, const std::string& name,
                  std::unordered_map<const ExprNode*, Expr>& memo) {
  if (&e == leaf || &e.node() == &leaf->node()) return dsl::col(name);
  if (e.inputs().empty()) return e;
  if (auto it = memo.find(&e.node()); it != memo.end()) return it->second;
  ExprNode n = e.node();
  bool changed = false;
  // Recurse into e's own inputs: `leaf` points into them, not into the copy `n`.
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const Expr& in = e.inputs()[i];
    Expr r = replace_leaf(in, leaf, name, memo);
    changed |= r.valid() && &r.node() != &in.node();
    n.inputs[i] = r;
  }
  Expr out = changed ? Expr::make(std::move(n)) : e;
  memo.emplace(&e.node(), out);
  return out;
}

struct Converted {
  Node node;
  OutputName name;
};

// DSL -> AExpr memoized by DSL node and context: a subtree the user shared (`c + c`) is
// converted once and shared in the arena too, so nested sharing stays linear. The context
// (filter predicate, aggregation) is part of the key because the simplification rules
// rewrite a node in place according to it: one arena node never serves two contexts.
class Converter {
 public:
  Converter(ExprArena& arena, const Schema& schema) : arena_(arena), schema_(schema) {}

  Converted convert(const Expr& e, ConversionContext ctx) {
    const Key key{&e.node(), ctx.filter_predicate, ctx.in_aggregation};
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    Converted c = convert_new(e, ctx);
    memo_.emplace(key, c);
    return c;
  }

 private:
  struct Key {
    const ExprNode* node;
    bool filter_predicate;
    bool in_aggregation;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.node) * 4 + k.filter_predicate * 2 + k.in_aggregation;
    }
  };

  // The context of a node's inputs, as ConversionOptimizer::visit passes it down.
  static ConversionContext child_context(const ExprNode& n, ConversionContext ctx) {
    const bool and_or = n.kind == ExprKind::BinaryExpr && (n.op == dsl::Operator::And || n.op == dsl::Operator::Or);
    ctx.filter_predicate = ctx.filter_predicate && and_or;
    if (n.kind == ExprKind::Agg || n.kind == ExprKind::Window) ctx.in_aggregation = false;
    return ctx;
  }

  Converted convert_new(const Expr& e, ConversionContext ctx) {
    const ExprNode& n = e.node();
    const ConversionContext child_ctx = child_context(n, ctx);
    AExpr out;
    OutputName name;
    switch (n.kind) {
      case ExprKind::Column:
        schema_.dtype_of(n.names[0]);  // ColumnNotFoundError early, naming the column
        out = AExpr::column(n.names[0]);
        name = OutputName{OutputNameKind::ColumnLhs, n.names[0]};
        break;
      case ExprKind::Literal:
        out = AExpr::literal_value(n.literal);
        name = OutputName{OutputNameKind::LiteralLhs, "literal"};
        break;
      case ExprKind::Alias: {
        Converted c = convert(n.inputs[0], ctx);
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
        children.reserve(n.inputs.size());
        for (const auto& in : n.inputs) children.push_back(convert(in, child_ctx));
        out.inputs.reserve(children.size());
        for (const auto& c : children) out.inputs.push_back(c.node);
        out.op = n.op;
        out.strict = n.strict;
        out.agg = n.agg;
        // The out-of-line attributes only where the kind has them: most nodes have none.
        if (out.kind == AExprKind::Cast) out.dtype_mut() = n.dtype;
        if (out.kind == AExprKind::Agg) out.agg_options_mut() = n.agg_options;
        if (out.kind == AExprKind::Function) {
          out.function_mut() = n.function;
          if (n.function.spec->bind_names) {
            std::vector<std::string> names;
            for (const auto& c : children) names.push_back(c.name.name);
            out.function_mut().args = n.function.spec->bind_names(n.function.args, names);
          }
        }
        if (out.kind == AExprKind::Sort || out.kind == AExprKind::SortBy) out.sort_mut() = n.sort;
        if (out.kind == AExprKind::Window && !(n.window == dsl::WindowOptions{})) out.window_mut() = n.window;
        // Polars names a ternary after its `then` branch, everything else after input 0.
        name = children[n.kind == ExprKind::Ternary ? 1 : 0].name;
        if (name.kind == OutputNameKind::Alias) name.kind = OutputNameKind::ColumnLhs;
        break;
      }
    }
    return Converted{arena_.add(std::move(out)), std::move(name)};
  }

  ExprArena& arena_;
  const Schema& schema_;
  std::unordered_map<Key, Converted, KeyHash> memo_;
};

Expr node_to_expr_memo(Node node, const ExprArena& arena, std::unordered_map<uint32_t, Expr>& memo);

// One node over the conversions of its inputs (looked up in, or added to, `memo`).
Expr node_to_expr_once(Node node, const ExprArena& arena, std::unordered_map<uint32_t, Expr>& memo) {
  const AExpr& a = arena.get(node);
  ExprNode n;
  n.inputs.reserve(a.inputs.size());
  for (Node in : a.inputs) n.inputs.push_back(node_to_expr_memo(in, arena, memo));
  Expr out;
  switch (a.kind) {
    case AExprKind::Column: out = dsl::col(a.name); break;
    case AExprKind::Literal: n.kind = ExprKind::Literal; n.literal = a.literal(); break;
    case AExprKind::BinaryExpr: n.kind = ExprKind::BinaryExpr; n.op = a.op; break;
    case AExprKind::Cast: n.kind = ExprKind::Cast; n.dtype = a.dtype(); n.strict = a.strict; break;
    case AExprKind::Agg: n.kind = ExprKind::Agg; n.agg = a.agg; n.agg_options = a.agg_options(); break;
    case AExprKind::Ternary: n.kind = ExprKind::Ternary; break;
    case AExprKind::Function: n.kind = ExprKind::Function; n.function = a.function(); break;
    case AExprKind::Len: n.kind = ExprKind::Len; break;
    case AExprKind::Sort: n.kind = ExprKind::Sort; n.sort = a.sort(); break;
    case AExprKind::SortBy: n.kind = ExprKind::SortBy; n.sort = a.sort(); break;
    case AExprKind::Filter: n.kind = ExprKind::Filter; break;
    case AExprKind::Window: n.kind = ExprKind::Window; n.window = a.window(); break;
  }
  if (!out.valid()) out = Expr::make(std::move(n));
  return out;
}

Expr node_to_expr_memo(Node node, const ExprArena& arena, std::unordered_map<uint32_t, Expr>& memo) {
  if (auto it = memo.find(node.idx); it != memo.end()) return it->second;
  Expr out = node_to_expr_once(node, arena, memo);
  memo.emplace(node.idx, out);
  return out;
}

}  // namespace

std::vector<Expr> expand_expressions(const std::vector<Expr>& exprs, const Schema& schema) {
  std::vector<Expr> out;
  for (const auto& e : exprs) {
    const Expr* leaf = find_multi(e);
    if (!leaf) {
      out.push_back(e);
      continue;
    }
    auto names = *leaf_columns(*leaf, schema);
    std::vector<Expr> expanded;
    for (const auto& name : names) {
      std::unordered_map<const ExprNode*, Expr> memo;
      expanded.push_back(replace_leaf(e, leaf, name, memo));
    }
    // An alias over a multi-output expression gives every output the same name: the
    // context reports it as Polars does (select: DuplicateError, with_columns: ComputeError).
    for (auto& x : expand_expressions(expanded, schema)) out.push_back(std::move(x));
  }
  return out;
}

ExprIR to_expr_ir(const Expr& expr, ExprArena& arena, const Schema& schema, ConversionContext ctx) {
  Converted c = Converter(arena, schema).convert(expr, ctx);
  return ExprIR(c.node, std::move(c.name));
}

Expr node_to_expr(Node node, const ExprArena& arena) {
  std::unordered_map<uint32_t, Expr> memo;
  return node_to_expr_memo(node, arena, memo);
}

Expr NodeToExpr::operator()(Node node) { return node_to_expr_memo(node, arena_, memo_); }

Expr NodeToExpr::expand(Node node) { return node_to_expr_once(node, arena_, memo_); }

void NodeToExpr::set(Node node, Expr expr) { memo_[node.idx] = std::move(expr); }

}  // namespace frazil::plan
