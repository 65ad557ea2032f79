// FROM: tables, subqueries, table functions and explicit joins (INNER LEFT RIGHT FULL
// CROSS SEMI ANTI, ON / USING / NATURAL). A list of several FROM items is joined by
// translate_join_order.cpp.
#include <set>
#include <unordered_set>

#include "frazil/api/io.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/sql/dialect.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using compute::JoinType;
using dsl::col;

std::optional<Relation> Translator::named_table(const std::string& name, const std::string& alias) {
  const std::string& q = alias.empty() ? name : alias;
  for (auto it = ctes.rbegin(); it != ctes.rend(); ++it) {
    if (it->first == name || iequals(it->first, name)) {
      Relation r = it->second;
      for (auto& c : r.columns) c.qualifiers = {q};
      return r;
    }
  }
  if (auto lf = tables_.table(name)) return Relation::of_frame(*lf, q);
  for (const auto& t : tables_.table_names())
    if (iequals(t, name)) return Relation::of_frame(*tables_.table(t), q);
  return std::nullopt;
}

Relation Translator::from_clause(const PgQuery__SelectStmt* s, const Scope* outer, std::vector<const PgNode*>& where) {
  if (s->n_from_clause == 0) return Relation(LazyFrame::from_frame(DataFrame::empty_with_height(1)));
  if (s->n_from_clause == 1) return from_item(s->from_clause[0], outer);
  std::vector<FromItem> items;
  for (size_t i = 0; i < s->n_from_clause; ++i) {
    // CROSS JOIN UNNEST(...) and friends refer to earlier items: join them in order.
    items.push_back({from_item(s->from_clause[i], outer), node_location(s->from_clause[i])});
  }
  return join_from_list(std::move(items), where, outer);
}

Relation Translator::apply_alias(Relation rel, const PgQuery__Alias* alias, const std::string& default_name) {
  const std::string name = alias && alias->aliasname ? alias->aliasname : default_name;
  for (auto& c : rel.columns) c.qualifiers = name.empty() ? std::vector<std::string>{} : std::vector<std::string>{name};
  if (alias && alias->n_colnames > 0) {
    size_t k = 0;
    const size_t visible = std::count_if(rel.columns.begin(), rel.columns.end(), [](const BoundColumn& c) { return !c.hidden; });
    if (alias->n_colnames > visible)
      fail(ErrorKind::SQLInterface, -1,
           "table alias '" + name + "' names " + std::to_string(alias->n_colnames) + " columns but the table has " +
               std::to_string(visible));
    for (auto& c : rel.columns)
      if (!c.hidden && k < alias->n_colnames) c.name = string_of(alias->colnames[k++]);
  }
  return rel;
}

Relation Translator::from_item(const PgNode* node, const Scope* outer) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: {
      const auto* rv = node->range_var;
      const std::string name = rv->relname ? rv->relname : "";
      const std::string alias = rv->alias && rv->alias->aliasname ? rv->alias->aliasname : "";
      auto rel = named_table(name, alias);
      if (!rel) {
        std::vector<std::string> names = tables_.table_names();
        for (const auto& c : ctes) names.push_back(c.first);
        fail(ErrorKind::SQLInterface, rv->location, "relation '" + name + "' was not found" + did_you_mean(name, names));
      }
      return apply_alias(std::move(*rel), rv->alias, alias.empty() ? name : alias);
    }
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: {
      const auto* rs = node->range_subselect;
      if (rs->lateral) unsupported(node, "LATERAL");
      Relation r = query(rs->subquery, outer);
      return apply_alias(std::move(r), rs->alias, "");
    }
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION: return table_function(node->range_function, outer);
    case PG_QUERY__NODE__NODE_JOIN_EXPR: {
      Relation r = join(node->join_expr, outer);
      if (node->join_expr->alias) {
        // (a JOIN b) AS j: j names its columns, and a and b still do (as Polars allows).
        std::vector<std::vector<std::string>> inner;
        for (const auto& c : r.columns) inner.push_back(c.qualifiers);
        r = apply_alias(std::move(r), node->join_expr->alias, "");
        for (size_t k = 0; k < r.columns.size(); ++k)
          for (const auto& q : inner[k]) r.columns[k].qualifiers.push_back(q);
        // A name the join holds twice is, through j (and unqualified), the later column's frame
        // name ("val:tbl2", as Polars names it); its table still names it `tbl2.val`.
        std::vector<BoundColumn> columns;
        std::set<std::string> seen;
        for (size_t k = 0; k < r.columns.size(); ++k) {
          BoundColumn c = std::move(r.columns[k]);
          if (c.hidden || c.qualified_only || seen.insert(c.name).second || c.internal == c.name) {
            columns.push_back(std::move(c));
            continue;
          }
          BoundColumn through = c;
          through.name = c.internal;
          through.qualifiers = {c.qualifiers.front()};
          c.qualifiers = inner[k];
          c.qualified_only = true;
          columns.push_back(std::move(c));
          columns.push_back(std::move(through));
        }
        r.columns = std::move(columns);
      }
      return r;
    }
    default: break;
  }
  unsupported(node, node_kind_name(node) + " in FROM");
}

Relation Translator::table_function(const PgQuery__RangeFunction* f, const Scope* outer) {
  (void)outer;
  if (f->lateral) fail(ErrorKind::SQLInterface, -1, "LATERAL is not supported");
  if (f->n_functions != 1) fail(ErrorKind::SQLInterface, -1, "ROWS FROM is not supported");
  const PgNode* call = f->functions[0]->list->items[0];
  if (call->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) unsupported(call, "this table function");
  const auto* fc = call->func_call;
  std::string name = string_of(fc->funcname[fc->n_funcname - 1]);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto path = [&]() {
    if (fc->n_args < 1) fail(ErrorKind::SQLInterface, fc->location, name + "() needs a path");
    auto p = const_string(fc->args[0]);
    if (!p) fail(ErrorKind::SQLInterface, node_location(fc->args[0]), name + "() needs the path as a string literal");
    return *p;
  };
  std::optional<LazyFrame> lf;
  if (name == "read_parquet" || name == "parquet_scan") lf = scan_parquet(path());
  else if (name == "read_csv" || name == "read_csv_auto" || name == "csv_scan") {
    io::CsvReadOptions options;
    for (size_t i = 1; i < fc->n_args; ++i) {
      const PgNode* a = fc->args[i];
      if (a->node_case != PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
        fail(ErrorKind::SQLInterface, node_location(a), "read_csv() options are named: read_csv('f.csv', has_header => false)");
      const std::string opt = a->named_arg_expr->name ? a->named_arg_expr->name : "";
      auto bool_value = [&]() {
        const PgNode* v = a->named_arg_expr->arg;
        if (v->node_case == PG_QUERY__NODE__NODE_A_CONST && v->a_const->val_case == PG_QUERY__A__CONST__VAL_BOOLVAL)
          return static_cast<bool>(v->a_const->boolval->boolval);
        fail(ErrorKind::SQLInterface, node_location(v), "read_csv() option " + opt + " needs true or false");
      };
      if (opt == "has_header" || opt == "header") options.has_header = bool_value();
      else if (opt == "try_parse_dates") options.try_parse_dates = bool_value();
      else if (opt == "separator" || opt == "delim" || opt == "sep") {
        auto v = const_string(a->named_arg_expr->arg);
        if (!v || v->size() != 1) fail(ErrorKind::SQLInterface, node_location(a), "read_csv() separator must be one character");
        options.separator = (*v)[0];
      } else {
        fail(ErrorKind::SQLInterface, node_location(a), "unknown read_csv() option '" + opt + "'");
      }
    }
    lf = scan_csv(path(), options);
  } else if (name == "read_ipc" || name == "read_ndjson" || name == "read_json") {
    fail(ErrorKind::SQLInterface, fc->location, name + "() is not supported yet: frazil cannot read this format");
  } else if (name == "unnest") {
    fail(ErrorKind::SQLInterface, fc->location, "UNNEST in FROM is only supported after CROSS JOIN / a comma");
  } else {
    fail(ErrorKind::SQLInterface, fc->location,
         "unknown table function '" + name + "'" + did_you_mean(name, {"read_parquet", "read_csv"}));
  }
  const std::string default_name = name;
  return apply_alias(Relation::of_frame(*lf, default_name), f->alias, f->alias && f->alias->aliasname ? "" : default_name);
}

namespace {

// Which of two relations the columns of an expression come from: bit 1 left, bit 2 right,
// bit 4 neither (outer references, unknown names).
int sides_of(const PgNode* node, const Relation& left, const Relation& right) {
  int sides = 0;
  walk_nodes(node, [&](const PgNode* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
      sides |= 4;
      return false;
    }
    if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return true;
    const auto* c = n->column_ref;
    if (c->fields[c->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
      sides |= 4;
      return false;
    }
    const std::string name = string_of(c->fields[c->n_fields - 1]);
    const std::string qualifier = c->n_fields >= 2 ? string_of(c->fields[c->n_fields - 2]) : "";
    const bool l = !left.find(qualifier, name).empty();
    const bool r = !right.find(qualifier, name).empty();
    if (l && r) sides |= 3;
    else if (l) sides |= 1;
    else if (r) sides |= 2;
    else sides |= 4;
    return false;
  });
  return sides;
}

bool is_equality(const PgNode* n) {
  return n->node_case == PG_QUERY__NODE__NODE_A_EXPR && n->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP &&
         n->a_expr->n_name == 1 && (string_of(n->a_expr->name[0]) == "=" || string_of(n->a_expr->name[0]) == "==") &&
         n->a_expr->lexpr && n->a_expr->rexpr;
}

}  // namespace

int relation_sides(const PgNode* node, const Relation& left, const Relation& right) { return sides_of(node, left, right); }
bool is_equality_node(const PgNode* node) { return is_equality(node); }

Relation Translator::join(const PgQuery__JoinExpr* j, const Scope* outer) {
  Relation left = from_item(j->larg, outer);
  // CROSS JOIN UNNEST(col): one row per element of a list column of the left side.
  if (j->rarg->node_case == PG_QUERY__NODE__NODE_RANGE_FUNCTION) {
    const auto* rf = j->rarg->range_function;
    const PgNode* call = rf->n_functions == 1 ? rf->functions[0]->list->items[0] : nullptr;
    if (call && call->node_case == PG_QUERY__NODE__NODE_FUNC_CALL &&
        iequals(string_of(call->func_call->funcname[call->func_call->n_funcname - 1]), "unnest"))
      return unnest_join(std::move(left), rf, outer);
  }
  Relation right = from_item(j->rarg, outer);
  // SEMI / ANTI joins come marked by the dialect rewrite at the right table's position.
  std::optional<JoinMarker> marker;
  {
    int32_t at = -1;
    if (j->rarg->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) at = j->rarg->range_var->location;
    if (j->rarg->node_case == PG_QUERY__NODE__NODE_RANGE_FUNCTION) {
      const auto* rf = j->rarg->range_function;
      if (rf->n_functions == 1) at = node_location(rf->functions[0]->list->items[0]);
    }
    if (at >= 0) {
      auto it = dialect_.join_kinds.find(dialect_.source.to_original(at));
      if (it != dialect_.join_kinds.end()) marker = it->second;
    }
  }
  JoinType how = JoinType::Inner;
  switch (j->jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_INNER: how = JoinType::Inner; break;
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT: how = JoinType::Left; break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT: how = JoinType::Right; break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL: how = JoinType::Full; break;
    default: fail(ErrorKind::SQLInterface, -1, "this join type is not supported");
  }
  bool swapped = false;
  if (marker) {
    how = (*marker == JoinMarker::LeftSemi || *marker == JoinMarker::RightSemi) ? JoinType::Semi : JoinType::Anti;
    if (*marker == JoinMarker::RightSemi || *marker == JoinMarker::RightAnti) {
      std::swap(left, right);
      swapped = true;
    }
  }
  const std::string right_name = right.columns.empty() || right.columns[0].qualifiers.empty()
                                     ? std::string("right")
                                     : right.columns[0].qualifiers[0];
  // USING / NATURAL: equal names, one output column each.
  std::vector<std::string> using_names;
  if (j->is_natural) {
    for (const auto& c : left.columns) {
      if (c.hidden) continue;
      for (const auto& r : right.columns)
        if (!r.hidden && r.name == c.name) using_names.push_back(c.name);
    }
    if (using_names.empty()) {
      if (how == JoinType::Semi || how == JoinType::Anti) fail(ErrorKind::SQLInterface, -1, "NATURAL join without common columns");
      Relation out = join_relations(std::move(left), std::move(right), {}, {}, JoinType::Cross, false, right_name);
      return out;
    }
  }
  for (size_t i = 0; i < j->n_using_clause; ++i) using_names.push_back(string_of(j->using_clause[i]));
  if (!using_names.empty()) return using_join(std::move(left), std::move(right), using_names, how, right_name);
  // ON: equalities between one side and the other are the keys, the rest a filter.
  std::vector<const PgNode*> conjuncts;
  split_conjuncts(j->quals, conjuncts);
  std::vector<Expr> lk, rk;
  std::vector<const PgNode*> rest;
  for (const PgNode* c : conjuncts) {
    if (is_equality(c)) {
      const int ls = sides_of(c->a_expr->lexpr, left, right);
      const int rs = sides_of(c->a_expr->rexpr, left, right);
      if ((ls == 1 && rs == 2) || (ls == 2 && rs == 1)) {
        const PgNode* ln = ls == 1 ? c->a_expr->lexpr : c->a_expr->rexpr;
        const PgNode* rn = ls == 1 ? c->a_expr->rexpr : c->a_expr->lexpr;
        Scope l_scope;
        l_scope.rel = &left;
        l_scope.outer = outer;
        l_scope.clause = "ON";
        Scope r_scope = l_scope;
        r_scope.rel = &right;
        lk.push_back(expr(ln, l_scope));
        rk.push_back(expr(rn, r_scope));
        continue;
      }
    }
    rest.push_back(c);
  }
  if (!j->quals && how == JoinType::Inner) how = JoinType::Cross;
  // Conditions on one side only of an outer join filter that side before the join.
  std::vector<const PgNode*> after;
  for (const PgNode* c : rest) {
    const int sides = sides_of(c, left, right);
    Relation* side = nullptr;
    if ((how == JoinType::Left || how == JoinType::Semi || how == JoinType::Anti) && (sides & 1) == 0 && (sides & 4) == 0)
      side = &right;
    if (how == JoinType::Right && (sides & 2) == 0 && (sides & 4) == 0) side = &left;
    if (how == JoinType::Inner || how == JoinType::Cross) {
      if (sides == 1) side = &left;
      else if (sides == 2) side = &right;
    }
    if (side) {
      Scope s;
      s.rel = side;
      s.outer = outer;
      s.clause = "ON";
      side->frame = side->frame.filter(expr(c, s));
      continue;
    }
    after.push_back(c);
  }
  if (!after.empty() && how != JoinType::Inner && how != JoinType::Cross) {
    if (how == JoinType::Semi || how == JoinType::Anti || how == JoinType::Left)
      return conditional_left_join(std::move(left), std::move(right), lk, rk, after, how, outer, right_name);
    fail(ErrorKind::SQLInterface, node_location(after[0]),
         std::string(how == JoinType::Full ? "FULL" : "RIGHT") +
             " JOIN ... ON with conditions that are not equalities between the two sides is not supported");
  }
  if (lk.empty() && how == JoinType::Inner) how = JoinType::Cross;
  if (lk.empty() && how == JoinType::Left) return conditional_left_join(std::move(left), std::move(right), {}, {}, {}, how, outer, right_name);
  if (lk.empty() && how == JoinType::Right) {
    Relation out = conditional_left_join(std::move(right), std::move(left), {}, {}, {}, JoinType::Left, outer, right_name);
    return out;
  }
  if (lk.empty() && how != JoinType::Cross)
    fail(ErrorKind::SQLInterface, -1, "this join needs at least one equality between its two sides");
  (void)swapped;
  // Both key columns stay (SQL's ON keeps them, `SELECT *` shows them).
  Relation out = join_relations(std::move(left), std::move(right), lk, rk, how, false, right_name);
  if (!after.empty()) {
    Scope s;
    s.rel = &out;
    s.outer = outer;
    s.clause = "ON";
    std::optional<Expr> pred;
    for (const PgNode* c : after) {
      Expr e = expr(c, s);
      pred = pred ? (*pred & e) : e;
    }
    out.frame = out.frame.filter(*pred);
  }
  return out;
}

// USING (k, ...): both sides' k stay, named by their tables only (`a.k`, `b.k`); the
// unqualified k is the left one for INNER and LEFT joins, the right one for RIGHT joins and
// the first non-null of the two for FULL joins, in the left key's place for `*`.
Relation Translator::using_join(Relation left, Relation right, const std::vector<std::string>& names, JoinType how,
                                const std::string& right_name) {
  std::vector<Expr> lk, rk;
  std::vector<std::string> l_internal, r_internal;
  for (const auto& n : names) {
    auto l = left.find("", n);
    auto r = right.find("", n);
    if (l.size() != 1 || r.size() != 1)
      fail(ErrorKind::SQLInterface, -1,
           "column '" + n + "' in USING is " + (l.empty() || r.empty() ? "missing from" : "ambiguous in") + " the " +
               (l.size() != 1 ? "left" : "right") + " side of the join");
    lk.push_back(col(l[0]->internal));
    rk.push_back(col(r[0]->internal));
    l_internal.push_back(l[0]->internal);
    r_internal.push_back(r[0]->internal);
  }
  const size_t n_left = left.columns.size();
  Relation out = join_relations(std::move(left), std::move(right), lk, rk, how, false, right_name);
  if (how == JoinType::Semi || how == JoinType::Anti) return out;
  std::vector<Expr> merged;
  for (size_t i = 0; i < names.size(); ++i) {
    // After the join, the right key may have been renamed: find both by position.
    BoundColumn* lc = nullptr;
    BoundColumn* rc = nullptr;
    for (size_t k = 0; k < out.columns.size(); ++k) {
      if (k < n_left && out.columns[k].internal == l_internal[i]) lc = &out.columns[k];
      if (k >= n_left && !rc && out.columns[k].name == names[i] && !out.columns[k].hidden) rc = &out.columns[k];
    }
    if (!lc || !rc) throw InternalError("USING join lost its key columns");
    rc->qualified_only = true;
    if (how == JoinType::Inner || how == JoinType::Left) continue;
    lc->qualified_only = true;
    BoundColumn m;
    m.name = names[i];
    m.internal = out.fresh_internal(names[i] + ":using");
    m.dtype = lc->dtype;
    merged.push_back((how == JoinType::Right ? col(rc->internal) : dsl::coalesce({col(lc->internal), col(rc->internal)})).alias(m.internal));
    // In the left key's place.
    const size_t at = static_cast<size_t>(lc - out.columns.data());
    out.columns.insert(out.columns.begin() + static_cast<std::ptrdiff_t>(at), m);
  }
  if (!merged.empty()) {
    out.frame = out.frame.with_columns(merged);
    out.refresh_dtypes();
  }
  return out;
}

// A left (or semi / anti) join whose condition also compares the two sides in other ways
// than equality: the matching pairs are found by an inner join (or cross join) plus a
// filter, then attached to the left rows by a row number.
Relation Translator::conditional_left_join(Relation left, Relation right, std::vector<Expr> lk, std::vector<Expr> rk,
                                           const std::vector<const PgNode*>& conditions, JoinType how,
                                           const Scope* outer, const std::string& right_name) {
  const std::string row = temp_name("row");
  left.frame = left.frame.with_row_index(row);
  BoundColumn rc;
  rc.name = row;
  rc.internal = row;
  rc.dtype = DataType::uint32();
  rc.hidden = true;
  left.columns.push_back(rc);
  Relation pairs = join_relations(left, right, lk, rk, lk.empty() ? JoinType::Cross : JoinType::Inner, false, right_name);
  Scope s;
  s.rel = &pairs;
  s.outer = outer;
  s.clause = "ON";
  std::optional<Expr> pred;
  for (const PgNode* c : conditions) {
    Expr e = expr(c, s);
    pred = pred ? (*pred & e) : e;
  }
  if (pred) pairs.frame = pairs.frame.filter(*pred);
  if (how == JoinType::Semi || how == JoinType::Anti) {
    Relation matched(pairs.frame.select({col(row)}));
    left.frame = left.frame.join(matched.frame, {col(row)}, {col(row)}, JoinArgs{how, "_right", std::nullopt});
    left.frame = left.frame.drop({row});
    left.columns.pop_back();
    return left;
  }
  // The right columns of each matching pair, then every left row with its pairs.
  std::vector<Expr> right_cols{col(row)};
  Relation matched(pairs.frame);
  for (const auto& c : pairs.columns)
    if (!left.by_internal(c.internal)) {
      right_cols.push_back(col(c.internal));
      matched.columns.push_back(c);
    }
  matched.frame = pairs.frame.select(right_cols);
  BoundColumn mrow = rc;
  matched.columns.insert(matched.columns.begin(), mrow);
  Relation out = left;
  out.frame = left.frame.join(matched.frame, {col(row)}, {col(row)}, JoinArgs{JoinType::Left, "_right", true});
  for (size_t k = 1; k < matched.columns.size(); ++k) out.columns.push_back(matched.columns[k]);
  out.frame = out.frame.drop({row});
  out.columns.erase(std::remove_if(out.columns.begin(), out.columns.end(), [&](const BoundColumn& c) { return c.internal == row; }),
                    out.columns.end());
  out.refresh_dtypes();
  return out;
}

Relation Translator::join_relations(Relation left, Relation right, std::vector<Expr> left_on, std::vector<Expr> right_on,
                                    JoinType how, bool coalesce_keys, const std::string& right_name) {
  // Right columns whose frame names collide with left ones are renamed first.
  std::unordered_set<std::string> used;
  for (const auto& c : left.columns) used.insert(c.internal);
  std::vector<std::pair<std::string, std::string>> renames;
  for (auto& c : right.columns) {
    if (!used.count(c.internal)) {
      used.insert(c.internal);
      continue;
    }
    std::string base = c.internal + ":" + right_name;
    std::string fresh = base;
    for (int n = 1; used.count(fresh); ++n) fresh = base + ":" + std::to_string(n);
    used.insert(fresh);
    renames.emplace_back(c.internal, fresh);
    c.internal = fresh;
  }
  if (!renames.empty()) {
    right.frame = right.frame.rename(renames);
    for (auto& e : right_on)
      e = rewrite_expr(e, [&](const Expr& x) -> std::optional<Expr> {
        if (x.kind() != dsl::ExprKind::Column) return std::nullopt;
        for (const auto& [from, to] : renames)
          if (x.node().names[0] == from) return col(to);
        return std::nullopt;
      });
  }
  // Keys of different types are compared at their common type (Int64 against Float64).
  for (size_t i = 0; i < left_on.size(); ++i) {
    Scope ls;
    ls.rel = &left;
    Scope rs;
    rs.rel = &right;
    const DataType lt = dtype_of(left_on[i], ls);
    const DataType rt = dtype_of(right_on[i], rs);
    if (lt == rt) continue;
    if (lt.id() == TypeId::Null && rt.id() != TypeId::Null) {
      left_on[i] = left_on[i].cast(rt);
      continue;
    }
    if (rt.id() == TypeId::Null && lt.id() != TypeId::Null) {
      right_on[i] = right_on[i].cast(lt);
      continue;
    }
    if (!(lt.is_numeric() && rt.is_numeric())) continue;
    auto super = get_supertype(lt, rt);
    if (!super) continue;
    if (!(lt == *super)) left_on[i] = left_on[i].cast(*super);
    if (!(rt == *super)) right_on[i] = right_on[i].cast(*super);
  }
  bool all_columns = true;
  for (size_t i = 0; i < left_on.size(); ++i)
    all_columns = all_columns && left_on[i].kind() == dsl::ExprKind::Column && right_on[i].kind() == dsl::ExprKind::Column;
  const bool coalesce = coalesce_keys && all_columns && how != JoinType::Cross;
  Relation out(left.frame);
  if (how == JoinType::Cross) {
    out.frame = left.frame.cross_join(right.frame);
  } else {
    JoinArgs args;
    args.how = how;
    args.coalesce = coalesce;
    out.frame = left.frame.join(right.frame, left_on, right_on, args);
  }
  if (how == JoinType::Semi || how == JoinType::Anti) {
    out.columns = left.columns;
    return out;
  }
  out.columns = left.columns;
  std::unordered_set<std::string> dropped;
  if (coalesce) {
    // One column per key pair: the right key's names resolve to the kept column.
    for (size_t i = 0; i < left_on.size(); ++i) {
      const std::string l = left_on[i].node().names[0];
      const std::string r = right_on[i].node().names[0];
      const BoundColumn* rb = right.by_internal(r);
      if (how == JoinType::Right) {
        dropped.insert(l);
        continue;
      }
      dropped.insert(r);
      for (auto& c : out.columns)
        if (c.internal == l && rb)
          for (const auto& q : rb->qualifiers) c.qualifiers.push_back(q);
    }
    if (how == JoinType::Right) {
      // Polars keeps the right keys under the left names' positions; rebuild the columns.
      std::vector<BoundColumn> cols;
      for (const auto& c : left.columns)
        if (!dropped.count(c.internal)) cols.push_back(c);
      for (const auto& c : right.columns) cols.push_back(c);
      for (size_t i = 0; i < left_on.size(); ++i) {
        const BoundColumn* lb = left.by_internal(left_on[i].node().names[0]);
        for (auto& c : cols)
          if (c.internal == right_on[i].node().names[0] && lb)
            for (const auto& q : lb->qualifiers) c.qualifiers.push_back(q);
      }
      for (auto& c : cols)
        if (left.by_internal(c.internal)) c.non_null = false;
      out.columns = std::move(cols);
      out.refresh_dtypes();
      return out;
    }
  }
  for (const auto& c : right.columns)
    if (!dropped.count(c.internal)) out.columns.push_back(c);
  // The unmatched rows of outer joins hold nulls on the other side.
  const size_t n_left = left.columns.size();
  for (size_t k = 0; k < out.columns.size(); ++k) {
    const bool from_left = k < n_left;
    if ((how == JoinType::Left && !from_left) || (how == JoinType::Right && from_left) || how == JoinType::Full)
      out.columns[k].non_null = false;
  }
  out.refresh_dtypes();
  return out;
}

// a CROSS JOIN UNNEST(a.list_col) AS t(x): the left rows, one per element, x the element.
Relation Translator::unnest_join(Relation left, const PgQuery__RangeFunction* rf, const Scope* outer) {
  const auto* fc = rf->functions[0]->list->items[0]->func_call;
  if (fc->n_args != 1) fail(ErrorKind::SQLInterface, fc->location, "UNNEST() takes one list column here");
  Scope s;
  s.rel = &left;
  s.outer = outer;
  s.clause = "UNNEST";
  Expr list = expr(fc->args[0], s);
  std::string alias = rf->alias && rf->alias->aliasname ? rf->alias->aliasname : "unnest";
  std::string column = rf->alias && rf->alias->n_colnames > 0 ? string_of(rf->alias->colnames[0]) : alias;
  const std::string internal = left.fresh_internal(column);
  left.frame = left.frame.with_columns({list.alias(internal)}).explode({internal});
  BoundColumn b;
  b.qualifiers = {alias};
  b.name = column;
  b.internal = internal;
  left.columns.push_back(b);
  left.refresh_dtypes();
  return left;
}

}  // namespace frazil::sql
