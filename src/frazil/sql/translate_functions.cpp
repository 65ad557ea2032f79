// Function calls: scalar functions and aggregates through the function table
// (sql/functions.cpp), window calls (OVER) as DSL windows.
#include "frazil/sql/dialect.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/functions.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using dsl::lit;

std::string function_name_of(const PgQuery__FuncCall* f) {
  std::string name;
  for (size_t i = 0; i < f->n_funcname; ++i) {
    std::string part = string_of(f->funcname[i]);
    if (part == "pg_catalog" && i + 1 < f->n_funcname) continue;
    name = part;
  }
  return name;
}

bool is_aggregate_call(const PgQuery__FuncCall* f) {
  if (f->over) return false;
  return is_aggregate_function(function_name_of(f)) || f->agg_star || f->agg_distinct || f->agg_within_group;
}

Expr Translator::function_call(const PgQuery__FuncCall* f, Scope& scope) {
  const std::string name = function_name_of(f);
  if (name == kWildcardOptions || name == kAllMarker)
    fail(ErrorKind::SQLSyntax, f->location, "wildcard options and ALL are only allowed after `*` / GROUP BY / ORDER BY");
  if (f->over) return window_call(f, scope);
  if (is_aggregate_call(f)) return aggregate_call(f, scope);
  const SqlFunction* fun = find_scalar_function(name);
  if (!fun) {
    std::string lowered = name;
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    fail(ErrorKind::SQLInterface, f->location,
         "unknown function '" + name + "'" + did_you_mean(lowered, function_names()));
  }
  if (f->agg_filter) fail(ErrorKind::SQLInterface, f->location, "FILTER is only allowed on aggregate functions");
  FunctionCall call;
  call.name = name;
  call.location = f->location;
  call.translator = this;
  call.scope = &scope;
  for (size_t i = 0; i < f->n_args; ++i) {
    call.nodes.push_back(f->args[i]);
    call.args.push_back(expr(f->args[i], scope));
  }
  for (char& c : call.name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fun->build(call);
}

Expr Translator::aggregate_call(const PgQuery__FuncCall* f, Scope& scope, bool in_window) {
  const std::string name = function_name_of(f);
  if (!scope.aggregates_allowed)
    fail(ErrorKind::SQLInterface, f->location,
         "aggregate function '" + name + "' is not allowed in " + scope.clause);
  const SqlFunction* fun = find_aggregate_function(name);
  if (!fun) fail(ErrorKind::SQLInterface, f->location, "unknown aggregate function '" + name + "'" + did_you_mean(name, function_names()));
  // Arguments are row values: no aggregate inside an aggregate.
  Scope inner = scope;
  inner.aggregates_allowed = false;
  // Inside a window over an aggregated query, the arguments may be aggregates of the groups.
  if (!in_window) inner.grouped = nullptr;
  inner.clause = "an aggregate's arguments";
  FunctionCall call;
  call.name = name;
  for (char& c : call.name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  call.location = f->location;
  call.translator = this;
  call.scope = &inner;
  call.distinct = f->agg_distinct;
  call.star = f->agg_star;
  std::optional<Expr> filter;
  if (f->agg_filter) filter = expr(f->agg_filter, inner);
  for (size_t i = 0; i < f->n_args; ++i) {
    call.nodes.push_back(f->args[i]);
    Expr a = expr(f->args[i], inner);
    if (filter && !(f->agg_within_group)) a = a.filter(*filter);
    call.args.push_back(a);
  }
  for (size_t i = 0; i < f->n_agg_order; ++i) {
    const auto* sb = f->agg_order[i]->sort_by;
    Expr o = expr(sb->node, inner);
    if (filter) o = o.filter(*filter);
    call.order_by.push_back(o);
    call.order_descending.push_back(sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC);
  }
  if (filter && (call.star || call.args.empty())) {
    // COUNT(*) FILTER (WHERE p): the rows where p holds.
    call.star = false;
    call.args = {filter->filter(*filter)};
    Expr counted = call.args[0].len().cast(DataType::int64());
    return counted;
  }
  if (!f->agg_within_group && !call.order_by.empty() && call.name != "first" && call.name != "last")
    fail(ErrorKind::SQLInterface, f->location, "ORDER BY inside " + name + "() is not supported");
  if (!call.order_by.empty() && !f->agg_within_group) {
    // first(x ORDER BY y): x sorted by y.
    call.args[0] = call.args[0].sort_by(call.order_by, call.order_descending);
    call.order_by.clear();
  }
  return fun->build(call);
}

namespace {

const PgQuery__WindowDef* resolve_window(const PgQuery__WindowDef* w,
                                         const std::vector<const PgQuery__WindowDef*>& named) {
  // OVER w, or OVER (w ...): the named window's definition (with the call's additions).
  const char* ref = (w->name && *w->name && w->n_partition_clause == 0 && w->n_order_clause == 0) ? w->name
                    : (w->refname && *w->refname)                                                ? w->refname
                                                                                                 : nullptr;
  if (!ref) return w;
  for (const auto* d : named)
    if (d->name && std::string(d->name) == ref) return d;
  return nullptr;
}

}  // namespace

Expr Translator::window_call(const PgQuery__FuncCall* f, Scope& scope) {
  if (!scope.windows_allowed)
    fail(ErrorKind::SQLInterface, f->location, std::string("window functions are not allowed in ") + scope.clause);
  const PgQuery__WindowDef* w = resolve_window(f->over, windows_);
  if (!w) fail(ErrorKind::SQLInterface, f->location, std::string("unknown window '") + (f->over->name ? f->over->name : "") + "'");
  std::vector<Expr> partition;
  Scope row_scope = scope;
  row_scope.windows_allowed = false;
  for (size_t i = 0; i < w->n_partition_clause; ++i) partition.push_back(expr(w->partition_clause[i], row_scope));
  const PgQuery__WindowDef* order_source = w->n_order_clause ? w : f->over;
  if (order_source->n_order_clause > 0 || f->over->n_order_clause > 0)
    fail(ErrorKind::SQLInterface, f->location, "window functions with ORDER BY are not supported yet");
  const std::string name = function_name_of(f);
  if (!is_aggregate_function(name) && !f->agg_star)
    fail(ErrorKind::SQLInterface, f->location, "window function '" + name + "' is not supported yet");
  // The aggregate over each partition, broadcast to its rows.
  PgQuery__FuncCall plain = *f;
  plain.over = nullptr;
  Scope agg_scope = row_scope;
  agg_scope.aggregates_allowed = true;
  Expr value = aggregate_call(&plain, agg_scope, true);
  if (partition.empty()) return value;
  return value.over(partition);
}

}  // namespace frazil::sql
