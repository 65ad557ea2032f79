#include "frazil/dsl/expr_meta.hpp"

#include <functional>

#include "frazil/core/error.hpp"

namespace frazil::dsl {

namespace {

bool same_agg_options(const compute::AggOptions& a, const compute::AggOptions& b) {
  return a.ddof == b.ddof && a.quantile == b.quantile && a.interpolation == b.interpolation &&
         a.ignore_nulls == b.ignore_nulls;
}

// A literal's scalar with NaN equal to NaN (LiteralValue's == already treats them so for
// floats that hash alike; the text is the tie-breaker Polars' total order gives).
bool same_literal(const LiteralValue& a, const LiteralValue& b) {
  if (a == b) return true;
  if (a.is_series() || b.is_series() || a.dynamic != b.dynamic) return false;
  return a.scalar.dtype() == b.scalar.dtype() && a.scalar.to_string() == b.scalar.to_string();
}

}  // namespace

bool same_expr(const Expr& a, const Expr& b) {
  if (!a.valid() || !b.valid()) return a.valid() == b.valid();
  if (&a.node() == &b.node()) return true;
  const ExprNode& x = a.node();
  const ExprNode& y = b.node();
  if (x.kind != y.kind || x.names != y.names || x.inputs.size() != y.inputs.size()) return false;
  switch (x.kind) {
    case ExprKind::Literal:
    case ExprKind::Nth:
      if (!same_literal(x.literal, y.literal)) return false;
      break;
    case ExprKind::BinaryExpr:
      if (x.op != y.op) return false;
      break;
    case ExprKind::Cast:
      if (x.dtype != y.dtype || x.strict != y.strict) return false;
      break;
    case ExprKind::Agg:
      if (x.agg != y.agg || !same_agg_options(x.agg_options, y.agg_options)) return false;
      break;
    case ExprKind::Function:
      if (!(x.function == y.function)) return false;
      break;
    case ExprKind::Sort:
    case ExprKind::SortBy:
      if (!(x.sort == y.sort)) return false;
      break;
    case ExprKind::Window:
      if (!(x.window == y.window)) return false;
      break;
    case ExprKind::Selector:
      if (x.select != y.select) return false;
      break;
    default: break;
  }
  for (size_t i = 0; i < x.inputs.size(); ++i)
    if (!same_expr(x.inputs[i], y.inputs[i])) return false;
  return true;
}

size_t expr_hash(const Expr& e) {
  if (!e.valid()) return 0;
  const ExprNode& n = e.node();
  size_t h = static_cast<size_t>(n.kind) * 0x9E3779B97F4A7C15ull;
  auto mix = [&h](size_t v) { h = (h ^ v) * 0x100000001B3ull; };
  for (const auto& s : n.names) mix(std::hash<std::string>()(s));
  switch (n.kind) {
    case ExprKind::Literal:
    case ExprKind::Nth:
      // By text, so two NaNs (equal under same_expr) hash alike.
      mix(n.literal.is_series() ? n.literal.hash() : std::hash<std::string>()(n.literal.scalar.to_string()));
      break;
    case ExprKind::BinaryExpr: mix(static_cast<size_t>(n.op)); break;
    case ExprKind::Cast: mix(n.dtype.hash()); break;
    case ExprKind::Agg: mix(static_cast<size_t>(n.agg)); break;
    case ExprKind::Function: mix(n.function.hash()); break;
    case ExprKind::Window: mix(n.window.hash()); break;
    default: break;
  }
  for (const auto& in : n.inputs) mix(expr_hash(in));
  return h;
}

Expr with_inputs(const Expr& e, std::vector<Expr> inputs) {
  if (inputs.size() != e.inputs().size())
    throw InvalidOperationError(err_msg("expression ", e.to_string(), " has ", e.inputs().size(), " inputs, not ",
                                        inputs.size()));
  ExprNode copy = e.node();
  copy.inputs = std::move(inputs);
  return Expr::make(std::move(copy));
}

std::optional<std::string> apply_rename(const Expr& e, const std::string& name) {
  if (e.kind() != ExprKind::RenameAlias || !e.node().rename) return std::nullopt;
  return (*e.node().rename)(name);
}

std::string node_label(const Expr& e) {
  const ExprNode& n = e.node();
  switch (n.kind) {
    case ExprKind::Column: return "col(" + n.names[0] + ")";
    case ExprKind::BinaryExpr: return std::string("binary: ") + operator_symbol(n.op);
    case ExprKind::Agg: return compute::agg_name(n.agg);
    case ExprKind::Window: return n.window.kind == WindowKind::Rolling ? "rolling" : "window";
    case ExprKind::Function: return n.function.name();
    case ExprKind::Alias: return "alias(" + n.names[0] + ")";
    case ExprKind::Cast: return (n.strict ? "strict_cast(" : "cast(") + n.dtype.to_string() + ")";
    case ExprKind::Sort: return "sort";
    case ExprKind::SortBy: return "sort_by";
    case ExprKind::Filter: return "filter";
    case ExprKind::Ternary: return "when-then-otherwise";
    default: {
      if (n.inputs.empty()) return e.to_string();
      return e.to_string();
    }
  }
}

}  // namespace frazil::dsl
