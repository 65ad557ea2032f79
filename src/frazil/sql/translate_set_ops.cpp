// UNION [ALL], INTERSECT, EXCEPT (columns matched by position, cast to common types,
// NULLs equal as SQL's set operations have them) and VALUES lists.
#include "frazil/core/supertype.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using compute::JoinType;
using dsl::col;
using dsl::lit;

namespace {

std::vector<const BoundColumn*> visible(const Relation& r) {
  std::vector<const BoundColumn*> out;
  for (const auto& c : r.columns)
    if (!c.hidden) out.push_back(&c);
  return out;
}

// A null-safe join key: (is_null, value with nulls filled), so that NULL matches NULL.
}  // namespace

bool null_safe_key(const Expr& e, const DataType& t, std::vector<Expr>& out) {
  using dsl::lit;
  Expr fill;
  if (t.is_numeric() || t.id() == TypeId::Date || t.id() == TypeId::Datetime || t.id() == TypeId::Duration ||
      t.id() == TypeId::Time)
    fill = lit(0).cast(t);
  else if (t.is_string())
    fill = lit(std::string());
  else if (t.is_boolean())
    fill = lit(false);
  else if (t.id() == TypeId::Null)
    fill = lit(false);
  else
    return false;
  out.push_back(e.is_null());
  out.push_back(t.id() == TypeId::Null ? fill : e.fill_null(fill));
  return true;
}

namespace {

// The least and greatest `location` (original offsets) of the nodes below a statement.
std::pair<int32_t, int32_t> location_span(const PgQuery__SelectStmt* s, const SourceText& src) {
  int32_t lo = INT32_MAX, hi = -1;
  walk_nodes(reinterpret_cast<const ProtobufCMessage*>(s), [&](const PgNode* n) {
    const int32_t at = node_location(n);
    if (at >= 0) {
      lo = std::min(lo, src.to_original(at));
      hi = std::max(hi, src.to_original(at));
    }
    return true;
  });
  return {lo, hi};
}

}  // namespace

Relation Translator::set_operation(const PgQuery__SelectStmt* s, const Scope* outer) {
  Relation left = select_stmt(s->larg, outer);
  Relation right = select_stmt(s->rarg, outer);
  // BY NAME: marked by the dialect rewrite between the two sides.
  bool by_name = false;
  if (!dialect_.by_name.empty()) {
    const int32_t l_end = location_span(s->larg, dialect_.source).second;
    const int32_t r_start = location_span(s->rarg, dialect_.source).first;
    for (int32_t m : dialect_.by_name)
      if (m > l_end && m <= r_start) by_name = true;
  }
  if (by_name) return set_operation_by_name(s, std::move(left), std::move(right));
  auto lc = visible(left);
  auto rc = visible(right);
  const char* name = s->op == PG_QUERY__SET_OPERATION__SETOP_UNION       ? "UNION"
                     : s->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT ? "INTERSECT"
                                                                         : "EXCEPT";
  if (lc.size() != rc.size())
    fail(ErrorKind::SQLInterface, -1,
         std::string(name) + " requires equal number of columns in each table (" + std::to_string(lc.size()) + " and " +
             std::to_string(rc.size()) + ")");
  // The left side's names, the common types of both.
  std::vector<Expr> lsel, rsel;
  std::vector<std::string> names;
  std::vector<DataType> types;
  for (size_t i = 0; i < lc.size(); ++i) {
    auto t = get_supertype(lc[i]->dtype, rc[i]->dtype);
    if (!t)
      fail(ErrorKind::SQLInterface, -1,
           std::string(name) + " column " + std::to_string(i + 1) + " has types " + dtype_display(lc[i]->dtype) + " and " +
               dtype_display(rc[i]->dtype) + " without a common type");
    const std::string& n = lc[i]->name;
    names.push_back(n);
    types.push_back(*t);
    Expr l = col(lc[i]->internal);
    Expr r = col(rc[i]->internal);
    if (!(lc[i]->dtype == *t)) l = l.cast(*t);
    if (!(rc[i]->dtype == *t)) r = r.cast(*t);
    lsel.push_back(l.alias(n));
    rsel.push_back(r.alias(n));
  }
  LazyFrame l = left.frame.select(lsel);
  LazyFrame r = right.frame.select(rsel);
  Relation out(l);
  if (s->op == PG_QUERY__SET_OPERATION__SETOP_UNION) {
    out.frame = concat({l, r});
    if (!s->all) out.frame = out.frame.unique({}, "any", false);
  } else {
    out.frame = intersect_or_except(l, r, names, types, s->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT, s->all);
  }
  for (size_t i = 0; i < names.size(); ++i) out.columns.push_back(BoundColumn{{}, names[i], names[i], types[i], false});
  return order_set_result(s, std::move(out));
}

// A set operation matching columns by name: UNION BY NAME keeps the left side's columns
// then the right side's others (NULL where a side lacks one); EXCEPT / INTERSECT BY NAME
// read the right side's columns of the left side's names.
Relation Translator::set_operation_by_name(const PgQuery__SelectStmt* s, Relation left, Relation right) {
  auto lc = visible(left);
  auto rc = visible(right);
  std::vector<std::string> names;
  std::vector<DataType> types;
  auto find = [](const std::vector<const BoundColumn*>& cols, const std::string& n) -> const BoundColumn* {
    for (const auto* c : cols)
      if (c->name == n) return c;
    for (const auto* c : cols)
      if (iequals(c->name, n)) return c;
    return nullptr;
  };
  for (const auto* c : lc) names.push_back(c->name);
  if (s->op == PG_QUERY__SET_OPERATION__SETOP_UNION)
    for (const auto* c : rc)
      if (!find(lc, c->name)) names.push_back(c->name);
  std::vector<Expr> lsel, rsel;
  for (const auto& n : names) {
    const BoundColumn* l = find(lc, n);
    const BoundColumn* r = find(rc, n);
    if (!r && s->op != PG_QUERY__SET_OPERATION__SETOP_UNION)
      fail(ErrorKind::SQLInterface, -1, "column '" + n + "' of the left side is missing from the right side");
    DataType t = l && r ? get_supertype(l->dtype, r->dtype).value_or(l->dtype) : (l ? l->dtype : r->dtype);
    types.push_back(t);
    lsel.push_back((l ? col(l->internal).cast(t) : lit(Scalar::null(t))).alias(n));
    rsel.push_back((r ? col(r->internal).cast(t) : lit(Scalar::null(t))).alias(n));
  }
  LazyFrame l = left.frame.select(lsel);
  LazyFrame r = right.frame.select(rsel);
  Relation out(l);
  for (size_t i = 0; i < names.size(); ++i) out.columns.push_back(BoundColumn{{}, names[i], names[i], types[i], false});
  if (s->op == PG_QUERY__SET_OPERATION__SETOP_UNION) {
    out.frame = concat({l, r});
    if (!s->all) out.frame = out.frame.unique({}, "any", false);
  } else {
    out.frame = intersect_or_except(l, r, names, types, s->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT, s->all);
  }
  return order_set_result(s, std::move(out));
}

// INTERSECT / EXCEPT [ALL] with NULLs equal: a semi / anti join on every column. ALL keeps
// duplicates: each row is numbered within its group of equal rows, and the number joins too.
LazyFrame Translator::intersect_or_except(LazyFrame l, LazyFrame r, const std::vector<std::string>& names,
                                          const std::vector<DataType>& types, bool intersect, bool all) {
  std::vector<Expr> lk, rk;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!null_safe_key(col(names[i]), types[i], lk) || !null_safe_key(col(names[i]), types[i], rk))
      fail(ErrorKind::SQLInterface, -1,
           std::string(intersect ? "INTERSECT" : "EXCEPT") + " over a " + dtype_display(types[i]) + " column is not supported");
  }
  JoinArgs args;
  args.how = intersect ? JoinType::Semi : JoinType::Anti;
  if (!all) return l.unique({}, "any", false).join(r, lk, rk, args);
  const std::string n = temp_name("dup");
  std::vector<Expr> group;
  for (const auto& name : names) group.push_back(col(name));
  auto numbered = [&](const LazyFrame& f) {
    return f.with_columns({dsl::lit(1).alias(n)}).with_columns({col(n).cum_sum().over(group).alias(n)});
  };
  lk.push_back(col(n));
  rk.push_back(col(n));
  std::vector<Expr> visible_cols;
  for (const auto& name : names) visible_cols.push_back(col(name));
  return numbered(l).join(numbered(r), lk, rk, args).select(visible_cols);
}

// ORDER BY / LIMIT of a set operation or VALUES: over its output columns.
Relation Translator::order_set_result(const PgQuery__SelectStmt* s, Relation rel) {
  if (s->n_sort_clause == 0 && !s->limit_count && !s->limit_offset) return rel;
  std::vector<SelectItem> items;
  for (const auto& c : rel.columns) {
    if (c.hidden) continue;
    SelectItem it;
    it.expr = col(c.internal);
    it.name = c.name;
    it.plain_column = true;
    items.push_back(it);
  }
  Scope scope;
  scope.rel = &rel;
  scope.clause = "ORDER BY";
  PgQuery__SelectStmt shallow = *s;
  shallow.n_distinct_clause = 0;
  shallow.n_window_clause = 0;
  return order_and_limit(&shallow, std::move(rel), &items, &scope, nullptr);
}

Relation Translator::values_list(const PgQuery__SelectStmt* s, const Scope* outer) {
  const size_t rows = s->n_values_lists;
  const size_t width = s->values_lists[0]->list->n_items;
  for (size_t r = 1; r < rows; ++r)
    if (s->values_lists[r]->list->n_items != width)
      fail(ErrorKind::SQLInterface, node_location(s->values_lists[r]->list->items[0]), "VALUES lists must all have the same length");
  std::vector<Column> columns;
  bool constant = true;
  for (size_t c = 0; c < width && constant; ++c) {
    std::vector<Scalar> values;
    for (size_t r = 0; r < rows && constant; ++r) {
      auto v = constant_scalar(s->values_lists[r]->list->items[c]);
      if (!v) constant = false;
      else values.push_back(*v);
    }
    if (constant)
      columns.emplace_back("column" + std::to_string(c + 1), scalars_to_array(values, node_location(s->values_lists[0]->list->items[c])));
  }
  Relation out(LazyFrame::from_frame(DataFrame::empty_with_height(1)));
  if (constant) {
    out = Relation::of_frame(LazyFrame::from_frame(DataFrame(columns)), "");
  } else {
    // Rows of expressions: one select per row, concatenated at common types.
    Relation one(LazyFrame::from_frame(DataFrame::empty_with_height(1)));
    Scope scope;
    scope.rel = &one;
    scope.outer = outer;
    scope.clause = "VALUES";
    std::vector<std::vector<Expr>> row_exprs(rows);
    std::vector<DataType> types(width, DataType::null());
    for (size_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < width; ++c) {
        Expr e = expr(s->values_lists[r]->list->items[c], scope);
        DataType t = dtype_of(e, scope);
        auto super = get_supertype(types[c], t);
        if (!super) fail(ErrorKind::SQLInterface, node_location(s->values_lists[r]->list->items[c]), "VALUES column " + std::to_string(c + 1) + " mixes incompatible types");
        types[c] = *super;
        row_exprs[r].push_back(e);
      }
    }
    std::vector<LazyFrame> frames;
    for (size_t r = 0; r < rows; ++r) {
      std::vector<Expr> sel;
      for (size_t c = 0; c < width; ++c) sel.push_back(row_exprs[r][c].cast(types[c]).alias("column" + std::to_string(c + 1)));
      frames.push_back(one.frame.select(sel));
    }
    out = Relation::of_frame(frames.size() == 1 ? frames[0] : concat(frames), "");
  }
  return order_set_result(s, std::move(out));
}

}  // namespace frazil::sql
