// SELECT: FROM/WHERE, then GROUP BY/HAVING or the plain projection, then QUALIFY,
// DISTINCT [ON], ORDER BY and LIMIT/OFFSET over the projected columns.
#include <unordered_set>

#include "frazil/dsl/struct_namespace.hpp"
#include "frazil/sql/dialect.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using dsl::col;
using dsl::lit;

Translator::Translator(const TableSource& tables, const DialectRewrite& dialect) : tables_(tables), dialect_(dialect) {}

void Translator::fail(ErrorKind kind, int32_t location, const std::string& message) const {
  fail_at(kind, dialect_.source, location, message);
}

void Translator::unsupported(const PgNode* node, const std::string& what) const {
  fail(ErrorKind::SQLInterface, node_location(node), what + " is not supported");
}

std::string Translator::temp_name(const std::string& what) { return "__sql_" + what + "_" + std::to_string(counter_++); }

Relation Translator::query(const PgNode* node, const Scope* outer) {
  if (!node || node->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    unsupported(node, node ? "a " + node_kind_name(node) + " where a query is expected" : std::string("an empty query"));
  return select_stmt(node->select_stmt, outer);
}

Relation Translator::select_stmt(const PgQuery__SelectStmt* s, const Scope* outer) {
  const size_t mark = ctes.size();
  if (s->with_clause) {
    if (s->with_clause->recursive)
      fail(ErrorKind::SQLInterface, s->with_clause->location, "WITH RECURSIVE is not supported");
    for (size_t i = 0; i < s->with_clause->n_ctes; ++i) {
      const auto* cte = s->with_clause->ctes[i]->common_table_expr;
      Relation r = query(cte->ctequery, outer);
      if (cte->n_aliascolnames > 0) {
        const size_t visible = std::count_if(r.columns.begin(), r.columns.end(), [](const BoundColumn& c) { return !c.hidden; });
        if (cte->n_aliascolnames > visible)
          fail(ErrorKind::SQLInterface, cte->location,
               "WITH " + std::string(cte->ctename) + " names " + std::to_string(cte->n_aliascolnames) +
                   " columns but its query has " + std::to_string(visible));
        size_t k = 0;
        for (auto& c : r.columns)
          if (!c.hidden && k < cte->n_aliascolnames) c.name = string_of(cte->aliascolnames[k++]);
      }
      ctes.emplace_back(cte->ctename, std::move(r));
    }
  }
  std::optional<Relation> out;
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE && s->op != PG_QUERY__SET_OPERATION__SET_OPERATION_UNDEFINED)
    out = set_operation(s, outer);
  else if (s->n_values_lists > 0)
    out = values_list(s, outer);
  else
    out = simple_select(s, outer);
  ctes.erase(ctes.begin() + static_cast<std::ptrdiff_t>(mark), ctes.end());
  return std::move(*out);
}

namespace {

const PgNode* qualify_of(const PgQuery__SelectStmt* s) {
  for (size_t i = 0; i < s->n_window_clause; ++i) {
    const auto* w = s->window_clause[i]->window_def;
    if (w->name && std::string(w->name) == kQualifyWindow && w->n_partition_clause == 1) return w->partition_clause[0];
  }
  return nullptr;
}

bool is_star(const PgNode* n) {
  if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return false;
  const auto* c = n->column_ref;
  return c->n_fields > 0 && c->fields[c->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

bool is_wildcard_options(const PgNode* n) {
  if (!n || n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return false;
  const auto* f = n->func_call;
  return f->n_funcname == 1 && string_of(f->funcname[0]) == kWildcardOptions;
}

}  // namespace

Relation Translator::simple_select(const PgQuery__SelectStmt* s, const Scope* outer) {
  if (s->into_clause) fail(ErrorKind::SQLInterface, -1, "SELECT INTO is not supported; use CREATE TABLE ... AS");
  if (s->n_locking_clause) fail(ErrorKind::SQLInterface, -1, "FOR UPDATE/SHARE is not supported");
  auto saved_windows = windows_;
  auto saved_specs = std::move(window_specs_);
  window_specs_.clear();
  windows_.clear();
  for (size_t i = 0; i < s->n_window_clause; ++i) {
    const auto* w = s->window_clause[i]->window_def;
    if (!(w->name && std::string(w->name) == kQualifyWindow)) windows_.push_back(w);
  }
  std::vector<const PgNode*> where;
  split_conjuncts(s->where_clause, where);
  Relation rel = from_clause(s, outer, where);
  rel = filter_conjuncts(std::move(rel), where, outer, "WHERE");

  const bool grouped_query = is_aggregate_query(s);
  GroupedExprs grouped;
  std::vector<const PgNode*> key_nodes;
  std::optional<Relation> post;
  if (grouped_query) post = aggregate(s, std::move(rel), outer, grouped, key_nodes);
  Relation& base = grouped_query ? *post : rel;

  Scope scope;
  scope.rel = &base;
  scope.outer = outer;
  scope.grouped = grouped_query ? &grouped : nullptr;
  scope.clause = "SELECT";
  scope.windows_allowed = true;
  std::vector<SelectItem> items = select_list(s, scope, true);

  if (grouped_query && s->having_clause) {
    std::vector<const PgNode*> having;
    split_conjuncts(s->having_clause, having);
    base = filter_conjuncts(std::move(base), having, outer, "HAVING", &grouped, &items);
    // Items were translated against the frame before HAVING: their columns are unchanged.
  }
  // QUALIFY reads window functions too: translated before the frame is prepared for them.
  std::optional<Expr> qualify;
  if (const PgNode* q = qualify_of(s)) {
    Scope qs = scope;
    qs.select_items = &items;
    qs.clause = "QUALIFY";
    qualify = expr(q, qs);
    bool windowed = !window_specs_.empty();
    visit_expr(*qualify, [&](const Expr& x) {
      if (x.kind() == dsl::ExprKind::Window) windowed = true;
      return !windowed;
    });
    if (!windowed) {
      for (const auto& it : items)
        visit_expr(it.expr, [&](const Expr& x) {
          if (x.kind() == dsl::ExprKind::Window) windowed = true;
          return !windowed;
        });
    }
    if (!windowed) fail(ErrorKind::SQLSyntax, node_location(q), "QUALIFY clause must reference window functions");
  }
  prepare_window_frame(base);
  Scope* pre = &scope;
  Relation out = order_and_limit(s, std::move(base), &items, pre, outer, qualify);
  windows_ = saved_windows;
  window_specs_ = std::move(saved_specs);
  return out;
}

std::vector<SelectItem> Translator::struct_star(const PgQuery__ColumnRef* c, Scope& scope) {
  std::vector<std::string> parts;
  for (size_t k = 0; k + 1 < c->n_fields; ++k) parts.push_back(string_of(c->fields[k]));
  const ColumnPath path = column_path(parts, scope);
  Expr base = named_column(c->location, path.qualifier, path.name, scope);
  DataType t = dtype_of(base, scope);
  for (const std::string& f : path.fields) {
    base = base.struct_().field(f);
    t = dtype_of(base, scope);
  }
  if (t.id() != TypeId::Struct)
    fail(ErrorKind::SQLSyntax, c->location, "cannot expand '*' on non-Struct dtype; found " + dtype_display(t));
  std::vector<SelectItem> items;
  for (const Field& f : t.fields()) {
    SelectItem item;
    item.expr = base.struct_().field(f.name);
    item.name = f.name;
    item.star = true;
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<SelectItem> Translator::select_list(const PgQuery__SelectStmt* s, Scope& scope, bool star_allowed) {
  std::vector<SelectItem> items;
  if (s->n_target_list == 0) fail(ErrorKind::SQLSyntax, -1, "SQL syntax error: a SELECT needs at least one column");
  for (size_t i = 0; i < s->n_target_list; ++i) {
    const auto* t = s->target_list[i]->res_target;
    const PgNode* v = t->val;
    if (is_wildcard_options(v)) fail(ErrorKind::SQLSyntax, t->location, "wildcard options must follow `*`");
    if (is_star(v)) {
      if (!star_allowed) fail(ErrorKind::SQLInterface, t->location, "`*` is not allowed here");
      const auto* c = v->column_ref;
      std::string qualifier = c->n_fields >= 2 ? string_of(c->fields[c->n_fields - 2]) : "";
      // s.* / t.s.field.*: a struct's fields, each as an item (t.* and schema.t.* are tables).
      if (c->n_fields >= 2 && !scope.rel->has_qualifier(qualifier)) {
        std::vector<SelectItem> fields = struct_star(c, scope);
        if (i + 1 < s->n_target_list && is_wildcard_options(s->target_list[i + 1]->res_target->val)) {
          apply_wildcard_options(fields, s->target_list[i + 1]->res_target->val->func_call, scope);
          ++i;
        }
        for (auto& it : fields) items.push_back(std::move(it));
        continue;
      }
      if (!qualifier.empty() && !scope.rel->has_qualifier(qualifier)) {
        std::vector<std::string> quals;
        for (const auto& b : scope.rel->columns)
          for (const auto& q : b.qualifiers) quals.push_back(q);
        fail(ErrorKind::SQLInterface, c->location, "no table or struct column named '" + qualifier + "' found" + did_you_mean(qualifier, quals));
      }
      std::vector<SelectItem> star;
      for (const auto& b : scope.rel->columns) {
        if (b.hidden || (b.qualified_only && qualifier.empty())) continue;
        if (!qualifier.empty()) {
          bool match = false;
          for (const auto& q : b.qualifiers) match = match || iequals(q, qualifier);
          if (!match) continue;
        }
        SelectItem item;
        item.expr = col(b.internal);
        // The SQL name (name_outputs() gives the frame's name to the later of two equal ones).
        item.name = b.name;
        item.star = true;
        item.qualified_star = !qualifier.empty();
        item.plain_column = true;
        item.source = b.internal;
        // After GROUP BY, `*` means the grouping columns.
        star.push_back(std::move(item));
      }
      if (i + 1 < s->n_target_list && is_wildcard_options(s->target_list[i + 1]->res_target->val)) {
        apply_wildcard_options(star, s->target_list[i + 1]->res_target->val->func_call, scope);
        ++i;
      }
      for (auto& it : star) items.push_back(std::move(it));
      continue;
    }
    if (auto cols = columns_expansion(v, scope)) {
      // COLUMNS(...): the item once per column it selects, named after that column.
      const bool bare = v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL;
      for (const std::string& internal : *cols) {
        Scope one = scope;
        one.columns_subst = &internal;
        SelectItem item;
        item.node = v;
        item.expr = expr(v, one);
        const BoundColumn* b = scope.rel->by_internal(internal);
        item.plain_column = bare && item.expr.kind() == dsl::ExprKind::Column;
        if (item.plain_column) item.source = internal;
        if (t->name && *t->name && cols->size() == 1) {
          item.name = t->name;
          item.explicit_alias = true;
        } else {
          item.name = b ? b->name : internal;
        }
        items.push_back(std::move(item));
      }
      continue;
    }
    SelectItem item;
    item.node = v;
    item.expr = expr(v, scope);
    item.plain_column = v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && item.expr.kind() == dsl::ExprKind::Column;
    if (t->name && *t->name) {
      item.name = t->name;
      item.explicit_alias = true;
    } else if (item.plain_column) {
      // A column is named as SQL names it, not as the frame does after a join's renames.
      item.source = item.expr.node().names[0];
      const BoundColumn* b = scope.rel->by_internal(item.source);
      item.name = b && !b->hidden ? b->name : output_name(item.expr, scope);
    } else {
      item.name = output_name(item.expr, scope);
    }
    // A helper column's name (a subquery's value) is no name for an output.
    if (!item.explicit_alias && item.name.rfind("__sql_", 0) == 0) item.name = "literal";
    items.push_back(std::move(item));
  }
  name_outputs(items);
  return items;
}

// * EXCLUDE (..) ILIKE '..' RENAME (a AS b) REPLACE (expr AS c), in the order given.
void Translator::apply_wildcard_options(std::vector<SelectItem>& star, const PgQuery__FuncCall* f, Scope& scope) {
  std::string option;
  bool seen_exclude = false, seen_ilike = false, seen_except_alias = false;
  (void)seen_except_alias;
  auto find_item = [&](const std::string& name, int32_t location) -> size_t {
    for (size_t k = 0; k < star.size(); ++k)
      if (star[k].name == name) return k;
    for (size_t k = 0; k < star.size(); ++k)
      if (iequals(star[k].name, name)) return k;
    std::vector<std::string> names;
    for (const auto& it : star) names.push_back(it.name);
    fail(ErrorKind::ColumnNotFound, location, "column '" + name + "' not found in `*`" + did_you_mean(name, names));
  };
  auto name_of = [&](const PgNode* n) -> std::string {
    if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) return string_of(n->column_ref->fields[n->column_ref->n_fields - 1]);
    if (auto s = const_string(n)) return *s;
    fail(ErrorKind::SQLSyntax, node_location(n), "a column name is expected here");
  };
  std::vector<size_t> excluded;
  for (size_t i = 0; i < f->n_args; ++i) {
    const PgNode* a = f->args[i];
    // Option keywords arrive as string constants ('exclude', ...) before their arguments.
    if (a->node_case == PG_QUERY__NODE__NODE_A_CONST && i + 0 < f->n_args && const_string(a) &&
        (option.empty() || *const_string(a) == "exclude" || *const_string(a) == "rename" ||
         *const_string(a) == "replace" || *const_string(a) == "ilike") &&
        (option != "ilike")) {
      const std::string next = *const_string(a);
      if (next == "exclude" || next == "rename" || next == "replace" || next == "ilike") {
        if (next == "exclude" && seen_exclude)
          fail(ErrorKind::SQLInterface, node_location(a), "EXCLUDE and EXCEPT wildcard options cannot be used together");
        if ((next == "exclude" && seen_ilike) || (next == "ilike" && seen_exclude))
          fail(ErrorKind::SQLInterface, node_location(a), "ILIKE cannot be used together with EXCLUDE");
        seen_exclude = seen_exclude || next == "exclude";
        seen_ilike = seen_ilike || next == "ilike";
        option = next;
        continue;
      }
    }
    if (option == "exclude") {
      const size_t k = find_item(name_of(a), node_location(a));
      excluded.push_back(k);
    } else if (option == "ilike") {
      auto pattern = const_string(a);
      if (!pattern) fail(ErrorKind::SQLSyntax, node_location(a), "ILIKE needs a string pattern");
      std::vector<SelectItem> kept;
      for (auto& it : star)
        if (like_matches(it.name, *pattern, true)) kept.push_back(it);
      star = std::move(kept);
      option.clear();
    } else if (option == "rename") {
      if (i + 1 >= f->n_args) fail(ErrorKind::SQLSyntax, node_location(a), "RENAME needs `old AS new`");
      const size_t k = find_item(name_of(a), node_location(a));
      star[k].name = name_of(f->args[++i]);
      star[k].explicit_alias = true;
    } else if (option == "replace") {
      if (i + 1 >= f->n_args) fail(ErrorKind::SQLSyntax, node_location(a), "REPLACE needs `expr AS column`");
      const std::string target = name_of(f->args[i + 1]);
      const size_t k = find_item(target, node_location(f->args[i + 1]));
      star[k].expr = expr(a, scope);
      star[k].node = a;
      star[k].plain_column = false;
      ++i;
    } else {
      fail(ErrorKind::SQLSyntax, node_location(a), "unexpected wildcard option argument");
    }
  }
  if (!excluded.empty()) {
    std::vector<SelectItem> kept;
    for (size_t k = 0; k < star.size(); ++k)
      if (std::find(excluded.begin(), excluded.end(), k) == excluded.end()) kept.push_back(std::move(star[k]));
    star = std::move(kept);
  }
}

// Output names as Polars' SQL gives them: an explicit alias wins; a bare column selected
// twice is an error; other derived names that collide get ":1", ":2", ...
void Translator::name_outputs(std::vector<SelectItem>& items) const {
  // Columns of `*` that share a name (a self-join): the right side's is named as the frame
  // names it (`id:b`), as Polars' SQL does.
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].star || items[i].source == items[i].name || items[i].source.rfind("__sql_", 0) == 0) continue;
    for (size_t k = 0; k < items.size(); ++k)
      if (k != i && items[k].name == items[i].name) {
        items[i].name = items[i].source;
        break;
      }
  }
  std::unordered_set<std::string> explicit_names;
  for (const auto& it : items) {
    if (!it.explicit_alias) continue;
    if (!explicit_names.insert(it.name).second)
      throw ComputeError("column with name '" + it.name + "' has more than one occurrence (duplicate alias in SELECT)");
  }
  std::unordered_set<std::string> taken = explicit_names;
  std::unordered_set<std::string> plain_seen;
  for (auto& it : items) {
    if (it.explicit_alias) continue;
    if (!taken.count(it.name)) {
      taken.insert(it.name);
      if (it.plain_column) plain_seen.insert(it.name);
      continue;
    }
    if (it.plain_column && plain_seen.count(it.name)) {
      bool same = false;
      for (const auto& other : items)
        if (&other != &it && other.plain_column && other.name == it.name && other.source == it.source) same = true;
      if (same) {
        if (it.qualified_star ||
            std::any_of(items.begin(), items.end(), [&](const SelectItem& o) { return o.qualified_star && o.source == it.source; }))
          throw SQLInterfaceError("column '" + it.name + "' is duplicated in the SELECT");
        throw DuplicateError("column with name '" + it.name + "' has more than one occurrence (selected twice)");
      }
      // The same name from another table (a self-join): the frame's name for it.
      if (!taken.count(it.source)) {
        it.name = it.source;
        taken.insert(it.name);
        continue;
      }
    }
    const std::string base = it.name;
    for (int n = 1;; ++n) {
      std::string candidate = base + ":" + std::to_string(n);
      if (!taken.count(candidate)) {
        it.name = candidate;
        taken.insert(candidate);
        break;
      }
    }
  }
}

std::string Translator::output_name(const Expr& e, const Scope& scope) const {
  if (!scope.grouped) return derived_name(e);
  // After GROUP BY: read through the aggregated frame's helper columns.
  Expr original = rewrite_expr(e, [&](const Expr& x) -> std::optional<Expr> {
    if (x.kind() != dsl::ExprKind::Column) return std::nullopt;
    for (const auto& [name, atom] : scope.grouped->atoms)
      if (name == x.node().names[0]) return atom;
    for (const auto& [name, key] : scope.grouped->key_exprs)
      if (name == x.node().names[0]) return key;
    return std::nullopt;
  });
  return derived_name(original);
}

Relation Translator::project(Relation rel, std::vector<SelectItem> items) {
  std::vector<Expr> exprs;
  for (const auto& it : items) {
    const bool same = it.expr.kind() == dsl::ExprKind::Column && it.expr.node().names[0] == it.name;
    exprs.push_back(same ? it.expr : it.expr.alias(it.name));
  }
  // SQL's `SELECT 1 FROM t` has a row per row of t; a select of literals alone has one
  // row in the DataFrame API, so such items are computed beside t's columns first.
  bool reads_rows = false;
  for (const auto& it : items) {
    visit_expr(it.expr, [&](const Expr& x) {
      const auto k = x.kind();
      if (k == dsl::ExprKind::Column || k == dsl::ExprKind::Columns || k == dsl::ExprKind::Wildcard ||
          k == dsl::ExprKind::Nth || k == dsl::ExprKind::Agg || k == dsl::ExprKind::Len)
        reads_rows = true;
      return !reads_rows;
    });
  }
  Relation out(rel.frame);
  if (reads_rows || items.empty()) {
    out.frame = rel.frame.select(exprs);
  } else {
    std::vector<Expr> names;
    for (const auto& it : items) names.push_back(dsl::col(it.name));
    out.frame = rel.frame.with_columns(exprs).select(names);
  }
  const Schema schema = out.frame.collect_schema();
  for (size_t i = 0; i < items.size(); ++i) {
    BoundColumn c;
    c.name = items[i].name;
    c.internal = items[i].name;
    c.dtype = schema.field(i).dtype;
    c.hidden = items[i].name.rfind("__sql_", 0) == 0;
    c.non_null = known_non_null(items[i].expr, rel);
    out.columns.push_back(std::move(c));
  }
  return out;
}

std::optional<int64_t> Translator::limit_value(const PgNode* node, const char* what) {
  if (!node) return std::nullopt;
  if (node->node_case == PG_QUERY__NODE__NODE_A_CONST && node->a_const->isnull) return std::nullopt;  // LIMIT ALL
  auto v = const_int(node);
  if (!v) fail(ErrorKind::SQLInterface, node_location(node), std::string(what) + " must be an integer literal");
  if (*v < 0) fail(ErrorKind::SQLInterface, node_location(node), std::string(what) + " must not be negative");
  return v;
}

// After the SELECT list: QUALIFY, DISTINCT [ON], ORDER BY and LIMIT/OFFSET, over one
// projection that carries the extra columns they need (then dropped).
Relation Translator::order_and_limit(const PgQuery__SelectStmt* s, Relation rel, const std::vector<SelectItem>* items_in,
                                     Scope* pre, const Scope* outer, std::optional<Expr> qualify_expr) {
  std::vector<SelectItem> items = *items_in;
  const size_t n_out = items.size();
  Scope scope = *pre;
  scope.rel = &rel;
  scope.select_items = items_in;
  scope.clause = "ORDER BY";
  // Each ORDER BY key: an output column's index.
  struct Key {
    size_t index;
    bool descending;
    bool nulls_last;
  };
  std::vector<Key> keys;
  auto add_hidden = [&](const Expr& e, const char* what) {
    for (size_t k = 0; k < items.size(); ++k)
      if (exprs_equal(items[k].expr, e)) return k;
    SelectItem h;
    h.expr = e;
    h.name = temp_name(what);
    items.push_back(std::move(h));
    return items.size() - 1;
  };
  const bool distinct = s->n_distinct_clause > 0;
  const bool distinct_on = distinct && !(s->n_distinct_clause == 1 && s->distinct_clause[0] == nullptr) &&
                           s->distinct_clause[0] && s->distinct_clause[0]->node_case != PG_QUERY__NODE__NODE__NOT_SET;
  for (size_t i = 0; i < s->n_sort_clause; ++i) {
    const auto* sb = s->sort_clause[i]->sort_by;
    if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
      fail(ErrorKind::SQLInterface, sb->location, "ORDER BY ... USING is not supported");
    const bool desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    bool nulls_last = !desc;
    if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST) nulls_last = false;
    if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST) nulls_last = true;
    const PgNode* n = sb->node;
    // ORDER BY ALL: every output column, left to right.
    if (n->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && n->func_call->n_funcname == 1 &&
        string_of(n->func_call->funcname[0]) == kAllMarker) {
      // A column named ALL wins over ORDER BY ALL (as in Polars).
      std::optional<size_t> named;
      for (size_t k = 0; k < n_out && !named; ++k)
        if (iequals(items[k].name, "all")) named = k;
      if (named) {
        keys.push_back({*named, desc, nulls_last});
        continue;
      }
      for (size_t k = 0; k < n_out; ++k) keys.push_back({k, desc, nulls_last});
      continue;
    }
    std::optional<size_t> index;
    if (auto ordinal = const_int(n); ordinal && n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
      if (*ordinal < 0)
        fail(ErrorKind::SQLInterface, sb->location, "negative ordinal values are invalid for ORDER BY; found " + std::to_string(*ordinal));
      if (*ordinal < 1 || static_cast<size_t>(*ordinal) > n_out)
        fail(ErrorKind::SQLInterface, sb->location,
             "ORDER BY ordinal value must refer to a valid column; found " + std::to_string(*ordinal));
      index = static_cast<size_t>(*ordinal - 1);
    }
    if (!index && n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && n->column_ref->n_fields == 1 &&
        n->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
      const std::string name = string_of(n->column_ref->fields[0]);
      for (size_t k = 0; k < n_out && !index; ++k)
        if (items[k].explicit_alias && items[k].name == name) index = k;
      for (size_t k = 0; k < n_out && !index; ++k)
        if (items[k].plain_column && items[k].name == name) index = k;
      for (size_t k = 0; k < n_out && !index; ++k)
        if (items[k].name == name) index = k;
      for (size_t k = 0; k < n_out && !index; ++k)
        if (iequals(items[k].name, name)) index = k;
    }
    for (size_t k = 0; k < n_out && !index; ++k)
      if (items[k].node && nodes_equal(items[k].node, n)) index = k;
    if (!index) {
      Expr e = expr(n, scope);
      for (size_t k = 0; k < n_out && !index; ++k)
        if (exprs_equal(items[k].expr, e)) index = k;
      if (!index) {
        if (distinct && !distinct_on)
          fail(ErrorKind::SQLInterface, sb->location, "for SELECT DISTINCT, ORDER BY expressions must appear in the SELECT list");
        index = add_hidden(e, "sort");
      }
    }
    keys.push_back({*index, desc, nulls_last});
  }
  // QUALIFY: a filter over the projected rows (windows computed over all of them).
  std::optional<size_t> qualify;
  if (qualify_expr) qualify = add_hidden(*qualify_expr, "qualify");
  std::vector<size_t> on_keys;
  if (distinct_on) {
    Scope ds = scope;
    ds.clause = "DISTINCT ON";
    for (size_t i = 0; i < s->n_distinct_clause; ++i) {
      const PgNode* n = s->distinct_clause[i];
      std::optional<size_t> index;
      if (auto ordinal = const_int(n); ordinal && n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
        if (*ordinal < 1 || static_cast<size_t>(*ordinal) > n_out)
          fail(ErrorKind::SQLInterface, node_location(n), "DISTINCT ON position out of range");
        index = static_cast<size_t>(*ordinal - 1);
      }
      for (size_t k = 0; k < n_out && !index; ++k)
        if (items[k].node && nodes_equal(items[k].node, n)) index = k;
      if (!index) index = add_hidden(expr(n, ds), "distinct_on");
      on_keys.push_back(*index);
    }
  }
  Relation out = project(std::move(rel), items);
  auto col_of = [&](size_t k) { return col(out.columns[k].name); };
  if (qualify) out.frame = out.frame.filter(col_of(*qualify));
  if (distinct && !distinct_on) {
    // DISTINCT over the output columns (ORDER BY keys are among them, QUALIFY's is done).
    std::vector<std::string> names;
    std::vector<Expr> visible;
    for (size_t k = 0; k < n_out; ++k) {
      names.push_back(items[k].name);
      visible.push_back(col(items[k].name));
    }
    if (items.size() > n_out) {
      out.frame = out.frame.select(visible);
      out.columns.resize(n_out);
      items.resize(n_out);
    }
    out.frame = out.frame.unique(names, "any", false);
  }
  if (!keys.empty()) {
    std::vector<Expr> by;
    SortArgs args;
    args.descending.clear();
    args.nulls_last.clear();
    for (const auto& k : keys) {
      by.push_back(col(items[k.index].name));
      args.descending.push_back(k.descending);
      args.nulls_last.push_back(k.nulls_last);
    }
    // DISTINCT ON keeps the first row of each group in ORDER BY order.
    args.maintain_order = distinct_on;
    out.frame = out.frame.sort(by, args);
  }
  if (distinct_on) {
    std::vector<std::string> subset;
    for (size_t k : on_keys) subset.push_back(items[k].name);
    out.frame = out.frame.unique(subset, "first", true);
  }
  auto offset = limit_value(s->limit_offset, "OFFSET");
  if (s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES)
    fail(ErrorKind::SQLInterface, node_location(s->limit_count), "`FETCH` with `WITH TIES` is not supported");
  auto count = limit_value(s->limit_count, "LIMIT");
  if (offset || count) out.frame = out.frame.slice(offset.value_or(0), count);
  // Drop the helper columns.
  if (items.size() > n_out) {
    std::vector<Expr> visible;
    for (size_t k = 0; k < n_out; ++k) visible.push_back(col(items[k].name));
    out.frame = out.frame.select(visible);
    out.columns.resize(n_out);
  }
  (void)outer;
  return out;
}

}  // namespace frazil::sql
