#include "frazil/sql/expr_util.hpp"

#include <functional>

#include "frazil/dsl/list_namespace.hpp"

namespace frazil::sql {

using dsl::Expr;
using dsl::ExprKind;

bool exprs_equal(const Expr& a, const Expr& b) {
  if (!a.valid() || !b.valid()) return a.valid() == b.valid();
  if (&a.node() == &b.node()) return true;
  const dsl::ExprNode& x = a.node();
  const dsl::ExprNode& y = b.node();
  if (x.kind != y.kind || x.inputs.size() != y.inputs.size() || x.names != y.names) return false;
  switch (x.kind) {
    case ExprKind::Literal:
    case ExprKind::Nth:
      if (!(x.literal == y.literal) || !(x.literal.scalar.dtype() == y.literal.scalar.dtype())) return false;
      break;
    case ExprKind::BinaryExpr:
      if (x.op != y.op) return false;
      break;
    case ExprKind::Cast:
      if (!(x.dtype == y.dtype) || x.strict != y.strict) return false;
      break;
    case ExprKind::Agg:
      if (x.agg != y.agg || x.agg_options.ddof != y.agg_options.ddof ||
          x.agg_options.quantile != y.agg_options.quantile ||
          x.agg_options.interpolation != y.agg_options.interpolation ||
          x.agg_options.ignore_nulls != y.agg_options.ignore_nulls)
        return false;
      break;
    case ExprKind::Function:
      if (!(x.function == y.function)) return false;
      break;
    case ExprKind::Sort:
    case ExprKind::SortBy:
      if (!(x.sort == y.sort)) return false;
      break;
    default: break;
  }
  for (size_t i = 0; i < x.inputs.size(); ++i)
    if (!exprs_equal(x.inputs[i], y.inputs[i])) return false;
  return true;
}

std::string derived_name(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Column: return e.node().names[0];
    case ExprKind::Alias: return e.node().names[0];
    case ExprKind::Literal: return "literal";
    case ExprKind::Len: return "len";
    case ExprKind::Ternary: return derived_name(e.inputs()[1]);
    case ExprKind::Columns: return e.node().names.empty() ? "" : e.node().names[0];
    case ExprKind::RenameAlias: {
      // struct.field(name) is named after the field.
      const auto& inner = e.inputs()[0];
      if (e.node().names[0].empty() && inner.kind() == ExprKind::Function && inner.node().function.is("struct.field"))
        return inner.node().function.args.get_string("name");
      break;
    }
    default: break;
  }
  if (e.inputs().empty()) return "literal";
  return derived_name(e.inputs()[0]);
}

Expr rewrite_expr(const Expr& e, const std::function<std::optional<Expr>(const Expr&)>& map) {
  if (auto r = map(e)) return *r;
  if (e.inputs().empty()) return e;
  bool changed = false;
  std::vector<Expr> inputs;
  inputs.reserve(e.inputs().size());
  for (const auto& c : e.inputs()) {
    inputs.push_back(rewrite_expr(c, map));
    if (&inputs.back().node() != &c.node()) changed = true;
  }
  if (!changed) return e;
  dsl::ExprNode n = e.node();
  n.inputs = std::move(inputs);
  return Expr::make(std::move(n));
}

bool has_aggregation(const Expr& e) {
  bool found = false;
  visit_expr(e, [&](const Expr& x) {
    if (found || x.kind() == ExprKind::Window) return false;
    if (x.kind() == ExprKind::Agg || x.kind() == ExprKind::Len) {
      found = true;
      return false;
    }
    if (x.kind() == ExprKind::Function && x.node().function.spec && x.node().function.spec->is_reduction()) {
      found = true;
      return false;
    }
    return true;
  });
  return found;
}

void split_conjuncts(const PgNode* node, std::vector<const PgNode*>& out) {
  if (!node) return;
  if (node->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR && node->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
    for (size_t i = 0; i < node->bool_expr->n_args; ++i) split_conjuncts(node->bool_expr->args[i], out);
    return;
  }
  out.push_back(node);
}

std::optional<int64_t> const_int(const PgNode* node) {
  if (!node) return std::nullopt;
  if (node->node_case == PG_QUERY__NODE__NODE_A_CONST) {
    const auto* c = node->a_const;
    if (c->isnull) return std::nullopt;
    if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL) return c->ival->ival;
    if (c->val_case == PG_QUERY__A__CONST__VAL_FVAL) {
      const std::string text = c->fval->fval;
      if (text.find_first_of(".eE") != std::string::npos) return std::nullopt;
      try {
        return std::stoll(text);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }
  if (node->node_case == PG_QUERY__NODE__NODE_A_EXPR && !node->a_expr->lexpr && node->a_expr->n_name == 1 &&
      string_of(node->a_expr->name[0]) == "-") {
    auto v = const_int(node->a_expr->rexpr);
    if (v) return -*v;
  }
  if (node->node_case == PG_QUERY__NODE__NODE_INTEGER) return node->integer->ival;
  return std::nullopt;
}

std::optional<std::string> const_string(const PgNode* node) {
  if (!node) return std::nullopt;
  if (node->node_case == PG_QUERY__NODE__NODE_A_CONST && !node->a_const->isnull &&
      node->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
    return std::string(node->a_const->sval->sval ? node->a_const->sval->sval : "");
  if (node->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) return const_string(node->type_cast->arg);
  return std::nullopt;
}

std::string compute_regex_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::string("\\.^$|()[]{}*+?").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string dtype_display(const DataType& t) { return t.to_string(); }

}  // namespace frazil::sql

namespace frazil::sql {

bool like_matches(const std::string& text, const std::string& pattern, bool ci) {
  auto eq = [ci](char a, char b) {
    return ci ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)) : a == b;
  };
  // Iterative wildcard matching with backtracking to the last %.
  size_t t = 0, p = 0, star_p = std::string::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '\\' && p + 1 < pattern.size() && eq(pattern[p + 1], text[t])) {
      p += 2;
      ++t;
    } else if (p < pattern.size() && (pattern[p] == '_' || (pattern[p] != '%' && pattern[p] != '\\' && eq(pattern[p], text[t])))) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '%') {
      star_p = p++;
      star_t = t;
    } else if (star_p != std::string::npos) {
      p = star_p + 1;
      t = ++star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

dsl::Expr list_get_one_based(const dsl::Expr& list, const dsl::Expr& index, const PgNode* index_node) {
  const std::optional<int64_t> constant = const_int(index_node);
  dsl::Expr i = index;
  if (constant) {
    i = *constant == 0 ? dsl::lit_null() : dsl::lit(*constant > 0 ? *constant - 1 : *constant);
  } else {
    i = dsl::when(index > dsl::lit(int64_t{0}))
            .then(index - dsl::lit(int64_t{1}))
            .otherwise(dsl::when(index == dsl::lit(int64_t{0})).then(dsl::lit_null()).otherwise(index));
  }
  return list.list().get(i, true);
}

}  // namespace frazil::sql
