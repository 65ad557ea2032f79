// GROUP BY and aggregates: the keys and every aggregate call of the query become one
// group_by().agg() (or a reduction select without GROUP BY) of plain aggregations; SELECT,
// HAVING, ORDER BY and QUALIFY then read the aggregated frame's columns.
#include "frazil/sql/dialect.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/functions.hpp"
#include "frazil/sql/reuse_key_aggregate.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using dsl::col;

std::string function_name_of(const PgQuery__FuncCall* f);
bool is_aggregate_call(const PgQuery__FuncCall* f);

void Translator::collect_aggregates(const PgNode* node, std::vector<const PgNode*>& out) const {
  walk_nodes(node, [&](const PgNode* n) {
    // A subquery's aggregates are its own (its test expression is ours).
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
      if (n->sub_link->testexpr) collect_aggregates(n->sub_link->testexpr, out);
      return false;
    }
    if (n->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && is_aggregate_call(n->func_call)) {
      for (const PgNode* seen : out)
        if (nodes_equal(seen, n)) return false;
      out.push_back(n);
      return false;
    }
    return true;
  });
}

bool Translator::is_aggregate_query(const PgQuery__SelectStmt* s) const {
  if (s->n_group_clause > 0 || s->having_clause) return true;
  std::vector<const PgNode*> found;
  for (size_t i = 0; i < s->n_target_list; ++i) collect_aggregates(s->target_list[i], found);
  for (size_t i = 0; i < s->n_sort_clause; ++i) collect_aggregates(s->sort_clause[i], found);
  return !found.empty();
}

Relation Translator::aggregate(const PgQuery__SelectStmt* s, Relation input, const Scope* outer, GroupedExprs& grouped,
                               std::vector<const PgNode*>& key_nodes, const std::vector<Expr>& extra_keys) {
  Scope in;
  in.rel = &input;
  in.outer = outer;
  in.clause = "GROUP BY";
  // ---- the group keys ----
  auto target_val = [&](size_t i) { return s->target_list[i]->res_target->val; };
  auto has_aggregate = [&](const PgNode* n) {
    std::vector<const PgNode*> a;
    collect_aggregates(n, a);
    bool window = false;
    walk_nodes(n, [&](const PgNode* x) {
      if (x->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && x->func_call->over) window = true;
      return x->node_case != PG_QUERY__NODE__NODE_SUB_LINK;
    });
    return !a.empty() || window;
  };
  for (size_t i = 0; i < s->n_group_clause; ++i) {
    const PgNode* g = s->group_clause[i];
    if (g->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && g->func_call->n_funcname == 1 &&
        string_of(g->func_call->funcname[0]) == kAllMarker) {
      // GROUP BY ALL: every SELECT item without an aggregate.
      for (size_t t = 0; t < s->n_target_list; ++t) {
        const PgNode* v = target_val(t);
        if (v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
            v->column_ref->fields[v->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
          fail(ErrorKind::SQLInterface, v->column_ref->location, "`*` cannot be combined with GROUP BY ALL");
        if (v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && v->func_call->n_funcname == 1 &&
            string_of(v->func_call->funcname[0]) == kWildcardOptions)
          continue;
        if (!has_aggregate(v)) key_nodes.push_back(v);
      }
      continue;
    }
    if (g->node_case == PG_QUERY__NODE__NODE_GROUPING_SET) {
      if (g->grouping_set->kind == PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY) continue;
      unsupported(g, "ROLLUP, CUBE and GROUPING SETS");
    }
    if (auto ordinal = const_int(g); ordinal && g->node_case == PG_QUERY__NODE__NODE_A_CONST) {
      if (*ordinal < 0)
        fail(ErrorKind::SQLInterface, node_location(g), "negative ordinal values are invalid for GROUP BY; found " + std::to_string(*ordinal));
      if (*ordinal < 1 || static_cast<size_t>(*ordinal) > s->n_target_list)
        fail(ErrorKind::SQLInterface, node_location(g),
             "GROUP BY position " + std::to_string(*ordinal) + " is not in the SELECT list (1.." +
                 std::to_string(s->n_target_list) + ")");
      const PgNode* v = target_val(static_cast<size_t>(*ordinal - 1));
      if (has_aggregate(v))
        fail(ErrorKind::SQLInterface, node_location(g), "GROUP BY position " + std::to_string(*ordinal) + " refers to an aggregate");
      key_nodes.push_back(v);
      continue;
    }
    // A SELECT alias that is not an input column.
    if (g->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && g->column_ref->n_fields == 1 &&
        g->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
      const std::string name = string_of(g->column_ref->fields[0]);
      if (input.find("", name).empty()) {
        bool found = false;
        for (size_t t = 0; t < s->n_target_list && !found; ++t) {
          const auto* rt = s->target_list[t]->res_target;
          if (rt->name && iequals(rt->name, name)) {
            if (has_aggregate(rt->val))
              fail(ErrorKind::SQLInterface, node_location(g), "GROUP BY '" + name + "' refers to an aggregate");
            key_nodes.push_back(rt->val);
            found = true;
          }
        }
        if (found) continue;
      }
    }
    key_nodes.push_back(g);
  }
  std::vector<Expr> keys;
  std::vector<std::string> key_names;
  Relation post(input.frame);
  // Keys a decorrelated subquery adds (already named): hidden columns of the result.
  for (const auto& k : extra_keys) {
    keys.push_back(k);
    const std::string name = k.kind() == dsl::ExprKind::Alias ? k.node().names[0] : k.node().names[0];
    key_names.push_back(name);
    BoundColumn b;
    b.name = name;
    b.internal = name;
    b.hidden = true;
    post.columns.push_back(b);
  }
  for (const PgNode* k : key_nodes) {
    Expr e = expr(k, in);
    std::string name;
    if (e.kind() == dsl::ExprKind::Column) {
      name = e.node().names[0];
      bool dup = false;
      for (const auto& n : key_names) dup = dup || n == name;
      grouped.keys.emplace_back(k, name);
      if (dup) continue;
      keys.push_back(e);
      if (const BoundColumn* b = input.by_internal(name)) post.columns.push_back(*b);
    } else {
      bool dup = false;
      for (size_t j = 0; j < keys.size(); ++j)
        if (exprs_equal(keys[j], e)) {
          grouped.keys.emplace_back(k, key_names[j]);
          dup = true;
        }
      if (dup) continue;
      name = temp_name("key");
      keys.push_back(e.alias(name));
      grouped.keys.emplace_back(k, name);
      grouped.key_exprs.emplace_back(name, e);
      BoundColumn b;
      b.name = name;
      b.internal = name;
      b.hidden = true;
      post.columns.push_back(b);
    }
    key_names.push_back(name);
  }
  // ---- the aggregates ----
  std::vector<const PgNode*> calls;
  for (size_t i = 0; i < s->n_target_list; ++i) collect_aggregates(s->target_list[i], calls);
  collect_aggregates(s->having_clause, calls);
  for (size_t i = 0; i < s->n_sort_clause; ++i) collect_aggregates(s->sort_clause[i], calls);
  for (size_t i = 0; i < s->n_window_clause; ++i) collect_aggregates(s->window_clause[i], calls);
  Scope agg_scope = in;
  agg_scope.aggregates_allowed = true;
  agg_scope.clause = "SELECT";
  agg_scope.grouped_rows = !keys.empty();
  std::vector<Expr> atoms;
  std::vector<std::string> atom_names;
  for (const PgNode* call : calls) {
    Expr composite = expr(call, agg_scope);
    Expr post_expr = rewrite_expr(composite, [&](const Expr& e) -> std::optional<Expr> {
      const bool atomic = e.kind() == dsl::ExprKind::Agg || e.kind() == dsl::ExprKind::Len ||
                          (e.kind() == dsl::ExprKind::Function && e.node().function.spec && e.node().function.spec->is_reduction());
      if (!atomic) return std::nullopt;
      for (size_t j = 0; j < atoms.size(); ++j)
        if (exprs_equal(atoms[j], e)) return col(atom_names[j]);
      atoms.push_back(e);
      atom_names.push_back(temp_name("agg"));
      return col(atom_names.back());
    });
    grouped.aggregates.emplace_back(call, post_expr);
  }
  std::vector<Expr> agg_exprs;
  for (size_t j = 0; j < atoms.size(); ++j) grouped.atoms.emplace_back(atom_names[j], atoms[j]);
  for (size_t j = 0; j < atoms.size(); ++j) {
    agg_exprs.push_back(atoms[j].alias(atom_names[j]));
    BoundColumn b;
    b.name = atom_names[j];
    b.internal = atom_names[j];
    b.hidden = true;
    b.non_null = atoms[j].kind() == dsl::ExprKind::Len ||
                 (atoms[j].kind() == dsl::ExprKind::Agg &&
                  (atoms[j].node().agg == compute::AggKind::Count || atoms[j].node().agg == compute::AggKind::Len));
    post.columns.push_back(b);
  }
  if (keys.empty()) {
    if (agg_exprs.empty()) {
      // No aggregate and no key (GROUP BY ()): one row.
      const std::string name = temp_name("agg");
      agg_exprs.push_back(dsl::len().alias(name));
      BoundColumn b;
      b.name = name;
      b.internal = name;
      b.hidden = true;
      post.columns.push_back(b);
    }
    post.frame = input.frame.select(agg_exprs);
  } else if (auto reused = reuse_key_aggregate(input.frame, keys, agg_exprs)) {
    post.frame = *reused;
  } else {
    post.frame = input.frame.group_by(keys).agg(agg_exprs);
  }
  post.refresh_dtypes();
  return post;
}

}  // namespace frazil::sql
