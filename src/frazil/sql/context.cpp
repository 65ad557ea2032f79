// The statements a Context runs: queries through the Translator, and the statements that
// change or show the context's tables.
#include "frazil/sql/context.hpp"

#include <memory>

#include "frazil/core/builder.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/sql/dialect.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/literals.hpp"
#include "frazil/sql/parse.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

namespace {

class ContextTables : public TableSource {
 public:
  explicit ContextTables(const std::map<std::string, LazyFrame>& tables) : tables_(tables) {}
  std::optional<LazyFrame> table(const std::string& name) const override {
    auto it = tables_.find(name);
    if (it == tables_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> table_names() const override {
    std::vector<std::string> out;
    for (const auto& [k, v] : tables_) out.push_back(k);
    return out;
  }

 private:
  const std::map<std::string, LazyFrame>& tables_;
};

DataFrame string_column(const std::string& name, const std::vector<std::string>& values) {
  ViewBuilder b;
  for (const auto& v : values) b.push(v);
  return DataFrame({Column(name, b.finish())});
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The visible columns of a query's result (hidden helpers dropped) under their SQL names.
LazyFrame result_frame(const Relation& r) {
  std::vector<dsl::Expr> sel;
  bool identity = true;
  size_t visible = 0;
  const Schema schema = r.frame.collect_schema();
  for (const auto& c : r.columns) {
    if (c.hidden) {
      identity = false;
      continue;
    }
    ++visible;
    if (c.internal != c.name) identity = false;
    sel.push_back(c.internal == c.name ? dsl::col(c.internal) : dsl::col(c.internal).alias(c.name));
  }
  if (identity && visible == schema.size()) return r.frame;
  return r.frame.select(sel);
}

std::string relation_name(const PgQuery__RangeVar* rv) { return rv && rv->relname ? rv->relname : ""; }

}  // namespace

void Context::register_frame(const std::string& name, LazyFrame frame) {
  tables_.insert_or_assign(name, std::move(frame));
}

void Context::register_frame(const std::string& name, DataFrame frame) {
  register_frame(name, LazyFrame::from_frame(std::move(frame)));
}

bool Context::unregister(const std::string& name) { return tables_.erase(name) > 0; }

std::vector<std::string> Context::tables() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : tables_) out.push_back(k);
  return out;
}

std::optional<LazyFrame> Context::table(const std::string& name) const {
  auto it = tables_.find(name);
  if (it == tables_.end()) return std::nullopt;
  return it->second;
}

// The SQL entry points run on a large stack (core/stack.hpp): libpg_query's tree walks and
// the translator recurse over the query's nesting, which ParsedSql bounds by the stack left.
LazyFrame Context::execute(const std::string& sql) {
  return run_on_large_stack([&] { return execute_here(sql); });
}

LazyFrame Context::execute_here(const std::string& sql) {
  ParsedSql parsed(sql);
  std::optional<LazyFrame> result;
  for (size_t i = 0; i < parsed.size(); ++i) {
    const PgNode* stmt = parsed.statement(i);
    ContextTables source(tables_);
    Translator tr(source, parsed.dialect());
    auto fail = [&](const std::string& message) {
      tr.fail(ErrorKind::SQLInterface, parsed.statement_location(i), message);
    };
    auto response = [&](const std::string& text) { return LazyFrame::from_frame(string_column("Response", {text})); };
    switch (stmt->node_case) {
      case PG_QUERY__NODE__NODE_SELECT_STMT: {
        Relation r = tr.query(stmt, nullptr);
        result = result_frame(r);
        break;
      }
      case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT: {
        const auto* c = stmt->create_table_as_stmt;
        const std::string name = relation_name(c->into->rel);
        if (c->if_not_exists && tables_.count(name)) fail("relation '" + name + "' already exists");
        Relation r = tr.query(c->query, nullptr);
        if (c->into->n_col_names > 0) {
          size_t k = 0;
          for (auto& col : r.columns)
            if (!col.hidden && k < c->into->n_col_names) col.name = string_of(c->into->col_names[k++]);
        }
        LazyFrame lf = result_frame(r);
        // A table is data: computed now, as Polars' SQL does.
        if (c->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) lf = LazyFrame::from_frame(lf.collect());
        tables_.insert_or_assign(name, lf);
        result = response("CREATE TABLE " + name);
        break;
      }
      case PG_QUERY__NODE__NODE_VIEW_STMT: {
        const auto* v = stmt->view_stmt;
        const std::string name = relation_name(v->view);
        if (tables_.count(name) && !v->replace) fail("relation '" + name + "' already exists; use CREATE OR REPLACE VIEW");
        Relation r = tr.query(v->query, nullptr);
        if (v->n_aliases > 0) {
          size_t k = 0;
          const size_t visible = std::count_if(r.columns.begin(), r.columns.end(), [](const BoundColumn& b) { return !b.hidden; });
          if (v->n_aliases > visible)
            fail("view '" + name + "' names " + std::to_string(v->n_aliases) + " columns but its query has " + std::to_string(visible));
          for (auto& col : r.columns)
            if (!col.hidden && k < v->n_aliases) col.name = string_of(v->aliases[k++]);
        }
        tables_.insert_or_assign(name, result_frame(r));
        result = response("CREATE VIEW " + name);
        break;
      }
      case PG_QUERY__NODE__NODE_CREATE_STMT: {
        const auto* c = stmt->create_stmt;
        const std::string name = relation_name(c->relation);
        if (tables_.count(name)) {
          if (c->if_not_exists) {
            result = response("CREATE TABLE " + name);
            break;
          }
          fail("relation '" + name + "' already exists");
        }
        std::vector<Field> fields;
        for (size_t k = 0; k < c->n_table_elts; ++k) {
          const PgNode* e = c->table_elts[k];
          if (e->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF) fail("only column definitions are supported in CREATE TABLE");
          const auto* cd = e->column_def;
          std::string type;
          for (size_t t = 0; t < cd->type_name->n_names; ++t) {
            std::string part = string_of(cd->type_name->names[t]);
            if (part != "pg_catalog") type = part;
          }
          std::vector<int64_t> mods;
          for (size_t t = 0; t < cd->type_name->n_typmods; ++t)
            if (auto m = const_int(cd->type_name->typmods[t])) mods.push_back(*m);
          auto dt = sql_type(type, mods);
          if (!dt) tr.fail(ErrorKind::SQLInterface, cd->location, "unknown data type '" + type + "'" + did_you_mean(type, sql_type_names()));
          fields.push_back(Field{cd->colname, *dt});
        }
        tables_.insert_or_assign(name, LazyFrame::from_frame(DataFrame::empty_with_schema(Schema(fields))));
        result = response("CREATE TABLE " + name);
        break;
      }
      case PG_QUERY__NODE__NODE_DROP_STMT: {
        const auto* d = stmt->drop_stmt;
        if (d->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE && d->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_VIEW)
          fail("only DROP TABLE and DROP VIEW are supported");
        for (size_t k = 0; k < d->n_objects; ++k) {
          const PgNode* o = d->objects[k];
          std::string name;
          if (o->node_case == PG_QUERY__NODE__NODE_LIST && o->list->n_items > 0)
            name = string_of(o->list->items[o->list->n_items - 1]);
          if (!tables_.erase(name) && !d->missing_ok) fail("table '" + name + "' does not exist" + did_you_mean(name, tables()));
        }
        result = LazyFrame::from_frame(DataFrame());
        break;
      }
      case PG_QUERY__NODE__NODE_DELETE_STMT: {
        // DELETE FROM t [WHERE p]: t without the rows where p holds (the table itself is
        // left as it is, as in Polars' SQL).
        const auto* d = stmt->delete_stmt;
        if (d->n_using_clause) fail("DELETE does not support the USING clause");
        if (d->n_returning_list) fail("DELETE does not support the RETURNING clause");
        const std::string name = relation_name(d->relation);
        auto rel = tr.named_table(name, d->relation->alias && d->relation->alias->aliasname ? d->relation->alias->aliasname : "");
        if (!rel) fail("table '" + name + "' does not exist" + did_you_mean(name, tables()));
        if (!d->where_clause) {
          result = LazyFrame::from_frame(DataFrame::empty_with_schema(rel->frame.collect_schema()));
          break;
        }
        Scope scope;
        scope.rel = &*rel;
        scope.clause = "DELETE";
        dsl::Expr p = tr.expr(d->where_clause, scope);
        rel->frame = rel->frame.filter(p.fill_null(dsl::lit(false)).not_());
        result = result_frame(*rel);
        break;
      }
      case PG_QUERY__NODE__NODE_TRUNCATE_STMT: {
        const auto* t = stmt->truncate_stmt;
        if (t->n_relations != 1) fail("TRUNCATE expects exactly one table name");
        const std::string name = relation_name(t->relations[0]->range_var);
        auto it = tables_.find(name);
        if (it == tables_.end()) fail("table '" + name + "' does not exist" + did_you_mean(name, tables()));
        it->second = LazyFrame::from_frame(DataFrame::empty_with_schema(it->second.collect_schema()));
        result = it->second;
        break;
      }
      case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT: {
        const std::string what = lower(stmt->variable_show_stmt->name ? stmt->variable_show_stmt->name : "");
        if (what != "tables") fail("SHOW " + what + " is not supported; SHOW TABLES is");
        result = LazyFrame::from_frame(string_column("name", tables()));
        break;
      }
      case PG_QUERY__NODE__NODE_EXPLAIN_STMT: {
        const auto* e = stmt->explain_stmt;
        bool describe = false;
        for (size_t k = 0; k < e->n_options; ++k) {
          const PgNode* o = e->options[k];
          if (o->node_case == PG_QUERY__NODE__NODE_DEF_ELEM && o->def_elem->defname &&
              std::string(o->def_elem->defname) == kDescribeOption)
            describe = true;
          else
            fail("EXPLAIN options are not supported");
        }
        Relation r = tr.query(e->query, nullptr);
        LazyFrame lf = result_frame(r);
        if (describe) {
          const Schema schema = lf.collect_schema();
          std::vector<std::string> names, types;
          for (const auto& f : schema.fields()) {
            names.push_back(f.name);
            types.push_back(f.dtype.to_string());
          }
          DataFrame a = string_column("column_name", names);
          DataFrame b = string_column("column_type", types);
          result = LazyFrame::from_frame(DataFrame({a.column(0), b.column(0)}));
        } else {
          std::string plan = lf.explain(true);
          std::vector<std::string> lines;
          size_t start = 0;
          while (start <= plan.size()) {
            size_t nl = plan.find('\n', start);
            if (nl == std::string::npos) nl = plan.size();
            if (nl > start) lines.push_back(plan.substr(start, nl - start));
            start = nl + 1;
          }
          result = LazyFrame::from_frame(string_column("Logical Plan", lines));
        }
        break;
      }
      default: {
        std::string text = parsed.source().original();
        auto pieces = split_statements(text);
        std::string shown = i < pieces.size() ? pieces[i] : text;
        const size_t a = shown.find_first_not_of(" \t\r\n");
        const size_t b = shown.find_last_not_of(" \t\r\n;");
        if (a != std::string::npos) shown = shown.substr(a, b - a + 1);
        throw SQLInterfaceError("'" + shown + "' operation is currently unsupported");
      }
    }
  }
  return *result;
}

}  // namespace frazil::sql

namespace frazil::sql {

std::vector<std::string> split_statements(const std::string& sql) {
  PgQuerySplitResult result = pg_query_split_with_scanner(sql.c_str());
  std::unique_ptr<PgQuerySplitResult, void (*)(PgQuerySplitResult*)> guard(
      &result, [](PgQuerySplitResult* r) { pg_query_free_split_result(*r); });
  if (result.error) {
    const int32_t at = result.error->cursorpos > 0 ? result.error->cursorpos - 1 : -1;
    fail_at(ErrorKind::SQLSyntax, SourceText(sql), at, std::string("SQL syntax error: ") + result.error->message);
  }
  std::vector<std::string> out;
  for (int i = 0; i < result.n_stmts; ++i) {
    std::string text = sql.substr(result.stmts[i]->stmt_location, result.stmts[i]->stmt_len);
    if (text.find_first_not_of(" \t\r\n") != std::string::npos) out.push_back(text);
  }
  return out;
}

static std::vector<std::string> referenced_tables_here(const std::string& sql) {
  ParsedSql parsed(sql);
  std::vector<std::string> names, ctes;
  for (size_t i = 0; i < parsed.size(); ++i) {
    walk_nodes(parsed.statement(i), [&](const PgNode* n) {
      if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR && n->range_var->relname) names.push_back(n->range_var->relname);
      if (n->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR && n->common_table_expr->ctename)
        ctes.push_back(n->common_table_expr->ctename);
      return true;
    });
  }
  std::vector<std::string> out;
  for (const auto& n : names)
    if (std::find(ctes.begin(), ctes.end(), n) == ctes.end() && std::find(out.begin(), out.end(), n) == out.end())
      out.push_back(n);
  return out;
}

std::vector<std::string> referenced_tables(const std::string& sql) {
  return run_on_large_stack([&] { return referenced_tables_here(sql); });
}

namespace {

// sql_expr() text that holds a clause or more than one expression: named as Polars does.
void check_expression_text(const std::string& sql) {
  PgQueryScanResult result = pg_query_scan(sql.c_str());
  std::unique_ptr<PgQueryScanResult, void (*)(PgQueryScanResult*)> guard(
      &result, [](PgQueryScanResult* r) { pg_query_free_scan_result(*r); });
  if (result.error) throw SQLInterfaceError("unable to parse '" + sql + "' as Expr");
  PgQuery__ScanResult* tree =
      pg_query__scan_result__unpack(nullptr, result.pbuf.len, reinterpret_cast<const uint8_t*>(result.pbuf.data));
  if (!tree) throw SQLInterfaceError("unable to parse '" + sql + "' as Expr");
  std::unique_ptr<PgQuery__ScanResult, void (*)(PgQuery__ScanResult*)> tree_guard(
      tree, [](PgQuery__ScanResult* t) { pg_query__scan_result__free_unpacked(t, nullptr); });
  static const char* const clauses[] = {"select", "from",  "where",   "group", "having", "order", "limit", "offset",
                                        "fetch",  "union", "except",  "intersect", "into", "with", "explain",
                                        "window", "qualify"};
  int depth = 0;
  bool after_alias = false;
  for (size_t i = 0; i < tree->n_tokens; ++i) {
    const auto* t = tree->tokens[i];
    if (t->token == PG_QUERY__TOKEN__SQL_COMMENT || t->token == PG_QUERY__TOKEN__C_COMMENT) continue;
    std::string text = sql.substr(t->start, t->end - t->start);
    std::string word = lower(text);
    if (t->token == '(' || t->token == '[') ++depth;
    if (t->token == ')' || t->token == ']') --depth;
    if (depth != 0) continue;
    for (const char* c : clauses)
      if (word == c && (t->keyword_kind != 0 || t->token == PG_QUERY__TOKEN__IDENT)) {
        std::string upper = text;
        for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        throw SQLInterfaceError("expected an expression (found '" + upper + "' clause)");
      }
    if (t->token == ',' || t->token == ';' || (after_alias && t->token != PG_QUERY__TOKEN__IDENT))
      throw SQLInterfaceError("invalid expression (found unexpected token '" + text + "')");
    if (t->token == PG_QUERY__TOKEN__AS) {
      after_alias = true;
      ++i;  // the alias itself
    }
  }
}

}  // namespace

static dsl::Expr sql_expr_here(const std::string& sql) {
  check_expression_text(sql);
  std::optional<ParsedSql> parsed_or;
  try {
    parsed_or.emplace("SELECT " + sql);
  } catch (const SQLSyntaxError&) {
    throw SQLInterfaceError("unable to parse '" + sql + "' as Expr");
  }
  ParsedSql& parsed = *parsed_or;
  const PgNode* stmt = parsed.statement(0);
  if (parsed.size() != 1 || stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw SQLSyntaxError("unable to parse '" + sql + "' as an expression");
  const auto* s = stmt->select_stmt;
  if (s->n_target_list != 1 || s->n_from_clause || s->where_clause || s->n_group_clause || s->n_sort_clause ||
      s->limit_count)
    throw SQLSyntaxError("unable to parse '" + sql + "' as one expression");
  std::map<std::string, LazyFrame> none;
  ContextTables source(none);
  Translator tr(source, parsed.dialect());
  Relation empty(LazyFrame::from_frame(DataFrame()));
  Scope scope;
  scope.rel = &empty;
  scope.free_columns = true;
  scope.aggregates_allowed = true;
  scope.windows_allowed = true;
  scope.clause = "an expression";
  const auto* t = s->target_list[0]->res_target;
  if (t->val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
      t->val->column_ref->fields[t->val->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
    throw SQLInterfaceError("unable to parse '" + sql + "' as Expr");
  dsl::Expr e = tr.expr(t->val, scope);
  if (t->name && *t->name) e = e.alias(t->name);
  return e;
}

dsl::Expr sql_expr(const std::string& sql) {
  return run_on_large_stack([&] { return sql_expr_here(sql); });
}

}  // namespace frazil::sql
