// Expressions: PostgreSQL's expression nodes -> dsl::Expr over a scope's columns.
#include <chrono>
#include <cmath>

#include "frazil/compute/cast.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/dsl/list_namespace.hpp"
#include "frazil/dsl/struct_namespace.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/literals.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using dsl::lit;
using dsl::lit_null;

namespace {

std::string op_name(const PgQuery__AExpr* e) {
  // Qualified operators (OPERATOR(pg_catalog.+)) keep their last part.
  return e->n_name ? string_of(e->name[e->n_name - 1]) : "";
}

bool is_string_const(const PgNode* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_A_CONST && !n->a_const->isnull &&
         n->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL;
}

// A regular expression matching exactly what a LIKE pattern matches.
std::string like_to_regex(const std::string& pattern, char escape, bool& anchored_start, bool& anchored_end) {
  std::string body;
  size_t begin = 0, end = pattern.size();
  // Leading and trailing % need no anchors: "%abc%" is "abc" anywhere.
  anchored_start = true;
  anchored_end = true;
  while (begin < end && pattern[begin] == '%') {
    anchored_start = false;
    ++begin;
  }
  while (end > begin && pattern[end - 1] == '%' && !(end >= 2 && pattern[end - 2] == escape)) {
    anchored_end = false;
    --end;
  }
  for (size_t i = begin; i < end; ++i) {
    char c = pattern[i];
    if (c == escape && i + 1 < end) {
      c = pattern[++i];
      body += compute_regex_escape(std::string(1, c));
      continue;
    }
    if (c == '%') body += ".*";
    else if (c == '_') body += ".";
    else body += compute_regex_escape(std::string(1, c));
  }
  return body;
}

}  // namespace

// The pattern of LIKE / ILIKE as the cheapest string function that matches it.
Expr like_expr(const Expr& value, const std::string& pattern, bool case_insensitive, char escape) {
  bool has_wildcard = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == escape) {
      ++i;
      continue;
    }
    if (pattern[i] == '%' || pattern[i] == '_') has_wildcard = true;
  }
  if (!case_insensitive) {
    // Literal prefixes, suffixes and infixes: no regex.
    auto literal = [&](size_t from, size_t to, std::string& out) {
      for (size_t i = from; i < to; ++i) {
        if (pattern[i] == escape && i + 1 < to) {
          out += pattern[++i];
          continue;
        }
        if (pattern[i] == '%' || pattern[i] == '_') return false;
        out += pattern[i];
      }
      return true;
    };
    std::string text;
    const size_t n = pattern.size();
    if (!has_wildcard && literal(0, n, text)) return value == lit(text);
    if (n >= 1 && pattern[n - 1] == '%' && (n < 2 || pattern[n - 2] != escape) && literal(0, n - 1, text) &&
        !text.empty())
      return str_starts_with(value, text);
    text.clear();
    if (n >= 1 && pattern[0] == '%' && literal(1, n, text) && !text.empty())
      return str_ends_with(value, text);
    text.clear();
    if (n >= 2 && pattern[0] == '%' && pattern[n - 1] == '%' && pattern[n - 2] != escape && literal(1, n - 1, text) &&
        !text.empty())
      return str_contains(value, text, true);
  }
  bool anchored_start, anchored_end;
  std::string body = like_to_regex(pattern, escape, anchored_start, anchored_end);
  std::string regex = std::string("(?s") + (case_insensitive ? "i" : "") + ")" + (anchored_start ? "^" : "") + body +
                      (anchored_end ? "$" : "");
  if (body.empty() && !anchored_start && !anchored_end) {
    // '%' alone: every non-null string.
    return str_contains(value, "", true);
  }
  return str_contains(value, regex, false);
}

namespace {

// The greater (or lesser) of two values, nulls ignored (GREATEST/LEAST).
Expr pick(const Expr& a, const Expr& b, bool greatest) {
  Expr a_wins = greatest ? (a >= b) : (a <= b);
  return dsl::when(a.is_null()).then(b).when(b.is_null()).then(a).when(a_wins).then(a).otherwise(b);
}

}  // namespace

Expr Translator::expr(const PgNode* node, Scope& scope) {
  if (!node) throw InternalError("empty SQL expression node");
  check_stack("SQL translation");  // recursive over the expression's depth (core/stack.hpp)
  // After GROUP BY, aggregates and group keys are columns of the aggregated frame.
  if (scope.grouped) {
    for (const auto& [n, e] : scope.grouped->aggregates)
      if (nodes_equal(n, node)) return e;
    for (const auto& [n, name] : scope.grouped->keys)
      if (nodes_equal(n, node)) return dsl::col(name);
  }
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: return column_ref(node->column_ref, scope);
    case PG_QUERY__NODE__NODE_A_CONST: return constant(node->a_const);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return type_cast(node->type_cast, scope);
    case PG_QUERY__NODE__NODE_A_EXPR: return a_expr(node->a_expr, scope);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: {
      const auto* b = node->bool_expr;
      if (b->boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR) {
        Expr v = expr(b->args[0], scope);
        // NOT of a number is whether it is zero (Polars' SQL), not a bitwise inversion.
        const DataType t = dtype_of(v, scope);
        if (t.is_numeric()) return v == lit(0);
        if (t.is_string())
          fail(ErrorKind::InvalidOperation, b->location, "NOT needs a Boolean: casting from String to Boolean not supported");
        return v.not_();
      }
      Expr out = expr(b->args[0], scope);
      for (size_t i = 1; i < b->n_args; ++i) {
        Expr next = expr(b->args[i], scope);
        out = b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR ? (out & next) : (out | next);
      }
      return out;
    }
    case PG_QUERY__NODE__NODE_NULL_TEST: {
      Expr v = expr(node->null_test->arg, scope);
      return node->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL ? v.is_null() : v.is_not_null();
    }
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: {
      Expr v = expr(node->boolean_test->arg, scope);
      switch (node->boolean_test->booltesttype) {
        case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE: return v.fill_null(lit(false));
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE: return v.fill_null(lit(false)).not_();
        case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE: return v.not_().fill_null(lit(false));
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE: return v.fill_null(lit(true));
        case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN: return v.is_null();
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_UNKNOWN: return v.is_not_null();
        default: break;
      }
      unsupported(node, "this boolean test");
    }
    case PG_QUERY__NODE__NODE_CASE_EXPR: {
      const auto* c = node->case_expr;
      std::optional<Expr> subject;
      if (c->arg) subject = expr(c->arg, scope);
      if (c->n_args == 0) unsupported(node, "CASE without WHEN");
      std::vector<std::pair<Expr, Expr>> branches;  // translated in the text's order
      for (size_t i = 0; i < c->n_args; ++i) {
        const auto* w = c->args[i]->case_when;
        Expr cond = subject ? (*subject == expr(w->expr, scope)) : expr(w->expr, scope);
        branches.emplace_back(std::move(cond), expr(w->result, scope));
      }
      // Nested from the last branch out, as dsl::Then::otherwise builds it; a dsl::Then chain
      // would copy its branches at every WHEN (10,000 WHENs took 6.5 s).
      Expr out = c->defresult ? expr(c->defresult, scope) : lit_null();
      for (auto it = branches.rbegin(); it != branches.rend(); ++it) out = dsl::when(it->first).then(it->second).otherwise(out);
      return out;
    }
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: {
      std::vector<Expr> args;
      for (size_t i = 0; i < node->coalesce_expr->n_args; ++i) args.push_back(expr(node->coalesce_expr->args[i], scope));
      return dsl::coalesce(std::move(args));
    }
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: {
      const auto* m = node->min_max_expr;
      const bool greatest = m->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST;
      Expr out = expr(m->args[0], scope);
      for (size_t i = 1; i < m->n_args; ++i) out = pick(out, expr(m->args[i], scope), greatest);
      return out;
    }
    case PG_QUERY__NODE__NODE_FUNC_CALL: return function_call(node->func_call, scope);
    case PG_QUERY__NODE__NODE_SUB_LINK: return sublink(node->sub_link, scope);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: return sql_value_function(node->sqlvalue_function);
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: {
      std::vector<Scalar> values;
      for (size_t i = 0; i < node->a_array_expr->n_elements; ++i) {
        auto s = constant_scalar(node->a_array_expr->elements[i]);
        if (!s) unsupported(node->a_array_expr->elements[i], "a non-constant array element");
        values.push_back(*s);
      }
      ArrayRef values_array = scalars_to_array(values, node_location(node));
      return lit(Scalar(DataType::list(values_array->dtype()), values_array));
    }
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: unsupported(node, "COLLATE");
    case PG_QUERY__NODE__NODE_PARAM_REF: unsupported(node, "query parameters ($1)");
    case PG_QUERY__NODE__NODE_ROW_EXPR: unsupported(node, "row values (a, b)");
    case PG_QUERY__NODE__NODE_A_INDIRECTION: return indirection(node->a_indirection, scope);
    case PG_QUERY__NODE__NODE_GROUPING_FUNC: unsupported(node, "GROUPING()");
    default: break;
  }
  unsupported(node, node_kind_name(node));
}

Translator::ColumnPath Translator::column_path(const std::vector<std::string>& parts, const Scope& scope) const {
  // As Polars resolves a compound name: a table first (t.col.field...), then a struct
  // column (col.field...), then schema.t.col (the schema is ignored).
  auto is_table = [&](const std::string& q) {
    for (const Scope* s = &scope; s; s = s->outer)
      if (s->rel && s->rel->has_qualifier(q)) return true;
    return false;
  };
  auto is_struct_column = [&](const std::string& n) {
    if (!scope.rel) return false;
    auto found = scope.rel->find("", n);
    return found.size() == 1 && found[0]->dtype.id() == TypeId::Struct;
  };
  size_t at = 1;  // the column's position in parts
  if (parts.size() == 1) at = 0;
  else if (is_table(parts[0])) at = 1;
  else if (is_struct_column(parts[0])) at = 0;
  else if (parts.size() == 3 && is_table(parts[1])) at = 2;
  ColumnPath path;
  path.qualifier = at > 0 ? parts[at - 1] : "";
  path.name = parts[at];
  path.fields.assign(parts.begin() + static_cast<std::ptrdiff_t>(at) + 1, parts.end());
  return path;
}

Expr Translator::column_ref(const PgQuery__ColumnRef* c, Scope& scope) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < c->n_fields; ++i) {
    if (c->fields[i]->node_case == PG_QUERY__NODE__NODE_A_STAR)
      fail(ErrorKind::SQLInterface, c->location, "`*` is only allowed in a SELECT list or COUNT(*)");
    parts.push_back(string_of(c->fields[i]));
  }
  if (parts.empty()) fail(ErrorKind::SQLInterface, c->location, "invalid column reference");
  const ColumnPath path = column_path(parts, scope);
  Expr e = named_column(c->location, path.qualifier, path.name, scope);
  // A struct's fields, level by level (json_msg.other.n).
  for (const std::string& f : path.fields) e = e.struct_().field(f);
  return e;
}

Expr Translator::named_column(int32_t location, const std::string& qualifier, const std::string& name, Scope& scope) {
  auto where = [&]() { return std::string(" in ") + scope.clause; };
  if (scope.free_columns) return dsl::col(name);
  if (scope.rel) {
    auto found = scope.rel->find(qualifier, name);
    if (found.size() > 1) {
      std::string tables;
      for (const auto* b : found)
        tables += (tables.empty() ? "" : ", ") + (b->qualifiers.empty() ? std::string("?") : b->qualifiers[0]) + "." + name;
      fail(ErrorKind::SQLInterface, location, "ambiguous reference to column \"" + name + "\" (use one of: " + tables + ")");
    }
    if (found.size() == 1) return dsl::col(found[0]->internal);
  }
  // SELECT-list aliases (ORDER BY, HAVING, QUALIFY, GROUP BY refer to them).
  if (qualifier.empty() && scope.select_items) {
    for (const auto& item : *scope.select_items)
      if (item.name == name && item.node) return item.expr;
    for (const auto& item : *scope.select_items)
      if (iequals(item.name, name) && item.node) return item.expr;
  }
  // A column of an enclosing query: a correlated reference.
  for (const Scope* s = scope.outer; s; s = s->outer) {
    if (!s->rel) continue;
    auto found = s->rel->find(qualifier, name);
    if (found.size() != 1) continue;
    if (!scope.correlation)
      fail(ErrorKind::SQLInterface, location,
           "the outer column '" + (qualifier.empty() ? name : qualifier + "." + name) +
               "' is used where a correlated reference is not supported (only in the subquery's WHERE conditions)");
    for (const auto& r : scope.correlation->refs)
      if (r.scope == s && r.internal == found[0]->internal) return dsl::col(r.placeholder);
    Correlation::Ref ref{s, found[0]->internal, temp_name("outer_" + found[0]->name)};
    scope.correlation->refs.push_back(ref);
    return dsl::col(ref.placeholder);
  }
  // Not found: name the candidates.
  if (!qualifier.empty() && scope.rel && !scope.rel->has_qualifier(qualifier)) {
    bool outer_has = false;
    for (const Scope* s = scope.outer; s; s = s->outer)
      if (s->rel && s->rel->has_qualifier(qualifier)) outer_has = true;
    if (!outer_has) {
      std::vector<std::string> quals;
      for (const auto& b : scope.rel->columns)
        for (const auto& q : b.qualifiers) quals.push_back(q);
      fail(ErrorKind::SQLInterface, location,
           "no table or struct column named '" + qualifier + "' found" + did_you_mean(qualifier, quals));
    }
  }
  std::vector<std::string> candidates = scope.rel ? scope.rel->names() : std::vector<std::string>{};
  if (scope.select_items)
    for (const auto& item : *scope.select_items) candidates.push_back(item.name);
  if (scope.grouped && scope.rel) {
    // The column exists before GROUP BY but is neither grouped nor aggregated.
    fail(ErrorKind::SQLInterface, location,
         "'" + name + "' should participate in the GROUP BY clause or an aggregate function");
  }
  fail(ErrorKind::ColumnNotFound, location,
       "column '" + (qualifier.empty() ? name : qualifier + "." + name) + "' not found" + where() +
           did_you_mean(name, candidates));
}

Expr Translator::constant(const PgQuery__AConst* c) {
  if (c->isnull) return lit_null();
  switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL: return dsl::lit_dynamic_int(c->ival->ival);
    case PG_QUERY__A__CONST__VAL_FVAL: {
      // Integers beyond 32 bits arrive as "float" text.
      const std::string text = c->fval->fval;
      if (text.find_first_of(".eE") == std::string::npos) {
        try {
          return dsl::lit_dynamic_int(std::stoll(text));
        } catch (const std::out_of_range&) {
          try {
            return lit(Scalar::uint64(std::stoull(text)));
          } catch (const std::out_of_range&) {
            fail(ErrorKind::SQLInterface, c->location, "integer literal " + text + " is out of range");
          }
        }
      }
      const auto value = parse_double(text);
      if (!value) fail(ErrorKind::SQLInterface, c->location, "numeric literal " + text + " is out of range");
      return dsl::lit_dynamic_float(*value);
    }
    case PG_QUERY__A__CONST__VAL_BOOLVAL: return lit(static_cast<bool>(c->boolval->boolval));
    case PG_QUERY__A__CONST__VAL_SVAL: return lit(std::string(c->sval->sval ? c->sval->sval : ""));
    case PG_QUERY__A__CONST__VAL_BSVAL: fail(ErrorKind::SQLInterface, c->location, "bit-string literals are not supported");
    default: break;
  }
  return lit_null();
}

DataType Translator::type_name(const PgQuery__TypeName* t) {
  std::string name;
  for (size_t i = 0; i < t->n_names; ++i) {
    std::string part = string_of(t->names[i]);
    if (part == "pg_catalog" && i + 1 < t->n_names) continue;
    name = part;
  }
  std::vector<int64_t> mods;
  for (size_t i = 0; i < t->n_typmods; ++i) {
    auto v = const_int(t->typmods[i]);
    if (v) mods.push_back(*v);
  }
  if (t->n_array_bounds > 0) {
    PgQuery__TypeName inner = *t;
    inner.n_array_bounds = 0;
    return DataType::list(type_name(&inner));
  }
  if (name == "interval") return DataType::duration(TimeUnit::Microseconds);
  auto dt = sql_type(name, mods);
  if (!dt) fail(ErrorKind::SQLInterface, t->location, "unknown data type '" + name + "'" + did_you_mean(name, sql_type_names()));
  return *dt;
}

Expr Translator::type_cast(const PgQuery__TypeCast* c, Scope& scope) {
  const bool try_cast = dialect_.try_casts.count(dialect_.source.to_original(c->location)) > 0;
  std::string type;
  for (size_t i = 0; i < c->type_name->n_names; ++i) type = string_of(c->type_name->names[i]);
  // Typed literals: DATE '...', TIMESTAMP '...', INTERVAL '...' are values now.
  if (is_string_const(c->arg)) {
    const std::string text = c->arg->a_const->sval->sval ? c->arg->a_const->sval->sval : "";
    if (iequals(type, "interval")) {
      int mask = 0;
      if (c->type_name->n_typmods > 0) mask = static_cast<int>(const_int(c->type_name->typmods[0]).value_or(0));
      auto iv = parse_interval(text, mask);
      if (!iv) fail(ErrorKind::SQLInterface, c->location, "invalid interval '" + text + "'");
      return interval_literal(*iv, c->location);
    }
    DataType dt = type_name(c->type_name);
    if (dt.id() == TypeId::Date || dt.id() == TypeId::Datetime || dt.id() == TypeId::Time ||
        dt.id() == TypeId::Duration) {
      auto s = parse_typed_literal(text, dt);
      if (s) return lit(*s);
      if (try_cast) return lit(Scalar::null(dt));
      std::string upper = type;
      for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      fail(ErrorKind::SQLSyntax, c->arg->a_const->location, "invalid " + upper + " literal '" + text + "'");
    }
    return lit(std::string(text)).cast(dt, !try_cast);
  }
  DataType dt = type_name(c->type_name);
  Expr value = expr(c->arg, scope);
  // A dynamic literal cast to a type is a literal of that type.
  return value.cast(dt, !try_cast);
}

Expr Translator::interval_literal(const Interval& iv, int32_t location) {
  if (iv.months != 0) {
    fail(ErrorKind::SQLInterface, location,
         "intervals of months or years can only be added to or subtracted from a date or timestamp literal");
  }
  return lit(Scalar(DataType::duration(TimeUnit::Microseconds), iv.micros));
}

Expr Translator::sql_value_function(const PgQuery__SQLValueFunction* f) {
  const auto now = std::chrono::system_clock::now();
  const int64_t micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  switch (f->op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
      return lit(Scalar(DataType::date(), static_cast<int64_t>(micros >= 0 ? micros / 86'400'000'000LL
                                                                                : (micros + 1) / 86'400'000'000LL - 1)));
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
      return lit(Scalar(DataType::datetime(TimeUnit::Microseconds), static_cast<int64_t>(micros)));
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N:
      return lit(Scalar(DataType::time(), static_cast<int64_t>((micros % 86'400'000'000LL) * 1000)));
    default: break;
  }
  fail(ErrorKind::SQLInterface, f->location, "this SQL value function is not supported");
}

// Arithmetic and comparisons that involve a typed literal: string literals compared
// with temporal columns are read as that type, date literals move by intervals.
Expr Translator::binary(const std::string& op, const PgNode* lnode, const PgNode* rnode, Scope& scope,
                        int32_t location) {
  if (is_path_operator(op)) return path_operator(op, lnode, rnode, scope);
  // date '...' +/- interval '...' (months included) folds to a literal.
  if ((op == "+" || op == "-") && rnode && rnode->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) {
    auto lhs = constant_scalar(lnode);
    auto iv = interval_of(rnode);
    if (lhs && iv && (lhs->dtype().id() == TypeId::Date || lhs->dtype().id() == TypeId::Datetime))
      return lit(add_interval(*lhs, *iv, op == "+" ? 1 : -1));
  }
  if (op == "+" && lnode && lnode->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) {
    auto rhs = constant_scalar(rnode);
    auto iv = interval_of(lnode);
    if (rhs && iv && (rhs->dtype().id() == TypeId::Date || rhs->dtype().id() == TypeId::Datetime))
      return lit(add_interval(*rhs, *iv, 1));
  }
  // Two interval literals compared: a constant (months count 30 days, as in PostgreSQL).
  if (auto li = interval_of(lnode)) {
    if (auto ri = interval_of(rnode)) {
      auto norm = [](const Interval& v) { return v.months * 30 * 86'400'000'000LL + v.micros; };
      const int64_t a = norm(*li), b = norm(*ri);
      if (op == "=" || op == "==" || op == "<=>") return lit(a == b);
      if (op == "<>" || op == "!=") return lit(a != b);
      if (op == "<") return lit(a < b);
      if (op == "<=") return lit(a <= b);
      if (op == ">") return lit(a > b);
      if (op == ">=") return lit(a >= b);
    }
  }
  Expr l = expr(lnode, scope);
  Expr r = expr(rnode, scope);
  const bool comparison = op == "=" || op == "==" || op == "<>" || op == "!=" || op == "<" || op == "<=" ||
                          op == ">" || op == ">=" || op == "<=>";
  if (comparison || op == "+" || op == "-") {
    // A string literal against a temporal value is a literal of that type.
    auto adapt = [&](const PgNode* lit_node, Expr& lit_expr, const Expr& other) {
      if (!is_string_const(lit_node)) return;
      DataType t = dtype_of(other, scope);
      if (t.id() != TypeId::Date && t.id() != TypeId::Datetime && t.id() != TypeId::Time) return;
      const std::string text = lit_node->a_const->sval->sval ? lit_node->a_const->sval->sval : "";
      lit_expr = implicit_temporal(text, t, node_location(lit_node));
    };
    if (comparison) {
      adapt(rnode, r, l);
      adapt(lnode, l, r);
    }
  }
  if (op == "+") return l + r;
  if (op == "-") return l - r;
  if (op == "*") return l * r;
  if (op == "/") return l / r;
  if (op == "%") {
    // SQL's remainder takes the dividend's sign (-7 % 3 = -1); the DSL's % is floored.
    Expr m = l % r;
    return dsl::when((m != lit(0)) & ((m < lit(0)) != (l < lit(0)))).then(m - r).otherwise(m);
  }
  if (op == "//") return dsl::floor_div(l, r).cast(DataType::int64());
  if (op == "^") return l.pow(r);
  if (op == "=" || op == "==") return l == r;
  if (op == "<>" || op == "!=") return l != r;
  if (op == "<") return l < r;
  if (op == "<=") return l <= r;
  if (op == ">") return l > r;
  if (op == ">=") return l >= r;
  if (op == "<=>") return l.eq_missing(r);
  if (op == "&") return l & r;
  if (op == "|") return l | r;
  if (op == "#") return l ^ r;
  if (op == "||") return string_concat({l, r}, location);
  if (op == "~" || op == "~*" || op == "!~" || op == "!~*") {
    auto pattern = const_string(rnode);
    if (!pattern) fail(ErrorKind::SQLInterface, node_location(rnode), "a regular expression must be a string literal");
    std::string regex = op.find('*') != std::string::npos ? "(?i)" + *pattern : *pattern;
    Expr m = str_contains(l, regex, false);
    return op[0] == '!' ? m.not_() : m;
  }
  if (op == "~~" || op == "!~~" || op == "~~*" || op == "!~~*") {
    auto pattern = const_string(rnode);
    if (!pattern) fail(ErrorKind::SQLInterface, node_location(rnode), "a LIKE pattern must be a string literal");
    Expr m = like_expr(l, *pattern, op.find('*') != std::string::npos, '\\');
    return op[0] == '!' ? m.not_() : m;
  }
  if (op == "^@") {
    auto prefix = const_string(rnode);
    if (!prefix) fail(ErrorKind::SQLInterface, node_location(rnode), "the prefix of ^@ must be a string literal");
    return str_starts_with(l, *prefix);
  }
  fail(ErrorKind::SQLInterface, location, "operator '" + op + "' is not supported");
}

std::optional<Interval> Translator::interval_of(const PgNode* node) const {
  if (!node || node->node_case != PG_QUERY__NODE__NODE_TYPE_CAST) return std::nullopt;
  const auto* c = node->type_cast;
  std::string type;
  for (size_t i = 0; i < c->type_name->n_names; ++i) type = string_of(c->type_name->names[i]);
  if (!iequals(type, "interval") || !is_string_const(c->arg)) return std::nullopt;
  int mask = 0;
  if (c->type_name->n_typmods > 0) mask = static_cast<int>(const_int(c->type_name->typmods[0]).value_or(0));
  return parse_interval(c->arg->a_const->sval->sval ? c->arg->a_const->sval->sval : "", mask);
}

Expr Translator::a_expr(const PgQuery__AExpr* e, Scope& scope) {
  const std::string op = op_name(e);
  switch (e->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP: {
      if (!e->lexpr) {
        // Unary operators; -<number> is a negative literal.
        if (op == "-") {
          if (e->rexpr->node_case == PG_QUERY__NODE__NODE_A_CONST) {
            const auto* c = e->rexpr->a_const;
            if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL) return dsl::lit_dynamic_int(-static_cast<int64_t>(c->ival->ival));
            if (c->val_case == PG_QUERY__A__CONST__VAL_FVAL) {
              const std::string text = c->fval->fval;
              if (text.find_first_of(".eE") == std::string::npos) {
                try {
                  return dsl::lit_dynamic_int(-std::stoll(text));
                } catch (const std::out_of_range&) {
                }
              }
              const auto value = parse_double(text);
              if (!value) fail(ErrorKind::SQLInterface, c->location, "numeric literal " + text + " is out of range");
              return dsl::lit_dynamic_float(-*value);
            }
          }
          return -expr(e->rexpr, scope);
        }
        if (op == "+") return expr(e->rexpr, scope);
        if (op == "~") return expr(e->rexpr, scope).not_();
        if (op == "|/") return expr(e->rexpr, scope).sqrt();
        if (op == "@") return expr(e->rexpr, scope).abs();
        fail(ErrorKind::SQLInterface, e->location, "unary operator '" + op + "' is not supported");
      }
      return binary(op, e->lexpr, e->rexpr, scope, e->location);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
      return expr(e->lexpr, scope).ne_missing(expr(e->rexpr, scope));
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
      return expr(e->lexpr, scope).eq_missing(expr(e->rexpr, scope));
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
      Expr a = expr(e->lexpr, scope);
      Expr b = expr(e->rexpr, scope);
      return dsl::when(a == b).then(lit_null()).otherwise(a);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
      Expr v = expr(e->lexpr, scope);
      Expr m = in_list(v, e->rexpr, scope, e->location);
      return op == "<>" ? m.not_() : m;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: {
      const bool insensitive = e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE;
      const bool negated = op.rfind("!", 0) == 0;
      Expr v = expr(e->lexpr, scope);
      char escape = '\\';
      const PgNode* pattern_node = e->rexpr;
      // LIKE ... ESCAPE 'c' arrives as like_escape(pattern, 'c').
      if (pattern_node->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && pattern_node->func_call->n_args == 2) {
        auto esc = const_string(pattern_node->func_call->args[1]);
        if (esc && esc->size() == 1) escape = (*esc)[0];
        pattern_node = pattern_node->func_call->args[0];
      }
      auto pattern = const_string(pattern_node);
      if (!pattern) fail(ErrorKind::SQLInterface, node_location(pattern_node), "a LIKE pattern must be a string literal");
      Expr m = like_expr(v, *pattern, insensitive, escape);
      return negated ? m.not_() : m;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: {
      // rexpr: similar_to_escape(pattern [, escape])
      Expr v = expr(e->lexpr, scope);
      const PgNode* p = e->rexpr;
      if (p->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && p->func_call->n_args >= 1) p = p->func_call->args[0];
      auto pattern = const_string(p);
      if (!pattern) fail(ErrorKind::SQLInterface, node_location(p), "a SIMILAR TO pattern must be a string literal");
      Expr m = str_contains(v, similar_to_regex(*pattern), false);
      return op == "!~" ? m.not_() : m;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM: {
      const auto* bounds = e->rexpr->list;
      Expr v = expr(e->lexpr, scope);
      // Bounds that are string literals compared with dates are dates.
      Expr lo = binary_operand(bounds->items[0], v, scope);
      Expr hi = binary_operand(bounds->items[1], v, scope);
      Expr m = v.is_between(lo, hi, "both");
      if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM || e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM)
        m = m | v.is_between(hi, lo, "both");
      const bool negated =
          e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN || e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
      return negated ? m.not_() : m;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: {
      // x op ANY (ARRAY[...]) over a constant array.
      Expr v = expr(e->lexpr, scope);
      const PgNode* arr = e->rexpr;
      if (arr->node_case != PG_QUERY__NODE__NODE_A_ARRAY_EXPR)
        unsupported(arr, "ANY/ALL over anything but an array literal or a subquery");
      const bool any = e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY;
      std::optional<Expr> out;
      for (size_t i = 0; i < arr->a_array_expr->n_elements; ++i) {
        Expr cmp = binary(op, e->lexpr, arr->a_array_expr->elements[i], scope, e->location);
        out = out ? (any ? (*out | cmp) : (*out & cmp)) : cmp;
      }
      (void)v;
      return out ? *out : lit(!any);
    }
    default: break;
  }
  fail(ErrorKind::SQLInterface, e->location, "this operator form is not supported");
}

// A string compared with a date, datetime or time column is a value of that type; a string
// that is no such value (a date column against '10:30:45') is an error, as in Polars.
Expr Translator::implicit_temporal(const std::string& text, const DataType& t, int32_t location) {
  std::optional<Scalar> v;
  const bool has_time = text.find(':') != std::string::npos;
  if (!(t.id() == TypeId::Date && has_time)) v = parse_typed_literal(text, t);
  if (!v)
    fail(ErrorKind::InvalidOperation, location,
         "conversion from `str` to `" + dtype_display(t) + "` failed for '" + text + "'");
  return lit(*v);
}

// A comparison operand: a string literal next to a temporal value takes its type.
Expr Translator::binary_operand(const PgNode* node, const Expr& other, Scope& scope) {
  if (is_string_const(node)) {
    DataType t = dtype_of(other, scope);
    if (t.id() == TypeId::Date || t.id() == TypeId::Datetime || t.id() == TypeId::Time) {
      const std::string text = node->a_const->sval->sval ? node->a_const->sval->sval : "";
      return implicit_temporal(text, t, node_location(node));
    }
  }
  return expr(node, scope);
}

// x IN (a, b, c): a set membership over constants, equalities otherwise; a NULL in the list
// makes a non-match unknown (NULL), as SQL's three-valued logic has it.
Expr Translator::in_list(const Expr& value, const PgNode* list, Scope& scope, int32_t location) {
  if (list->node_case == PG_QUERY__NODE__NODE_SUB_LINK) unsupported(list, "this IN form");
  const auto* items = list->list;
  std::vector<Scalar> constants;
  bool all_constant = true;
  bool has_null = false;
  DataType value_type = dtype_of(value, scope);
  for (size_t i = 0; i < items->n_items; ++i) {
    auto s = constant_scalar(items->items[i]);
    if (!s) {
      all_constant = false;
      break;
    }
    if (s->is_null()) {
      has_null = true;
      continue;
    }
    // String literals against temporal values are values of that type.
    if (s->dtype().is_string() &&
        (value_type.id() == TypeId::Date || value_type.id() == TypeId::Datetime || value_type.id() == TypeId::Time)) {
      s = implicit_temporal(s->as_string(), value_type, node_location(items->items[i])).node().literal.scalar;
    }
    constants.push_back(*s);
  }
  if (all_constant) {
    Expr m = constants.empty() ? lit(false) : value.is_in(dsl::lit_series(scalars_to_array(constants, location, value_type)));
    if (constants.empty()) m = dsl::when(value.is_null()).then(lit_null()).otherwise(lit(false));
    return has_null ? (m | lit(Scalar::null(DataType::boolean()))) : m;
  }
  std::optional<Expr> out;
  for (size_t i = 0; i < items->n_items; ++i) {
    Expr eq = value == binary_operand(items->items[i], value, scope);
    out = out ? (*out | eq) : eq;
  }
  return *out;
}

// SQL's SIMILAR TO pattern as an anchored regular expression.
std::string similar_to_regex(const std::string& pattern) {
  std::string out = "^(?:";
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out += compute_regex_escape(std::string(1, pattern[++i]));
    } else if (c == '%') {
      out += ".*";
    } else if (c == '_') {
      out += ".";
    } else if (c == '.') {
      out += "\\.";
    } else {
      out += c;
    }
  }
  return out + ")$";
}

std::optional<Scalar> Translator::constant_scalar(const PgNode* node) {
  if (!node) return std::nullopt;
  if (node->node_case == PG_QUERY__NODE__NODE_A_CONST) {
    const auto* c = node->a_const;
    if (c->isnull) return Scalar::null(DataType::null());
    switch (c->val_case) {
      case PG_QUERY__A__CONST__VAL_IVAL: return Scalar::int64(c->ival->ival);
      case PG_QUERY__A__CONST__VAL_FVAL: {
        const std::string text = c->fval->fval;
        if (text.find_first_of(".eE") == std::string::npos) {
          try {
            return Scalar::int64(std::stoll(text));
          } catch (const std::out_of_range&) {
            return std::nullopt;
          }
        }
        const auto value = parse_double(text);
        if (!value) return std::nullopt;
        return Scalar::float64(*value);
      }
      case PG_QUERY__A__CONST__VAL_BOOLVAL: return Scalar::boolean(c->boolval->boolval);
      case PG_QUERY__A__CONST__VAL_SVAL: return Scalar::string(c->sval->sval ? c->sval->sval : "");
      default: return std::nullopt;
    }
  }
  if (node->node_case == PG_QUERY__NODE__NODE_A_EXPR && node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP &&
      !node->a_expr->lexpr && op_name(node->a_expr) == "-") {
    auto v = constant_scalar(node->a_expr->rexpr);
    if (!v || v->is_null()) return std::nullopt;
    if (v->dtype().id() == TypeId::Int64) return Scalar::int64(-v->as_int64());
    if (v->dtype().id() == TypeId::Float64) return Scalar::float64(-v->as_double());
    return std::nullopt;
  }
  if (node->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && is_string_const(node->type_cast->arg)) {
    const auto* c = node->type_cast;
    std::string type;
    for (size_t i = 0; i < c->type_name->n_names; ++i) type = string_of(c->type_name->names[i]);
    if (iequals(type, "interval")) return std::nullopt;
    DataType dt = type_name(c->type_name);
    const std::string text = c->arg->a_const->sval->sval ? c->arg->a_const->sval->sval : "";
    if (dt.id() == TypeId::Date || dt.id() == TypeId::Datetime || dt.id() == TypeId::Time) return parse_typed_literal(text, dt);
    if (dt.is_string()) return Scalar::string(text);
  }
  return std::nullopt;
}

// Scalars of possibly different types -> one array of their supertype (`target` when set).
ArrayRef Translator::scalars_to_array(const std::vector<Scalar>& values, int32_t location, std::optional<DataType> target) {
  DataType super = DataType::null();
  for (const auto& s : values) {
    if (s.is_null()) continue;
    if (super.id() == TypeId::Null) {
      super = s.dtype();
      continue;
    }
    auto t = get_supertype(super, s.dtype());
    if (!t) fail(ErrorKind::SQLInterface, location, "values of types " + dtype_display(super) + " and " + dtype_display(s.dtype()) + " cannot be mixed");
    super = *t;
  }
  if (target && target->id() != TypeId::Null) {
    // Integers next to an integer column keep the column's type when they fit.
    if (super.id() == TypeId::Null || (super.is_integer() && target->is_numeric()) ||
        (super.is_float() && target->is_float()))
      super = *target;
  }
  std::vector<ArrayRef> chunks;
  for (const auto& s : values) {
    ArrayRef one = Column::scalar("v", s.is_null() ? Scalar::null(super) : s, 1).as_array();
    if (!(one->dtype() == super)) one = compute::cast(*one, super, true);
    chunks.push_back(one);
  }
  if (chunks.empty()) return Column::scalar("v", Scalar::null(super), 0).as_array();
  return Column("v", super, chunks).as_array();
}

DataType Translator::dtype_of(const Expr& e, const Scope& scope) {
  if (e.kind() == dsl::ExprKind::Column && scope.rel) {
    if (const auto* b = scope.rel->by_internal(e.node().names[0])) return b->dtype;
  }
  if (e.kind() == dsl::ExprKind::Literal && !e.node().literal.is_series()) return e.node().literal.materialized_dtype();
  if (!scope.rel) return DataType::null();
  try {
    Schema s = scope.rel->frame.select({e.alias("__sql_dtype")}).collect_schema();
    return s.field(0).dtype;
  } catch (const Error&) {
    return DataType::null();
  }
}

}  // namespace frazil::sql

namespace frazil::sql {

Expr Translator::string_concat(const std::vector<Expr>& parts, int32_t location) {
  // `a || b`: NULL when either is NULL; non-strings as their text.
  (void)location;
  std::optional<Expr> out;
  for (const auto& p : parts) {
    Expr piece = p;
    if (!(p.kind() == dsl::ExprKind::Literal && !p.node().literal.is_series() && p.node().literal.scalar.dtype().is_string()))
      piece = p.cast(DataType::string());
    out = out ? (*out + piece) : piece;
  }
  return *out;
}

}  // namespace frazil::sql

namespace frazil::sql {

bool Translator::known_non_null(const Expr& e, const Relation& rel) const {
  switch (e.kind()) {
    case dsl::ExprKind::Column: {
      const BoundColumn* b = rel.by_internal(e.node().names[0]);
      return b && b->non_null;
    }
    case dsl::ExprKind::Literal: return !e.node().literal.is_series() && !e.node().literal.scalar.is_null();
    case dsl::ExprKind::Alias: return known_non_null(e.inputs()[0], rel);
    case dsl::ExprKind::Cast: return e.node().strict && known_non_null(e.inputs()[0], rel);
    case dsl::ExprKind::BinaryExpr: {
      const auto op = e.node().op;
      // Integer division and modulo by zero are null; the others are not.
      if (op != dsl::Operator::Plus && op != dsl::Operator::Minus && op != dsl::Operator::Multiply &&
          op != dsl::Operator::TrueDivide)
        return false;
      return known_non_null(e.inputs()[0], rel) && known_non_null(e.inputs()[1], rel);
    }
    case dsl::ExprKind::Ternary:
      // A null condition takes the otherwise branch: the condition's nulls do not matter.
      return known_non_null(e.inputs()[1], rel) && known_non_null(e.inputs()[2], rel);
    case dsl::ExprKind::Function: {
      const auto& f = e.node().function;
      if (!(f.is("abs") || f.is("neg") || f.is("round") || f.is("floor") || f.is("ceil"))) return false;
      return known_non_null(e.inputs()[0], rel);
    }
    default: return false;
  }
}

}  // namespace frazil::sql
