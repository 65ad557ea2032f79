// Subqueries, decorrelated into joins:
//   - uncorrelated scalar: a one-row frame cross-joined to the outer rows; when it filters
//     the outer's table by the outer's conditions and more, it reads the outer's filtered
//     rows (share_filtered_input.hpp);
//   - correlated by equalities (inner = outer): the subquery grouped by its inner keys,
//     joined to the outer rows on them (inner join where a missing group filters the row
//     anyway, left join otherwise; the value of an empty group, COUNT's 0, is filled in);
//     when the outer joins the subquery's table on those keys, the subquery reads the
//     outer's semi-joined copy of it (share_subquery_input.hpp);
//   - EXISTS / IN: semi and anti joins on the correlation keys;
//   - EXISTS with one more correlated comparison (inner <> outer, <, <=, >, >=): the
//     inner rows' min and max per key decide it (PDS-H q21);
//   - any other correlation: the outer rows' distinct correlated values are joined to the
//     subquery's rows, filtered by the conditions, aggregated per value and joined back;
//   - NOT IN follows SQL's three-valued logic: a NULL in the subquery's values or a NULL
//     probe makes the answer unknown, an empty subquery makes it true.
#include <algorithm>

#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/share_filtered_input.hpp"
#include "frazil/sql/share_subquery_input.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using compute::JoinType;
using dsl::col;
using dsl::lit;
using dsl::lit_null;

namespace {

enum SubqueryKind { kScalar = 1, kExistsMark = 2, kInMark = 3 };

const PgQuery__SelectStmt* select_of(const PgQuery__SubLink* link) {
  return link->subselect && link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT ? link->subselect->select_stmt
                                                                                          : nullptr;
}

bool is_simple_select(const PgQuery__SelectStmt* s) {
  return s && (s->op == PG_QUERY__SET_OPERATION__SETOP_NONE || s->op == PG_QUERY__SET_OPERATION__SET_OPERATION_UNDEFINED) &&
         s->n_values_lists == 0 && !s->with_clause;
}

std::string flip(const std::string& op) {
  if (op == "<") return ">";
  if (op == ">") return "<";
  if (op == "<=") return ">=";
  if (op == ">=") return "<=";
  return op;
}

Expr compare(const std::string& op, const Expr& a, const Expr& b) {
  if (op == "=" || op == "==") return a == b;
  if (op == "<>" || op == "!=") return a != b;
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  if (op == ">=") return a >= b;
  throw InternalError("unexpected comparison operator " + op);
}

bool is_comparison(const std::string& op) {
  return op == "=" || op == "==" || op == "<>" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}

}  // namespace

// The parts of a subquery relative to its enclosing query.
struct Translator::Decorrelated {
  std::optional<Relation> inner;  // FROM + the conditions that only read the subquery
  std::vector<Expr> inner_keys;   // correlation equalities: inner side (over inner)
  std::vector<Expr> outer_keys;   //                         outer side (over the scope)
  std::vector<const PgNode*> others;  // correlated conditions of other forms
  bool correlated() const { return !inner_keys.empty() || !others.empty(); }
};

// Whether a node reads columns of the subquery (bit 1) and of an enclosing query (bit 2).
int Translator::correlation_sides(const PgNode* node, const Relation& inner, const Scope& outer) const {
  int sides = 0;
  walk_nodes(node, [&](const PgNode* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
      // A nested subquery may read the outer query too: treat it as reading both.
      sides |= 3;
      return false;
    }
    if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return true;
    const auto* c = n->column_ref;
    if (c->fields[c->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) return false;
    const std::string name = string_of(c->fields[c->n_fields - 1]);
    const std::string qualifier = c->n_fields >= 2 ? string_of(c->fields[c->n_fields - 2]) : "";
    if (!inner.find(qualifier, name).empty()) {
      sides |= 1;
      return false;
    }
    for (const Scope* s = &outer; s; s = s->outer)
      if (s->rel && !s->rel->find(qualifier, name).empty()) {
        sides |= 2;
        return false;
      }
    sides |= 1;  // unknown: let the inner translation report it
    return false;
  });
  return sides;
}

Translator::Decorrelated Translator::decorrelate(const PgQuery__SelectStmt* sub, Scope& scope) {
  // Clauses that change which rows a correlated subquery yields are refused, never ignored.
  auto refuse = [&](const char* what) {
    fail(ErrorKind::SQLInterface, -1, std::string(what) + " in a correlated subquery is not currently supported");
  };
  if (sub->limit_offset) refuse("OFFSET");
  if (sub->limit_count) {
    auto n = const_int(sub->limit_count);
    if (!n || *n < 1) refuse("LIMIT");
  }
  for (size_t i = 0; i < sub->n_window_clause; ++i) refuse("QUALIFY or WINDOW");
  if (sub->n_distinct_clause > 0 && sub->distinct_clause[0]) refuse("DISTINCT ON");
  Decorrelated d;
  std::vector<const PgNode*> where;
  split_conjuncts(sub->where_clause, where);
  d.inner = from_clause(sub, &scope, where);
  std::vector<const PgNode*> local;
  for (const PgNode* c : where) {
    const int sides = correlation_sides(c, *d.inner, scope);
    if (!(sides & 2) || has_nested_sublink(c)) {
      local.push_back(c);
      continue;
    }
    if (c->node_case == PG_QUERY__NODE__NODE_A_EXPR && c->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP &&
        c->a_expr->lexpr && c->a_expr->rexpr && c->a_expr->n_name == 1 &&
        (string_of(c->a_expr->name[0]) == "=" || string_of(c->a_expr->name[0]) == "==")) {
      const int ls = correlation_sides(c->a_expr->lexpr, *d.inner, scope);
      const int rs = correlation_sides(c->a_expr->rexpr, *d.inner, scope);
      if ((ls == 1 && rs == 2) || (ls == 2 && rs == 1)) {
        const PgNode* in_node = ls == 1 ? c->a_expr->lexpr : c->a_expr->rexpr;
        const PgNode* out_node = ls == 1 ? c->a_expr->rexpr : c->a_expr->lexpr;
        Scope is;
        is.rel = &*d.inner;
        is.outer = &scope;
        is.clause = "WHERE";
        d.inner_keys.push_back(expr(in_node, is));
        d.outer_keys.push_back(expr(out_node, scope));
        continue;
      }
    }
    d.others.push_back(c);
  }
  d.inner = filter_conjuncts(std::move(*d.inner), local, &scope, "WHERE");
  return d;
}

bool Translator::has_nested_sublink(const PgNode* node) const {
  bool found = false;
  walk_nodes(node, [&](const PgNode* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) found = true;
    return !found;
  });
  return found;
}

// The subquery's single SELECT item (error otherwise).
const PgNode* Translator::single_target(const PgQuery__SelectStmt* sub, int32_t location, const char* what) const {
  if (!sub || sub->n_target_list != 1 ||
      (sub->target_list[0]->res_target->val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
       sub->target_list[0]->res_target->val->column_ref->fields[sub->target_list[0]->res_target->val->column_ref->n_fields - 1]
               ->node_case == PG_QUERY__NODE__NODE_A_STAR))
    fail(ErrorKind::SQLInterface, location, std::string(what) + ": SQL subquery returns more than one column");
  return sub->target_list[0]->res_target->val;
}

// Key expressions `e.alias(k)` become columns k of the relation (and the keys col(k)).
void Translator::materialize_keys(Relation& rel, std::vector<Expr>& keys) {
  std::vector<Expr> added;
  for (auto& k : keys) {
    if (k.kind() != dsl::ExprKind::Alias) continue;
    const std::string name = k.node().names[0];
    added.push_back(k);
    k = col(name);
    rel.columns.push_back(BoundColumn{{}, name, name, DataType::null(), true});
  }
  if (!added.empty()) {
    rel.frame = rel.frame.with_columns(added);
    rel.refresh_dtypes();
  }
}

// Attaches `right` to the scope's relation; its columns stay hidden helpers.
Relation Translator::attach(Relation& rel, Relation right, std::vector<Expr> outer_on, std::vector<Expr> inner_on,
                            JoinType how) {
  for (auto& c : right.columns) c.hidden = true;
  for (auto& c : right.columns) c.qualifiers.clear();
  // Key columns made here are bound before their type is known; a NULL-typed key would
  // make the join cast the other side's key to it (a no-op cast that hides plain columns
  // from the join strategies).
  if (std::any_of(right.columns.begin(), right.columns.end(),
                  [](const BoundColumn& c) { return c.dtype.id() == TypeId::Null; }))
    right.refresh_dtypes();
  return join_relations(std::move(rel), std::move(right), std::move(outer_on), std::move(inner_on), how, false, "sub");
}

// The value an aggregate subquery has over no rows (COUNT: 0), or nullopt when NULL.
std::optional<Scalar> Translator::empty_value(const GroupedExprs& grouped, const Relation& post, const Expr& value) {
  std::vector<Column> cols;
  for (const auto& [name, atom] : grouped.atoms) {
    const BoundColumn* b = post.by_internal(name);
    DataType t = b ? b->dtype : DataType::null();
    Scalar s = Scalar::null(t);
    if (atom.kind() == dsl::ExprKind::Len) s = Scalar(t, t.is_signed_integer() ? Scalar::Value(int64_t{0}) : Scalar::Value(uint64_t{0}));
    if (atom.kind() == dsl::ExprKind::Agg) {
      const auto k = atom.node().agg;
      // (A SUM is guarded to NULL when no rows, or sums a group that has rows: NULL here.)
      if (k == compute::AggKind::Count || k == compute::AggKind::NUnique || k == compute::AggKind::NullCount ||
          k == compute::AggKind::Len) {
        if (t.is_float()) s = Scalar(t, 0.0);
        else if (t.is_unsigned_integer()) s = Scalar(t, uint64_t{0});
        else if (t.is_integer()) s = Scalar(t, int64_t{0});
      }
    }
    cols.push_back(Column::scalar(name, s, 1));
  }
  try {
    DataFrame one = cols.empty() ? DataFrame::empty_with_height(1) : DataFrame(cols);
    DataFrame out = LazyFrame::from_frame(one).select({value.alias("v")}).collect();
    Scalar v = out.column(0).get(0);
    if (v.is_null()) return std::nullopt;
    return v;
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Joins a scalar subquery's value onto the scope's relation; returns the expression that
// reads it. `how`: Inner where an empty group filters the row anyway (a top-level
// null-rejecting comparison), Left otherwise. `equal_to`: an outer expression the value is
// compared with by `=`, joined on as one more key (nothing left to filter).
std::optional<Expr> Translator::join_scalar(const PgQuery__SubLink* link, Scope& scope, JoinType how,
                                            const std::optional<Expr>& equal_to) {
  const PgQuery__SelectStmt* sub = select_of(link);
  const PgNode* target = single_target(sub, link->location, "a scalar subquery");
  Relation& rel = *scope.rel;
  // The same subquery joined before (written twice): read it again.
  if (!equal_to) {
    for (const auto& j : joined_subqueries)
      if (j.kind == kScalar && j.rel == &rel && nodes_equal(j.node, link->subselect) && rel.by_internal(j.column))
        return j.value;
  }
  const std::string value_name = temp_name("value");
  if (!is_simple_select(sub) || !correlated(sub, scope)) {
    Relation s = query(link->subselect, &scope);
    // The subquery may filter the outer's table by the outer's conditions and more.
    if (auto shared = share_filtered_input(rel.frame, s.frame)) s.frame = std::move(*shared);
    const BoundColumn* first = nullptr;
    for (const auto& c : s.columns)
      if (!c.hidden) {
        first = &c;
        break;
      }
    if (!first) fail(ErrorKind::SQLInterface, link->location, "a scalar subquery must return exactly one column");
    // One row: an aggregate without GROUP BY has it; otherwise the first row (NULL if none).
    const bool one_row = is_simple_select(sub) && is_aggregate_query(sub) && sub->n_group_clause == 0 && !sub->limit_offset;
    Expr v = col(first->internal);
    s.frame = s.frame.select({one_row ? v.alias(value_name) : v.first().alias(value_name)});
    s.columns = {BoundColumn{{}, value_name, value_name, first->dtype, true}};
    rel = attach(rel, std::move(s), {}, {}, JoinType::Cross);
    Expr out = col(value_name);
    joined_subqueries.push_back({link->subselect, kScalar, &rel, value_name, out});
    return out;
  }
  Decorrelated d = decorrelate(sub, scope);
  if (sub->n_group_clause > 0)
    fail(ErrorKind::SQLInterface, link->location, "a correlated scalar subquery with GROUP BY is not supported");
  // Keys of the inner rows: the correlation equalities, and for other correlated
  // conditions, the outer values they read (joined in from the outer rows' distinct values).
  std::vector<Expr> key_exprs;   // over the inner relation, named
  std::vector<Expr> outer_on;    // over the outer relation, same order
  std::vector<std::string> key_names;
  Relation inner = std::move(*d.inner);
  if (!d.others.empty()) {
    magic_join(inner, d, scope, key_exprs, outer_on, key_names);
  } else {
    for (size_t i = 0; i < d.inner_keys.size(); ++i) {
      key_names.push_back(temp_name("key"));
      key_exprs.push_back(d.inner_keys[i].alias(key_names.back()));
      outer_on.push_back(d.outer_keys[i]);
    }
  }
  // The outer rows may already hold the rows each group needs (sql/share_subquery_input).
  if (d.others.empty() && is_aggregate_query(sub)) {
    if (auto shared = share_subquery_input(rel.frame, inner.frame, d.inner_keys, d.outer_keys)) {
      rel.frame = shared->outer;
      inner.frame = shared->inner;
    }
  }
  Relation s(inner.frame);
  std::optional<Scalar> empty;
  if (is_aggregate_query(sub)) {
    // Keys as plain columns of the grouped frame, so that the executor can filter its rows
    // by the outer side's keys before grouping (the outer needs only those groups).
    materialize_keys(inner, key_exprs);
    const LazyFrame grouped_input = inner.frame;
    GroupedExprs grouped;
    std::vector<const PgNode*> key_nodes;
    Relation post = aggregate(sub, std::move(inner), &scope, grouped, key_nodes, key_exprs);
    if (sub->having_clause) {
      std::vector<const PgNode*> having;
      split_conjuncts(sub->having_clause, having);
      post = filter_conjuncts(std::move(post), having, &scope, "HAVING", &grouped);
    }
    Scope ps;
    ps.rel = &post;
    ps.outer = &scope;
    ps.grouped = &grouped;
    ps.clause = "SELECT";
    Expr value = expr(target, ps);
    empty = empty_value(grouped, post, value);
    if (!sub->having_clause && !key_exprs.empty()) {
      // The value computed by the aggregation itself: group_by(keys).agg(value).
      Expr composite = rewrite_expr(value, [&](const Expr& x) -> std::optional<Expr> {
        if (x.kind() != dsl::ExprKind::Column) return std::nullopt;
        for (const auto& [name, atom] : grouped.atoms)
          if (name == x.node().names[0]) return atom;
        return std::nullopt;
      });
      s.frame = grouped_input.group_by(key_exprs).agg({composite.alias(value_name)});
    } else {
      std::vector<Expr> out;
      for (const auto& k : key_names) out.push_back(col(k));
      out.push_back(value.alias(value_name));
      s.frame = post.frame.select(out);
    }
  } else {
    Scope is;
    is.rel = &inner;
    is.outer = &scope;
    is.clause = "SELECT";
    Expr value = expr(target, is);
    std::vector<Expr> keys;
    for (const auto& k : key_names) keys.push_back(col(k));
    Relation keyed(inner.frame.with_columns(key_exprs));
    // ORDER BY ... LIMIT 1: the first row of each group in that order.
    if (sub->n_sort_clause > 0) {
      std::vector<Expr> by;
      SortArgs args;
      args.descending.clear();
      args.nulls_last.clear();
      for (size_t i = 0; i < sub->n_sort_clause; ++i) {
        const auto* sb = sub->sort_clause[i]->sort_by;
        by.push_back(expr(sb->node, is));
        const bool d = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        args.descending.push_back(d);
        bool nl = !d;
        if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST) nl = false;
        if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST) nl = true;
        args.nulls_last.push_back(nl);
      }
      args.maintain_order = true;
      keyed.frame = keyed.frame.sort(by, args);
    }
    s.frame = keyed.frame.group_by(keys, true).agg({value.first().alias(value_name)});
  }
  for (const auto& k : key_names) s.columns.push_back(BoundColumn{{}, k, k, DataType::null(), true});
  s.columns.push_back(BoundColumn{{}, value_name, value_name, DataType::null(), true});
  s.refresh_dtypes();
  std::vector<Expr> inner_on;
  for (const auto& k : key_names) inner_on.push_back(col(k));
  if (equal_to && !empty) {
    outer_on.push_back(*equal_to);
    inner_on.push_back(col(value_name));
  }
  const JoinType join_how = (how == JoinType::Inner && !empty) ? JoinType::Inner : JoinType::Left;
  rel = attach(rel, std::move(s), outer_on, inner_on, join_how);
  // The renamed key/value columns: find them again by their (unique) names.
  Expr value = col(value_name);
  if (empty) {
    const std::string& matched = key_names.empty() ? value_name : key_names[0];
    value = dsl::when(col(matched).is_null()).then(lit(*empty)).otherwise(col(value_name));
  }
  if (!equal_to) joined_subqueries.push_back({link->subselect, kScalar, &rel, value_name, value});
  if (equal_to && !empty) return std::nullopt;  // fully applied by the join
  return value;
}

bool Translator::correlated(const PgQuery__SelectStmt* sub, const Scope& scope) {
  // Correlated when some column of the subquery resolves only in an enclosing query. The
  // FROM items are resolved without translating them twice: their names are looked up.
  std::vector<const PgNode*> where;
  split_conjuncts(sub->where_clause, where);
  if (where.empty() && !sub->having_clause) return false;
  std::vector<const PgNode*> w2 = where;
  Relation inner = from_clause(sub, &scope, w2);
  for (const PgNode* c : where)
    if (correlation_sides(c, inner, scope) & 2) {
      bool outer_only_nested = false;
      (void)outer_only_nested;
      return true;
    }
  return false;
}

// The outer rows' distinct values of what the correlated conditions read, joined to the
// inner rows and filtered by those conditions: the inner relation then holds, per inner
// row, the outer values it matches (as key columns).
void Translator::magic_join(Relation& inner, Decorrelated& d, Scope& scope, std::vector<Expr>& key_exprs,
                            std::vector<Expr>& outer_on, std::vector<std::string>& key_names) {
  Correlation corr;
  corr.outer = &scope;
  Scope cs;
  cs.rel = &inner;
  cs.outer = &scope;
  cs.correlation = &corr;
  cs.clause = "WHERE";
  std::vector<Expr> conditions;
  for (const PgNode* c : d.others) conditions.push_back(expr(c, cs));
  // Distinct outer values: correlated columns and the outer sides of equalities.
  std::vector<Expr> distinct_cols;
  std::vector<Expr> inner_eq, d_eq;
  for (const auto& r : corr.refs) {
    if (r.scope != &scope) fail(ErrorKind::SQLInterface, -1, "a subquery may only refer to the query directly around it");
    distinct_cols.push_back(col(r.internal).alias(r.placeholder));
    outer_on.push_back(col(r.internal));
    key_names.push_back(r.placeholder);
  }
  for (size_t i = 0; i < d.outer_keys.size(); ++i) {
    const std::string name = temp_name("key");
    distinct_cols.push_back(d.outer_keys[i].alias(name));
    outer_on.push_back(d.outer_keys[i]);
    key_names.push_back(name);
    inner_eq.push_back(d.inner_keys[i]);
    d_eq.push_back(col(name));
  }
  LazyFrame distinct = scope.rel->frame.select(distinct_cols).unique();
  Relation dr(distinct);
  for (const auto& k : key_names) dr.columns.push_back(BoundColumn{{}, k, k, DataType::null(), true});
  Relation joined = join_relations(std::move(inner), std::move(dr), inner_eq, d_eq,
                                   inner_eq.empty() ? JoinType::Cross : JoinType::Inner, false, "outer");
  std::optional<Expr> pred;
  for (const auto& c : conditions) pred = pred ? (*pred & c) : c;
  joined.frame = joined.frame.filter(*pred);
  inner = std::move(joined);
  for (const auto& k : key_names) key_exprs.push_back(col(k));
}

// EXISTS as a boolean column (mark join) or, at the top of WHERE, as a semi / anti join.
// Returns the flag expression, or nullopt when `filter` was applied.
std::optional<Expr> Translator::exists(const PgQuery__SubLink* link, Scope& scope, std::optional<bool> filter_negated,
                                       const std::optional<std::pair<Expr, const PgNode*>>& in_value) {
  const PgQuery__SelectStmt* sub = select_of(link);
  Relation& rel = *scope.rel;
  const bool filtering = filter_negated.has_value();
  const bool negated = filter_negated.value_or(false);
  if (!is_simple_select(sub) || !correlated(sub, scope) || (is_aggregate_query(sub) && !in_value)) {
    Relation s = query(link->subselect, &scope);
    if (in_value) return in_uncorrelated(std::move(s), scope, in_value->first, filter_negated, link->location);
    // Uncorrelated EXISTS: whether the subquery has a row at all.
    const std::string n = temp_name("exists");
    Relation stats(s.frame.select({dsl::len().alias(n)}));
    stats.columns = {BoundColumn{{}, n, n, DataType::uint32(), true}};
    rel = attach(rel, std::move(stats), {}, {}, JoinType::Cross);
    Expr flag = col(n) > lit(0);
    if (filtering) {
      rel.frame = rel.frame.filter(negated ? flag.not_() : flag);
      return std::nullopt;
    }
    return flag;
  }
  Decorrelated d = decorrelate(sub, scope);
  Relation inner = std::move(*d.inner);
  if (in_value) {
    Scope is;
    is.rel = &inner;
    is.outer = &scope;
    is.clause = "SELECT";
    Expr y = expr(single_target(sub, link->location, "an IN subquery"), is);
    if (filtering && negated && d.others.empty()) {
      // x NOT IN (SELECT y ... WHERE inner = outer): per correlation group, true when the
      // group is empty, else unknown when x or some y is NULL, else whether x is no y.
      std::vector<Expr> keys, outer_on, inner_on;
      std::vector<std::string> key_names;
      for (size_t i = 0; i < d.inner_keys.size(); ++i) {
        key_names.push_back(temp_name("key"));
        keys.push_back(d.inner_keys[i].alias(key_names.back()));
        outer_on.push_back(d.outer_keys[i]);
        inner_on.push_back(col(key_names.back()));
      }
      const std::string yn = temp_name("in"), n = temp_name("rows"), nn = temp_name("nulls");
      std::vector<Expr> sel = keys;
      sel.push_back(y.alias(yn));
      LazyFrame values = inner.frame.select(sel);
      Relation members(values);
      for (const auto& k : key_names) members.columns.push_back(BoundColumn{{}, k, k, DataType::null(), true});
      members.columns.push_back(BoundColumn{{}, yn, yn, DataType::null(), true});
      members.refresh_dtypes();
      std::vector<Expr> member_on = inner_on;
      member_on.push_back(col(yn));
      std::vector<Expr> probe_on = outer_on;
      probe_on.push_back(in_value->first);
      rel = attach(rel, std::move(members), probe_on, member_on, JoinType::Anti);
      std::vector<Expr> key_cols;
      for (const auto& k : key_names) key_cols.push_back(col(k));
      Relation stats(values.group_by(key_cols).agg({dsl::len().alias(n), col(yn).null_count().alias(nn)}));
      for (const auto& k : key_names) stats.columns.push_back(BoundColumn{{}, k, k, DataType::null(), true});
      stats.columns.push_back(BoundColumn{{}, n, n, DataType::uint32(), true});
      stats.columns.push_back(BoundColumn{{}, nn, nn, DataType::uint32(), true});
      stats.refresh_dtypes();
      rel = attach(rel, std::move(stats), outer_on, inner_on, JoinType::Left);
      rel.frame = rel.frame.filter(col(n).is_null() | (col(n) == lit(0)) |
                                   ((col(nn) == lit(0)) & in_value->first.is_not_null()));
      return std::nullopt;
    }
    // x IN (SELECT y ... correlated): EXISTS (... AND y = x).
    d.inner_keys.push_back(y);
    d.outer_keys.push_back(in_value->first);
  }
  if (sub->n_group_clause > 0 || sub->having_clause)
    fail(ErrorKind::SQLInterface, link->location, "a correlated EXISTS subquery with GROUP BY or HAVING is not supported");
  // One correlated comparison besides the equalities: decided by the inner min and max.
  if (d.others.size() == 1) {
    const PgNode* c = d.others[0];
    if (c->node_case == PG_QUERY__NODE__NODE_A_EXPR && c->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP &&
        c->a_expr->lexpr && c->a_expr->rexpr && c->a_expr->n_name == 1) {
      std::string op = string_of(c->a_expr->name[0]);
      const int ls = correlation_sides(c->a_expr->lexpr, inner, scope);
      const int rs = correlation_sides(c->a_expr->rexpr, inner, scope);
      if (is_comparison(op) && op != "=" && op != "==" && ((ls == 1 && rs == 2) || (ls == 2 && rs == 1))) {
        const PgNode* in_node = ls == 1 ? c->a_expr->lexpr : c->a_expr->rexpr;
        const PgNode* out_node = ls == 1 ? c->a_expr->rexpr : c->a_expr->lexpr;
        if (ls != 1) op = flip(op);
        Scope is;
        is.rel = &inner;
        is.outer = &scope;
        is.clause = "WHERE";
        Expr inner_value = expr(in_node, is);
        Expr outer_value = expr(out_node, scope);
        const std::string lo = temp_name("min"), hi = temp_name("max");
        std::vector<Expr> keys;
        std::vector<std::string> key_names;
        for (auto& k : d.inner_keys) {
          key_names.push_back(temp_name("key"));
          keys.push_back(k.alias(key_names.back()));
        }
        std::vector<Expr> aggs{inner_value.min().alias(lo), inner_value.max().alias(hi)};
        materialize_keys(inner, keys);
        Relation s(keys.empty() ? inner.frame.select(aggs) : inner.frame.group_by(keys).agg(aggs));
        for (const auto& k : key_names) s.columns.push_back(BoundColumn{{}, k, k, DataType::null(), true});
        s.columns.push_back(BoundColumn{{}, lo, lo, DataType::null(), true});
        s.columns.push_back(BoundColumn{{}, hi, hi, DataType::null(), true});
        s.refresh_dtypes();
        std::vector<Expr> inner_on;
        for (const auto& k : key_names) inner_on.push_back(col(k));
        // Some inner value v with v op x: for <> one differing from x, for < the least, ...
        Expr cond = (op == "<>" || op == "!=") ? ((col(lo) != outer_value) | (col(hi) != outer_value))
                    : (op == "<" || op == "<=")  ? compare(op, col(lo), outer_value)
                                                 : compare(op, col(hi), outer_value);
        const bool inner_join = filtering && !negated;
        if (keys.empty()) {
          rel = attach(rel, std::move(s), {}, {}, JoinType::Cross);
        } else {
          rel = attach(rel, std::move(s), d.outer_keys, inner_on, inner_join ? JoinType::Inner : JoinType::Left);
        }
        Expr flag = cond.fill_null(lit(false));
        if (filtering) {
          rel.frame = rel.frame.filter(negated ? flag.not_() : (inner_join ? cond : flag));
          return std::nullopt;
        }
        return flag;
      }
    }
  }
  std::vector<Expr> key_exprs, outer_on;
  std::vector<std::string> key_names;
  if (!d.others.empty()) {
    magic_join(inner, d, scope, key_exprs, outer_on, key_names);
  } else {
    for (size_t i = 0; i < d.inner_keys.size(); ++i) {
      key_names.push_back(temp_name("key"));
      key_exprs.push_back(d.inner_keys[i].alias(key_names.back()));
      outer_on.push_back(d.outer_keys[i]);
    }
  }
  std::vector<Expr> inner_on;
  for (const auto& k : key_names) inner_on.push_back(col(k));
  if (filtering) {
    // Semi / anti join on the keys.
    Relation s(inner.frame.select(key_exprs));
    for (const auto& k : key_names) s.columns.push_back(BoundColumn{{}, k, k, DataType::null(), true});
    rel = attach(rel, std::move(s), outer_on, inner_on, negated ? JoinType::Anti : JoinType::Semi);
    return std::nullopt;
  }
  // Mark join: the distinct keys with a marker, left-joined.
  const std::string mark = temp_name("mark");
  std::vector<Expr> sel = key_exprs;
  Relation s(inner.frame.select(sel).unique().with_columns({lit(true).alias(mark)}));
  for (const auto& k : key_names) s.columns.push_back(BoundColumn{{}, k, k, DataType::null(), true});
  s.columns.push_back(BoundColumn{{}, mark, mark, DataType::boolean(), true});
  rel = attach(rel, std::move(s), outer_on, inner_on, JoinType::Left);
  return col(mark).fill_null(lit(false));
}

// x [NOT] IN (uncorrelated subquery) with SQL's NULL semantics.
std::optional<Expr> Translator::in_uncorrelated(Relation s, Scope& scope, const Expr& x, std::optional<bool> filter_negated,
                                                int32_t location) {
  Relation& rel = *scope.rel;
  const BoundColumn* first = nullptr;
  size_t visible = 0;
  for (const auto& c : s.columns)
    if (!c.hidden) {
      if (!first) first = &c;
      ++visible;
    }
  if (visible != 1) fail(ErrorKind::SQLInterface, location, "SQL subquery returns more than one column");
  const std::string y = temp_name("in");
  Relation values(s.frame.select({col(first->internal).alias(y)}));
  values.columns = {BoundColumn{{}, y, y, first->dtype, true}};
  if (filter_negated && !*filter_negated) {
    rel = attach(rel, std::move(values), {x}, {col(y)}, JoinType::Semi);
    return std::nullopt;
  }
  // Neither side can be NULL (the sources say so): NOT IN is an anti join.
  if (filter_negated && first->non_null && known_non_null(x, rel)) {
    rel = attach(rel, std::move(values), {x}, {col(y)}, JoinType::Anti);
    return std::nullopt;
  }
  // NOT IN and IN as a value need the subquery's row and NULL counts.
  const std::string n = temp_name("rows"), nn = temp_name("nulls");
  Relation stats(values.frame.select({dsl::len().alias(n), col(y).null_count().alias(nn)}));
  stats.columns = {BoundColumn{{}, n, n, DataType::uint32(), true}, BoundColumn{{}, nn, nn, DataType::uint32(), true}};
  if (filter_negated) {
    rel = attach(rel, std::move(values), {x}, {col(y)}, JoinType::Anti);
    rel = attach(rel, std::move(stats), {}, {}, JoinType::Cross);
    rel.frame = rel.frame.filter((col(n) == lit(0)) | ((col(nn) == lit(0)) & x.is_not_null()));
    return std::nullopt;
  }
  const std::string mark = temp_name("mark");
  Relation distinct(values.frame.unique().with_columns({lit(true).alias(mark)}));
  distinct.columns = {BoundColumn{{}, y, y, first->dtype, true}, BoundColumn{{}, mark, mark, DataType::boolean(), true}};
  rel = attach(rel, std::move(distinct), {x}, {col(y)}, JoinType::Left);
  rel = attach(rel, std::move(stats), {}, {}, JoinType::Cross);
  return dsl::when(col(mark).is_not_null())
      .then(lit(true))
      .when(col(n) == lit(0))
      .then(lit(false))
      .when(x.is_null() | (col(nn) > lit(0)))
      .then(lit(Scalar::null(DataType::boolean())))
      .otherwise(lit(false));
}

bool Translator::subquery_conjunct(const PgNode* node, Scope& scope, bool negated) {
  if (node->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR && node->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR)
    return subquery_conjunct(node->bool_expr->args[0], scope, !negated);
  if (node->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
    const auto* link = node->sub_link;
    if (link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) {
      exists(link, scope, negated, std::nullopt);
      return true;
    }
    if (link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK && link->testexpr &&
        (link->n_oper_name == 0 || string_of(link->oper_name[link->n_oper_name - 1]) == "=") &&
        link->testexpr->node_case != PG_QUERY__NODE__NODE_ROW_EXPR) {
      Expr x = expr(link->testexpr, scope);
      exists(link, scope, negated, std::make_pair(x, link->testexpr));
      return true;
    }
    if (link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK && link->testexpr && link->n_oper_name > 0 &&
        (string_of(link->oper_name[link->n_oper_name - 1]) == "<>" ||
         string_of(link->oper_name[link->n_oper_name - 1]) == "!=") &&
        link->testexpr->node_case != PG_QUERY__NODE__NODE_ROW_EXPR) {
      // x <> ALL (subquery) is x NOT IN (subquery).
      Expr x = expr(link->testexpr, scope);
      exists(link, scope, !negated, std::make_pair(x, link->testexpr));
      return true;
    }
    return false;
  }
  // x op (scalar subquery), or (scalar subquery) op x.
  if (!negated && node->node_case == PG_QUERY__NODE__NODE_A_EXPR &&
      node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP && node->a_expr->lexpr && node->a_expr->rexpr &&
      node->a_expr->n_name == 1) {
    std::string op = string_of(node->a_expr->name[0]);
    if (!is_comparison(op)) return false;
    const PgNode* l = node->a_expr->lexpr;
    const PgNode* r = node->a_expr->rexpr;
    auto scalar = [](const PgNode* n) {
      return n->node_case == PG_QUERY__NODE__NODE_SUB_LINK && n->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK;
    };
    if (scalar(l) && !scalar(r)) {
      std::swap(l, r);
      op = flip(op);
    }
    if (!scalar(r) || scalar(l) || has_nested_sublink(l)) return false;
    Expr x = expr(l, scope);
    const bool eq = op == "=" || op == "==";
    auto value = join_scalar(r->sub_link, scope, JoinType::Inner, eq ? std::optional<Expr>(x) : std::nullopt);
    if (value) scope.rel->frame = scope.rel->frame.filter(compare(op, x, *value));
    return true;
  }
  return false;
}

// A subquery inside an expression: its value (scalar), EXISTS flag or IN result.
Expr Translator::sublink(const PgQuery__SubLink* link, Scope& scope) {
  if (!scope.rel) fail(ErrorKind::SQLInterface, link->location, "a subquery is not allowed here");
  if (scope.grouped == nullptr && scope.aggregates_allowed)
    fail(ErrorKind::SQLInterface, link->location, "a subquery inside an aggregate function is not supported");
  switch (link->sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK: return *join_scalar(link, scope, JoinType::Left, std::nullopt);
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK: {
      for (const auto& j : joined_subqueries)
        if (j.kind == kExistsMark && j.rel == scope.rel && nodes_equal(j.node, link->subselect) &&
            scope.rel->by_internal(j.column))
          return j.value;
      Expr flag = *exists(link, scope, std::nullopt, std::nullopt);
      return flag;
    }
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: {
      if (!link->testexpr || link->testexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
        fail(ErrorKind::SQLInterface, link->location, "row values in IN / ANY / ALL are not supported");
      const std::string op = link->n_oper_name ? string_of(link->oper_name[link->n_oper_name - 1]) : "=";
      const bool any = link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK;
      Expr x = expr(link->testexpr, scope);
      if ((any && op == "=") || (!any && (op == "<>" || op == "!="))) {
        Expr in = *exists(link, scope, std::nullopt, std::make_pair(x, link->testexpr));
        return any ? in : in.not_();
      }
      if (!is_comparison(op)) fail(ErrorKind::SQLInterface, link->location, "operator " + op + " with ANY/ALL is not supported");
      // x op ANY/ALL (subquery): against the subquery's min or max, empty and NULL aware.
      const PgQuery__SelectStmt* sub = select_of(link);
      if (is_simple_select(sub) && correlated(sub, scope))
        fail(ErrorKind::SQLInterface, link->location, "a correlated ANY/ALL subquery is not supported");
      Relation s = query(link->subselect, &scope);
      const BoundColumn* first = nullptr;
      for (const auto& c : s.columns)
        if (!c.hidden && !first) first = &c;
      if (!first) fail(ErrorKind::SQLInterface, link->location, "an ANY/ALL subquery must return one column");
      const std::string lo = temp_name("min"), hi = temp_name("max"), n = temp_name("rows"), nn = temp_name("nulls");
      Expr y = col(first->internal);
      Relation stats(s.frame.select({y.min().alias(lo), y.max().alias(hi), dsl::len().alias(n), y.null_count().alias(nn)}));
      for (const auto& name : {lo, hi, n, nn}) stats.columns.push_back(BoundColumn{{}, name, name, DataType::null(), true});
      *scope.rel = attach(*scope.rel, std::move(stats), {}, {}, JoinType::Cross);
      Expr r = lit(false);
      if (op == "<>" || op == "!=" || op == "=") {
        // x = ALL: every value equals x; x <> ANY: some value differs.
        Expr all_equal = (col(lo) == x) & (col(hi) == x);
        r = any ? all_equal.not_() : all_equal;
      } else {
        const bool lower = op == "<" || op == "<=";
        // ANY: beats the weakest bound; ALL: beats the strongest.
        r = compare(op, x, col((any == lower) ? hi : lo));
      }
      const Expr unknown = lit(Scalar::null(DataType::boolean()));
      if (any)
        return dsl::when(col(n) == lit(0)).then(lit(false)).when(x.is_null()).then(unknown).when(r).then(lit(true))
            .when(col(nn) > lit(0)).then(unknown).otherwise(lit(false));
      return dsl::when(col(n) == lit(0)).then(lit(true)).when(x.is_null()).then(unknown).when(r.not_()).then(lit(false))
          .when(col(nn) > lit(0)).then(unknown).otherwise(lit(true));
    }
    case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: fail(ErrorKind::SQLInterface, link->location, "ARRAY(subquery) is not supported");
    default: break;
  }
  fail(ErrorKind::SQLInterface, link->location, "this kind of subquery is not supported");
}

}  // namespace frazil::sql
