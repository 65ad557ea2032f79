// Translator: PostgreSQL's parse tree of one query -> a Relation (a LazyFrame built with
// the public DSL builders, so the optimizer sees SQL exactly as DataFrame code). Internal
// to the sql layer; its methods are spread over translate_*.cpp, one concern per file.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/dsl/expr.hpp"
#include "frazil/sql/dialect.hpp"
#include "frazil/sql/pg_tree.hpp"
#include "frazil/sql/literals.hpp"
#include "frazil/sql/relation.hpp"

namespace frazil::sql {

using dsl::Expr;

// The tables a FROM clause can name: registered frames and views.
class TableSource {
 public:
  virtual ~TableSource() = default;
  virtual std::optional<LazyFrame> table(const std::string& name) const = 0;
  virtual std::vector<std::string> table_names() const = 0;
};

// One output column of a SELECT list.
struct SelectItem {
  Expr expr;
  std::string name;
  const PgNode* node = nullptr;  // the expression as written (nullptr for `*` columns)
  bool explicit_alias = false;
  bool plain_column = false;     // a bare column reference (or a `*` column)
  std::string source;            // a plain column's frame column
  bool star = false;             // one of the columns `*` stands for
  bool qualified_star = false;   // ... of `t.*`
};

// After GROUP BY: the aggregate calls and group keys of the query, and the columns of the
// aggregated frame that hold them.
struct GroupedExprs {
  std::vector<std::pair<const PgNode*, Expr>> aggregates;  // call -> expression over the atoms
  std::vector<std::pair<const PgNode*, std::string>> keys;
  // The plain aggregations computed (column name, aggregation).
  std::vector<std::pair<std::string, Expr>> atoms;
  // Expression keys (column name, expression), for output names.
  std::vector<std::pair<std::string, Expr>> key_exprs;
};

struct Scope;

// Outer columns a subquery's predicate refers to (correlation): each becomes a
// placeholder column name while the predicate is translated.
struct Correlation {
  const Scope* outer = nullptr;
  struct Ref {
    const Scope* scope;       // where the column resolved
    std::string internal;     // its frame column there
    std::string placeholder;  // the name used in the translated predicate
  };
  std::vector<Ref> refs;
};

struct Scope {
  Relation* rel = nullptr;             // the columns in scope (subqueries may join onto it)
  const Scope* outer = nullptr;        // the enclosing query, for correlated references
  const GroupedExprs* grouped = nullptr;
  const std::vector<SelectItem>* select_items = nullptr;  // aliases (ORDER BY, HAVING, ...)
  Correlation* correlation = nullptr;  // set while translating a correlated predicate
  const char* clause = "SELECT";
  bool aggregates_allowed = false;     // translate aggregate calls as aggregations
  bool windows_allowed = false;
  bool free_columns = false;           // any column name is a column (sql_expr)
  bool grouped_rows = false;           // aggregates see groups of GROUP BY: never empty
  const std::string* columns_subst = nullptr;  // the column COLUMNS(...) stands for (one expansion)
};

// A FROM-list entry with its position, for join ordering and errors.
struct FromItem {
  Relation rel;
  int32_t location;
};

class Translator {
 public:
  Translator(const TableSource& tables, const DialectRewrite& dialect);

  // A query: SELECT, VALUES, set operations, WITH.
  Relation query(const PgNode* node, const Scope* outer);
  Relation select_stmt(const PgQuery__SelectStmt* s, const Scope* outer);

  // An expression in `scope`.
  Expr expr(const PgNode* node, Scope& scope);
  // The dtype `e` has over `scope`'s relation.
  DataType dtype_of(const Expr& e, const Scope& scope);
  // Scalars of possibly different types as one array of their supertype.
  ArrayRef scalars_to_array(const std::vector<Scalar>& values, int32_t location,
                            std::optional<DataType> target = std::nullopt);
  // Whether `e` can hold no null over `rel` (columns known non-null, arithmetic on them).
  bool known_non_null(const Expr& e, const Relation& rel) const;
  // The value of a constant node (literals, typed literals, negated numbers), if it is one.
  std::optional<Scalar> constant_scalar(const PgNode* node);

  [[noreturn]] void fail(ErrorKind kind, int32_t location, const std::string& message) const;
  [[noreturn]] void unsupported(const PgNode* node, const std::string& what) const;
  const DialectRewrite& dialect() const { return dialect_; }

  // A column name unique to this translation ("__sql_<what>_<n>").
  std::string temp_name(const std::string& what);

  // The relation a table name denotes (CTEs first), or nullopt.
  std::optional<Relation> named_table(const std::string& name, const std::string& alias);

  // Subqueries already joined in this query, so that one written twice is joined once.
  struct JoinedSubquery {
    const PgNode* node;
    int kind;
    const Relation* rel;
    std::string column;
    Expr value;
  };
  std::vector<JoinedSubquery> joined_subqueries;
  // WITH: name -> relation, innermost last.
  std::vector<std::pair<std::string, Relation>> ctes;

 private:
  // translate_expr.cpp
  Expr column_ref(const PgQuery__ColumnRef* c, Scope& scope);
  // A compound name split into its column (qualified or not) and the struct fields below it.
  struct ColumnPath {
    std::string qualifier;
    std::string name;
    std::vector<std::string> fields;
  };
  ColumnPath column_path(const std::vector<std::string>& parts, const Scope& scope) const;
  Expr named_column(int32_t location, const std::string& qualifier, const std::string& name, Scope& scope);
  // The items of s.* (a struct column's fields).
  std::vector<SelectItem> struct_star(const PgQuery__ColumnRef* c, Scope& scope);
  Expr constant(const PgQuery__AConst* c);
  DataType type_name(const PgQuery__TypeName* t);
  Expr type_cast(const PgQuery__TypeCast* c, Scope& scope);
  Expr interval_literal(const Interval& iv, int32_t location);
  Expr sql_value_function(const PgQuery__SQLValueFunction* f);
  Expr binary(const std::string& op, const PgNode* l, const PgNode* r, Scope& scope, int32_t location);
  // Nested access (translate_nested.cpp): -> ->> #> #>>, subscripts and (s).field.
  static bool is_path_operator(const std::string& op);
  Expr path_operator(const std::string& op, const PgNode* l, const PgNode* r, Scope& scope);
  Expr indirection(const PgQuery__AIndirection* ind, Scope& scope);
  std::optional<Interval> interval_of(const PgNode* node) const;
  Expr a_expr(const PgQuery__AExpr* e, Scope& scope);
  Expr binary_operand(const PgNode* node, const Expr& other, Scope& scope);
  Expr implicit_temporal(const std::string& text, const DataType& t, int32_t location);
  Expr in_list(const Expr& value, const PgNode* list, Scope& scope, int32_t location);
  Expr string_concat(const std::vector<Expr>& parts, int32_t location);
  // translate_functions.cpp
  Expr function_call(const PgQuery__FuncCall* f, Scope& scope);
  Expr aggregate_call(const PgQuery__FuncCall* f, Scope& scope, bool in_window = false);
  Expr window_call(const PgQuery__FuncCall* f, Scope& scope);
  // The frame columns a COLUMNS(*) / COLUMNS('regex') call in `node` selects, or nullopt if
  // it has none: the expression is translated once per column.
  std::optional<std::vector<std::string>> columns_expansion(const PgNode* node, const Scope& scope) const;
  // translate_select.cpp
  Relation simple_select(const PgQuery__SelectStmt* s, const Scope* outer);
  std::vector<SelectItem> select_list(const PgQuery__SelectStmt* s, Scope& scope, bool star_allowed);
  void apply_wildcard_options(std::vector<SelectItem>& star, const PgQuery__FuncCall* f, Scope& scope);
  void name_outputs(std::vector<SelectItem>& items) const;
  // Polars' name for an item's output (aggregates named after their input columns).
  std::string output_name(const Expr& e, const Scope& scope) const;
  Relation project(Relation rel, std::vector<SelectItem> items);
  Relation order_and_limit(const PgQuery__SelectStmt* s, Relation rel, const std::vector<SelectItem>* items,
                           Scope* pre, const Scope* outer, std::optional<Expr> qualify = std::nullopt);
  std::optional<int64_t> limit_value(const PgNode* node, const char* what);
  // translate_group_by.cpp
  bool is_aggregate_query(const PgQuery__SelectStmt* s) const;
  void collect_aggregates(const PgNode* node, std::vector<const PgNode*>& out) const;
  Relation aggregate(const PgQuery__SelectStmt* s, Relation input, const Scope* outer, GroupedExprs& grouped,
                     std::vector<const PgNode*>& key_nodes, const std::vector<Expr>& extra_keys = {});
  // translate_from.cpp
  Relation from_clause(const PgQuery__SelectStmt* s, const Scope* outer, std::vector<const PgNode*>& where);
  Relation from_item(const PgNode* node, const Scope* outer);
  Relation join(const PgQuery__JoinExpr* j, const Scope* outer);
  Relation table_function(const PgQuery__RangeFunction* f, const Scope* outer);
  Relation unnest_join(Relation left, const PgQuery__RangeFunction* f, const Scope* outer);
  Relation apply_alias(Relation rel, const PgQuery__Alias* alias, const std::string& default_name);
  // Joins on key pairs; right columns whose frame names collide with left ones are renamed
  // first. `coalesce_keys`: plain-column key pairs keep one column (inner equi-joins, USING),
  // the right key's SQL names resolving to it.
  Relation join_relations(Relation left, Relation right, std::vector<Expr> left_on, std::vector<Expr> right_on,
                          compute::JoinType how, bool coalesce_keys, const std::string& right_name);
  Relation using_join(Relation left, Relation right, const std::vector<std::string>& names, compute::JoinType how,
                      const std::string& right_name);
  Relation conditional_left_join(Relation left, Relation right, std::vector<Expr> lk, std::vector<Expr> rk,
                                 const std::vector<const PgNode*>& conditions, compute::JoinType how, const Scope* outer,
                                 const std::string& right_name);
  // translate_join_order.cpp
  Relation join_from_list(std::vector<FromItem> items, std::vector<const PgNode*>& where, const Scope* outer);
  int64_t subquery_items(const PgNode* c, const std::vector<FromItem>& items, const Scope* outer,
                         bool* correlated = nullptr);
  // translate_where.cpp
  Relation filter_conjuncts(Relation rel, const std::vector<const PgNode*>& conjuncts, const Scope* outer,
                            const char* clause, const GroupedExprs* grouped = nullptr,
                            const std::vector<SelectItem>* items = nullptr);
  // translate_subquery.cpp
  struct Decorrelated;
  bool subquery_conjunct(const PgNode* node, Scope& scope, bool negated);
  Expr sublink(const PgQuery__SubLink* link, Scope& scope);
  int correlation_sides(const PgNode* node, const Relation& inner, const Scope& outer) const;
  Decorrelated decorrelate(const PgQuery__SelectStmt* sub, Scope& scope);
  bool has_nested_sublink(const PgNode* node) const;
  const PgNode* single_target(const PgQuery__SelectStmt* sub, int32_t location, const char* what) const;
  void materialize_keys(Relation& rel, std::vector<Expr>& keys);
  Relation attach(Relation& rel, Relation right, std::vector<Expr> outer_on, std::vector<Expr> inner_on,
                  compute::JoinType how);
  std::optional<Scalar> empty_value(const GroupedExprs& grouped, const Relation& post, const Expr& value);
  std::optional<Expr> join_scalar(const PgQuery__SubLink* link, Scope& scope, compute::JoinType how,
                                  const std::optional<Expr>& equal_to);
  bool correlated(const PgQuery__SelectStmt* sub, const Scope& scope);
  void magic_join(Relation& inner, Decorrelated& d, Scope& scope, std::vector<Expr>& key_exprs,
                  std::vector<Expr>& outer_on, std::vector<std::string>& key_names);
  std::optional<Expr> exists(const PgQuery__SubLink* link, Scope& scope, std::optional<bool> filter_negated,
                             const std::optional<std::pair<Expr, const PgNode*>>& in_value);
  std::optional<Expr> in_uncorrelated(Relation s, Scope& scope, const Expr& x, std::optional<bool> filter_negated,
                                      int32_t location);
  // translate_set_ops.cpp
  Relation set_operation(const PgQuery__SelectStmt* s, const Scope* outer);
  Relation set_operation_by_name(const PgQuery__SelectStmt* s, Relation left, Relation right);
  LazyFrame intersect_or_except(LazyFrame l, LazyFrame r, const std::vector<std::string>& names,
                                const std::vector<DataType>& types, bool intersect, bool all);
  Relation order_set_result(const PgQuery__SelectStmt* s, Relation rel);
  Relation values_list(const PgQuery__SelectStmt* s, const Scope* outer);

  const TableSource& tables_;
  const DialectRewrite& dialect_;
  int counter_ = 0;
  std::vector<const PgQuery__WindowDef*> windows_;  // the current SELECT's named windows
  // The window orderings of the current SELECT: per distinct PARTITION BY / ORDER BY, the
  // row number column after sorting by them, and the values computed right after.
  struct WindowSpec {
    std::vector<Expr> partition;
    std::vector<Expr> order;
    std::vector<bool> descending;
    std::vector<bool> nulls_last;
    std::string row;
    std::vector<Expr> values;   // aliased, computed right after the sort
    std::vector<Expr> values2;  // aliased, computed from `values` (peers' shared values)
  };
  std::vector<WindowSpec> window_specs_;
  void prepare_window_frame(Relation& rel);
};

// A null-safe join key: (is_null, value with nulls filled), so that NULL matches NULL.
bool null_safe_key(const Expr& e, const DataType& t, std::vector<Expr>& out);

// LIKE / ILIKE as the cheapest string function matching the pattern.
Expr like_expr(const Expr& value, const std::string& pattern, bool case_insensitive, char escape);
// SIMILAR TO as an anchored regular expression.
std::string similar_to_regex(const std::string& pattern);

}  // namespace frazil::sql
