// Function calls: scalar functions and aggregates through the function table
// (sql/functions.cpp), window calls (OVER) as DSL windows.
#include <regex>

#include "frazil/sql/dialect.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/functions.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using dsl::lit;
using dsl::lit_null;

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
  if (f->over || iequals(function_name_of(f), "columns")) return false;
  return is_aggregate_function(function_name_of(f)) || f->agg_star || f->agg_distinct || f->agg_within_group;
}

Expr Translator::function_call(const PgQuery__FuncCall* f, Scope& scope) {
  const std::string name = function_name_of(f);
  if (name == kWildcardOptions || name == kAllMarker)
    fail(ErrorKind::SQLSyntax, f->location, "wildcard options and ALL are only allowed after `*` / GROUP BY / ORDER BY");
  if (iequals(name, "columns")) {
    if (!scope.columns_subst)
      fail(ErrorKind::SQLInterface, f->location, "COLUMNS(...) is only supported in the SELECT list and WHERE");
    return dsl::col(*scope.columns_subst);
  }
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

std::optional<std::vector<std::string>> Translator::columns_expansion(const PgNode* node, const Scope& scope) const {
  std::optional<std::string> pattern;  // "*" for COLUMNS(*)
  int32_t location = -1;
  walk_nodes(node, [&](const PgNode* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) return false;  // a subquery has its own columns
    if (n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL || !iequals(function_name_of(n->func_call), "columns"))
      return true;
    const auto* f = n->func_call;
    std::string p;
    if (f->agg_star) {
      p = "*";
    } else {
      const std::optional<std::string> s = f->n_args == 1 ? const_string(f->args[0]) : std::nullopt;
      if (!s) fail(ErrorKind::SQLSyntax, f->n_args ? node_location(f->args[0]) : f->location,
             "COLUMNS expects a regex; found an argument that is not a string literal (or use COLUMNS(*))");
      if (*s == "*") fail(ErrorKind::SQLSyntax, f->location, "COLUMNS('*') is not a valid regex; did you mean COLUMNS(*)?");
      p = *s;
    }
    if (pattern && *pattern != p)
      fail(ErrorKind::SQLInterface, f->location, "an expression can use one COLUMNS(...) pattern only");
    pattern = p;
    location = f->location;
    return false;
  });
  if (!pattern) return std::nullopt;
  std::optional<std::regex> rx;
  if (*pattern != "*") {
    std::string p = *pattern;
    const bool starts = !p.empty() && p.front() == '^', ends = !p.empty() && p.back() == '$';
    if (!starts) p = "^.*" + p;
    if (!ends) p += ".*$";
    try {
      rx.emplace(p);
    } catch (const std::regex_error&) {
      fail(ErrorKind::SQLSyntax, location, "COLUMNS: invalid regex '" + *pattern + "'");
    }
  }
  std::vector<std::string> out;
  for (const auto& b : scope.rel->columns) {
    if (b.hidden || b.qualified_only) continue;
    if (!rx || std::regex_match(b.name, *rx)) out.push_back(b.internal);
  }
  return out;
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
    call.order_nulls_last.push_back(sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST);
  }
  if (filter && (call.star || call.args.empty())) {
    // COUNT(*) FILTER (WHERE p): the rows where p holds.
    call.star = false;
    call.args = {filter->filter(*filter)};
    Expr counted = call.args[0].len().cast(DataType::int64());
    return counted;
  }
  if (!f->agg_within_group && !call.order_by.empty() && call.name != "first" && call.name != "last" &&
      call.name != "array_agg")
    fail(ErrorKind::SQLInterface, f->location, "ORDER BY inside " + name + "() is not supported");
  if (!call.order_by.empty() && !f->agg_within_group) {
    // first(x ORDER BY y), array_agg(x ORDER BY y): x sorted by y.
    call.args[0] = call.args[0].sort_by(call.order_by, call.order_descending, call.order_nulls_last, false);
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

// PostgreSQL's frame option bits (nodes/parsenodes.h).
constexpr int kFrameNonDefault = 0x1;
constexpr int kFrameRows = 0x4;
constexpr int kFrameGroups = 0x8;
constexpr int kFrameStartUnboundedPreceding = 0x20;
constexpr int kFrameEndUnboundedFollowing = 0x100;
constexpr int kFrameEndCurrentRow = 0x400;

}  // namespace

// A window function. Without ORDER BY it is the aggregate over the partition broadcast to
// its rows. With ORDER BY, the frame is sorted by the ORDER BY keys (every partition then
// lists its rows in that order) and numbered; ranks, row numbers, lag/lead, first/last
// values and running counts follow from the numbers: a row's number minus the first
// number of its partition, and the first / last numbers of its peers.
Expr Translator::window_call(const PgQuery__FuncCall* f, Scope& scope) {
  if (!scope.windows_allowed)
    fail(ErrorKind::SQLInterface, f->location, std::string("window functions are not allowed in ") + scope.clause);
  const PgQuery__WindowDef* w = resolve_window(f->over, windows_);
  if (!w) fail(ErrorKind::SQLInterface, f->location, std::string("unknown window '") + (f->over->name ? f->over->name : "") + "'");
  Scope row_scope = scope;
  row_scope.windows_allowed = false;
  std::vector<Expr> partition;
  for (size_t i = 0; i < w->n_partition_clause; ++i) partition.push_back(expr(w->partition_clause[i], row_scope));
  for (size_t i = 0; i < f->over->n_partition_clause && w != f->over; ++i)
    partition.push_back(expr(f->over->partition_clause[i], row_scope));
  const PgQuery__WindowDef* order_def = f->over->n_order_clause ? f->over : w;
  const int frame = f->over->frame_options & kFrameNonDefault ? f->over->frame_options : w->frame_options;
  std::string name = function_name_of(f);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (f->agg_filter) fail(ErrorKind::SQLInterface, f->location, "FILTER cannot be combined with OVER");
  auto over = [&](const Expr& e, std::vector<Expr> by) { return by.empty() ? e : e.over(std::move(by)); };
  const bool ranking = name == "row_number" || name == "rank" || name == "dense_rank" || name == "percent_rank" ||
                       name == "cume_dist" || name == "ntile" || name == "lag" || name == "lead" ||
                       name == "first_value" || name == "last_value" || name == "nth_value";
  const bool whole_partition = (frame & kFrameNonDefault) && (frame & kFrameStartUnboundedPreceding) &&
                               (frame & kFrameEndUnboundedFollowing);
  if (frame & kFrameGroups) fail(ErrorKind::SQLInterface, f->location, "GROUPS-based window frames are not supported");
  if (!ranking) {
    if (!is_aggregate_function(name) && !f->agg_star)
      fail(ErrorKind::SQLInterface, f->location, "unknown window function '" + name + "'" + did_you_mean(name, function_names()));
    PgQuery__FuncCall plain = *f;
    plain.over = nullptr;
    Scope agg_scope = row_scope;
    agg_scope.aggregates_allowed = true;
    if (order_def->n_order_clause == 0 || whole_partition) return over(aggregate_call(&plain, agg_scope, true), partition);
    // Running aggregates over an ordered frame: from the start of the partition to the
    // current row (ROWS) or to its last peer (RANGE, the default).
    const bool to_current = !(frame & kFrameNonDefault) || ((frame & kFrameStartUnboundedPreceding) && (frame & kFrameEndCurrentRow));
    const bool running = name == "sum" || name == "avg" || name == "mean" || name == "min" || name == "max" ||
                         name == "count" || name == "total";
    if (!running || !to_current || f->agg_distinct)
      fail(ErrorKind::SQLInterface, f->location,
           "window frames other than the whole partition or its start to the current row are not supported for " +
               name + "()");
  }
  if ((name == "rank" || name == "dense_rank" || name == "percent_rank" || name == "cume_dist") && order_def->n_order_clause == 0) {
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    fail(ErrorKind::SQLInterface, f->location, upper + " requires an OVER clause with ORDER BY");
  }
  if (name == "nth_value") fail(ErrorKind::SQLInterface, f->location, name + "() is not supported yet");
  // The ordering of this window: one sort (and row numbering) per distinct PARTITION BY /
  // ORDER BY of the SELECT; its values are computed right after that sort.
  std::vector<Expr> order;
  std::vector<bool> desc, nulls_last;
  for (size_t i = 0; i < order_def->n_order_clause; ++i) {
    const auto* sb = order_def->order_clause[i]->sort_by;
    order.push_back(expr(sb->node, row_scope));
    const bool d = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    desc.push_back(d);
    bool nl = !d;
    if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST) nl = false;
    if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST) nl = true;
    nulls_last.push_back(nl);
  }
  WindowSpec* spec = nullptr;
  for (auto& sp : window_specs_) {
    bool same = sp.partition.size() == partition.size() && sp.order.size() == order.size() &&
                sp.descending == desc && sp.nulls_last == nulls_last;
    for (size_t i = 0; same && i < partition.size(); ++i) same = exprs_equal(sp.partition[i], partition[i]);
    for (size_t i = 0; same && i < order.size(); ++i) same = exprs_equal(sp.order[i], order[i]);
    if (same) spec = &sp;
  }
  if (!spec) {
    window_specs_.push_back(WindowSpec{partition, order, desc, nulls_last, temp_name("row"), {}, {}});
    spec = &window_specs_.back();
  }
  auto computed = [&](const Expr& value) {
    const std::string name = temp_name("window");
    spec->values.push_back(value.alias(name));
    return dsl::col(name);
  };
  const Expr r = dsl::col(spec->row);
  std::vector<Expr> peers = partition;
  for (const auto& o : order) peers.push_back(o);
  auto first_row = [&]() { return over(r.min(), partition); };
  auto count = [&]() { return over(dsl::len(), partition).cast(DataType::int64()); };
  auto row_number = [&]() { return (r - first_row()).cast(DataType::int64()) + lit(1); };
  auto args = [&](size_t lo, size_t hi) {
    if (f->n_args < lo || f->n_args > hi)
      fail(ErrorKind::SQLInterface, f->location,
           name + "() expects " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi)) +
               " arguments (found " + std::to_string(f->n_args) + ")");
  };
  const bool rows_frame = (frame & kFrameNonDefault) && (frame & kFrameRows);
  // A running value: computed over the sorted partition, then (RANGE frames) read at the
  // current row's last peer, so that peers share it.
  auto running = [&](const Expr& value) {
    Expr first = computed(over(value, partition));
    if (rows_frame || order.empty()) return first;
    const std::string name2 = temp_name("window");
    spec->values2.push_back(over(first.last(), peers).alias(name2));
    return dsl::col(name2);
  };
  if (name == "count" && (f->agg_star || f->n_args == 0)) {
    if (rows_frame) return computed(row_number());
    return computed((over(r.max(), peers) - first_row()).cast(DataType::int64()) + lit(1));
  }
  if (name == "count" || name == "sum" || name == "total" || name == "avg" || name == "mean" || name == "min" ||
      name == "max") {
    args(1, 1);
    Expr x = expr(f->args[0], row_scope);
    Expr n = x.cum_count();
    if (name == "count") return running(n.cast(DataType::int64()));
    Expr total = x.fill_null(lit(0)).cum_sum();
    if (name == "total") return running(total.cast(DataType::float64()));
    if (name == "sum") return running(dsl::when(n == lit(0)).then(lit_null()).otherwise(total));
    if (name == "avg" || name == "mean")
      return running(dsl::when(n == lit(0)).then(lit_null()).otherwise(total.cast(DataType::float64()) / n.cast(DataType::float64())));
    // Nulls filled with a value that never wins, then the running extreme.
    Expr m = name == "min" ? x.fill_null(x.max()).cum_min() : x.fill_null(x.min()).cum_max();
    return running(dsl::when(n == lit(0)).then(lit_null()).otherwise(m));
  }
  if (name == "row_number") {
    args(0, 0);
    return computed(row_number());
  }
  if (name == "rank") {
    args(0, 0);
    return computed((over(r.min(), peers) - first_row()).cast(DataType::int64()) + lit(1));
  }
  if (name == "dense_rank") {
    args(0, 0);
    // The number of distinct peer groups up to this row: the first rows of peer groups,
    // counted in order.
    Expr first_of_peers = computed((r == over(r.min(), peers)).cast(DataType::uint32()));
    const std::string name2 = temp_name("window");
    spec->values2.push_back(over(first_of_peers.cum_sum(), partition).cast(DataType::int64()).alias(name2));
    return dsl::col(name2);
  }
  if (name == "percent_rank") {
    args(0, 0);
    Expr rank0 = (over(r.min(), peers) - first_row()).cast(DataType::float64());
    Expr n = count().cast(DataType::float64());
    return computed(dsl::when(n > lit(1)).then(rank0 / (n - lit(1.0))).otherwise(lit(0.0)));
  }
  if (name == "cume_dist") {
    args(0, 0);
    Expr upto = (over(r.max(), peers) - first_row()).cast(DataType::float64()) + lit(1.0);
    return computed(upto / count().cast(DataType::float64()));
  }
  if (name == "ntile") {
    args(1, 1);
    auto buckets = const_int(f->args[0]);
    if (!buckets || *buckets < 1) fail(ErrorKind::SQLInterface, node_location(f->args[0]), "ntile() needs a positive integer literal");
    // Buckets of q or q + 1 rows, the larger ones first (as PostgreSQL).
    Expr i = row_number() - lit(1);
    Expr c = count();
    Expr q = dsl::floor_div(c, lit(*buckets));
    Expr m = c % lit(*buckets);
    Expr big = m * (q + lit(1));
    return computed(dsl::when(i < big).then(dsl::floor_div(i, q + lit(1)) + lit(1))
        .otherwise(dsl::floor_div(i - big, dsl::when(q == lit(0)).then(lit(1)).otherwise(q)) + m + lit(1)));
  }
  if (name == "lag" || name == "lead") {
    args(1, 3);
    Expr value = expr(f->args[0], row_scope);
    int64_t k = 1;
    if (f->n_args > 1) {
      auto v = const_int(f->args[1]);
      if (!v) fail(ErrorKind::SQLInterface, node_location(f->args[1]), name + "() needs an integer literal offset");
      k = *v;
    }
    const int64_t n = name == "lag" ? k : -k;
    Expr shifted = over(value.shift(n), partition);
    if (f->n_args > 2) {
      Expr fallback = expr(f->args[2], row_scope);
      Expr rn = row_number();
      Expr outside = n >= 0 ? (rn <= lit(n)) : (rn > count() + lit(n));
      shifted = dsl::when(outside).then(fallback).otherwise(shifted);
    }
    return computed(shifted);
  }
  if (name == "first_value" || name == "last_value") {
    args(1, 1);
    Expr value = expr(f->args[0], row_scope);
    if (name == "first_value") return computed(over(value.first(), partition));
    // The default frame ends at the current row's last peer.
    if (whole_partition || order.empty()) return computed(over(value.last(), partition));
    if ((frame & kFrameRows) && (frame & kFrameEndCurrentRow)) return value;
    return computed(over(value.last(), peers));
  }
  fail(ErrorKind::SQLInterface, f->location, "window function '" + name + "' is not supported yet");
}

// Sorts and numbers the frame once per window ordering translated so far, computing that
// ordering's window values right after its sort (and forgets them).
void Translator::prepare_window_frame(Relation& rel) {
  std::vector<WindowSpec> specs = std::move(window_specs_);
  window_specs_.clear();
  for (auto& w : specs) {
    std::vector<Expr> by = w.partition;
    SortArgs args;
    args.descending.assign(w.partition.size(), false);
    args.nulls_last.assign(w.partition.size(), false);
    for (size_t i = 0; i < w.order.size(); ++i) {
      by.push_back(w.order[i]);
      args.descending.push_back(w.descending[i]);
      args.nulls_last.push_back(w.nulls_last[i]);
    }
    args.maintain_order = true;
    if (!by.empty()) rel.frame = rel.frame.sort(by, args);
    rel.frame = rel.frame.with_row_index(w.row);
    rel.columns.push_back(BoundColumn{{}, w.row, w.row, DataType::uint32(), true, true});
    for (const auto* stage : {&w.values, &w.values2}) {
      if (stage->empty()) continue;
      rel.frame = rel.frame.with_columns(*stage);
      for (const auto& v : *stage)
        rel.columns.push_back(BoundColumn{{}, v.node().names[0], v.node().names[0], DataType::null(), true});
    }
  }
  if (!specs.empty()) rel.refresh_dtypes();
}

}  // namespace frazil::sql
