// Expr: the expression tree users write (`col("a") + lit(1) > col("b")`). Immutable;
// children are shared, so copying an Expr is a reference-count bump.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/compute/aggregate.hpp"
#include "frazil/core/array.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/functions/function_call.hpp"
#include "frazil/dsl/operator.hpp"

namespace frazil::dsl {

enum class ExprKind : uint8_t {
  Column,      // names[0]
  Columns,     // names: several columns, expanded at conversion
  Wildcard,    // col("*") / all()
  Exclude,     // inputs[0] (a wildcard), names: excluded
  Nth,         // literal.scalar: index
  Literal,     // literal
  Alias,       // inputs[0], names[0]
  BinaryExpr,  // inputs[0] op inputs[1]
  Cast,        // inputs[0], dtype, strict
  Agg,         // agg(inputs[0])
  Ternary,     // when inputs[0] then inputs[1] otherwise inputs[2]
  Function,    // function(inputs...)
  Len,         // len()
  Sort,        // inputs[0], sort
  SortBy,      // inputs[0] sorted by inputs[1..], sort
  Filter,      // inputs[0] where inputs[1]
  Window,      // inputs[0] over inputs[1..] (partition keys, then window.num_order_by order keys)
  // Output-name rules, struct fields and selectors (resolved at conversion):
  RenameAlias,   // inputs[0] named rename(its output name); names[0]: the rule's display (".name.suffix(_x)")
  KeepName,      // inputs[0] named after its root column (name.keep)
  Selector,      // the columns select(schema) picks (a multi-output leaf); names[0]: its display
  StructFields,  // inputs[0] (a Struct): one output per field named in names ("*", a ^...$ regex or a name)
  Field,         // pl.field(names[0]): a field of the struct that with_fields is applied to
};

// A rule naming an expression after its output name (name.suffix, name.map).
using NameMapping = std::function<std::string(const std::string&)>;
// The columns of a schema a selector picks, in the order it gives them.
using ColumnSelection = std::function<std::vector<std::string>(const Schema&)>;

// A literal: one scalar (possibly "dynamic": a Python int/float whose dtype adapts to the
// other operand), or a whole series (the values of `is_in([...])`).
struct LiteralValue {
  Scalar scalar;
  bool dynamic = false;
  ArrayRef series;  // set for a series literal

  bool is_series() const { return series != nullptr; }
  // The dtype this literal has when nothing adapts it: dynamic ints are Int32 when they
  // fit, else Int64; dynamic floats Float64.
  DataType materialized_dtype() const;
  Scalar materialized_scalar() const;
  bool operator==(const LiteralValue& other) const;
  size_t hash() const;
};

struct SortFlags {
  bool descending = false;
  bool nulls_last = false;
  bool maintain_order = false;
  std::vector<bool> descending_by;  // SortBy: per key
  std::vector<bool> nulls_last_by;  // SortBy: per key (empty: `nulls_last` for every key)
  bool operator==(const SortFlags&) const = default;
};

// How over() evaluates and maps back (Polars' WindowType and WindowMapping).
enum class WindowMapping : uint8_t {
  GroupToRows,  // each row gets its own result (aggregates broadcast over their partition)
  Join,         // each row gets its partition's results as a list
  Explode,      // the partitions' results one after the other (changes the row order)
};
enum class WindowKind : uint8_t {
  Over,     // partitions by keys: inputs[1..1+partitions), then the order keys
  Rolling,  // Expr.rolling: inputs[1] is the index column; each row's window is the rows
            // with index in (t - period + offset, t + offset] (closed as `closed` says)
};
struct WindowOptions {
  WindowKind kind = WindowKind::Over;
  size_t num_order_by = 0;  // Over: the last inputs that order each partition's rows
  bool descending = false;  // of the order keys
  bool nulls_last = false;
  WindowMapping mapping = WindowMapping::GroupToRows;
  std::string period, offset, closed;  // Rolling (Polars duration strings; closed: left/right/both/none)
  bool operator==(const WindowOptions&) const = default;
  size_t hash() const;
  // Each row of the frame keeps its place (every mapping but explode).
  bool keeps_rows() const { return mapping != WindowMapping::Explode; }
};

class Expr;
class StrNameSpace;  // str_namespace.hpp
class DtNameSpace;   // dt_namespace.hpp
class ListNameSpace;    // list_namespace.hpp
class StructNameSpace;  // struct_namespace.hpp
class NameNameSpace;    // name_namespace.hpp

struct ExprNode {
  ExprKind kind = ExprKind::Literal;
  std::vector<Expr> inputs;
  std::vector<std::string> names;
  LiteralValue literal;
  Operator op = Operator::Plus;
  DataType dtype;
  bool strict = true;
  compute::AggKind agg = compute::AggKind::Sum;
  compute::AggOptions agg_options;
  functions::FunctionCall function;
  SortFlags sort;
  WindowOptions window;
  std::shared_ptr<const NameMapping> rename;  // RenameAlias
  std::shared_ptr<const ColumnSelection> select;  // Selector

  ExprNode() = default;
  ExprNode(const ExprNode&) = default;
  ExprNode(ExprNode&&) noexcept = default;
  ExprNode& operator=(const ExprNode&) = default;
  ExprNode& operator=(ExprNode&&) noexcept = default;
  // Frees the inputs this node is the last owner of one node at a time: a chain of 100,000
  // operations freed by recursion would overflow the stack.
  ~ExprNode();
};

class Expr {
 public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const ExprNode> node) : node_(std::move(node)) {}
  // Numbers become dynamic literals, so `col("a") + 1` and `col("x") * 2.5` read naturally.
  Expr(int value);     // NOLINT
  Expr(long value);    // NOLINT
  Expr(double value);  // NOLINT
  // (The node is not created const: ~ExprNode takes the inputs of nodes it frees.)
  static Expr make(ExprNode node) { return Expr(std::make_shared<ExprNode>(std::move(node))); }

  const ExprNode& node() const { return *node_; }
  ExprKind kind() const { return node_->kind; }
  const std::vector<Expr>& inputs() const { return node_->inputs; }
  bool valid() const { return node_ != nullptr; }

  // naming and types
  Expr alias(const std::string& name) const;
  Expr cast(const DataType& dtype, bool strict = true) const;

  // binary operators
  Expr binary(Operator op, const Expr& other) const;
  Expr eq_missing(const Expr& other) const { return binary(Operator::EqValidity, other); }
  Expr ne_missing(const Expr& other) const { return binary(Operator::NotEqValidity, other); }
  Expr pow(const Expr& exponent) const;

  // Functions of the registry (functions/registry.hpp), by Polars' name: this expression is
  // the root (input 0), `extra` the other inputs, `keywords` the parameters by name:
  // col("x").function("round", {}, {{"decimals", 2}}). Arity and parameters are checked here.
  using Keywords = std::vector<std::pair<std::string, functions::ArgValue>>;
  Expr function(std::string_view name, std::vector<Expr> extra = {}, Keywords keywords = {}) const;
  Expr function(functions::FunctionCall call, std::vector<Expr> extra = {}) const;
  Expr not_() const { return function("not"); }
  Expr is_null() const { return function("is_null"); }
  Expr is_not_null() const { return function("is_not_null"); }
  Expr is_nan() const { return function("is_nan"); }
  Expr is_not_nan() const { return function("is_not_nan"); }
  Expr fill_null(const Expr& value) const { return function("fill_null", {value}); }
  Expr fill_nan(const Expr& value) const { return function("fill_nan", {value}); }
  Expr is_in(const Expr& values) const { return function("is_in", {values}); }
  Expr is_between(const Expr& lo, const Expr& hi, const std::string& closed = "both") const {
    return function("is_between", {lo, hi}, {{"closed", closed}});
  }
  Expr abs() const { return function("abs"); }
  Expr round(int64_t decimals) const { return function("round", {}, {{"decimals", decimals}}); }
  Expr sqrt() const { return function("sqrt"); }
  Expr floor() const { return function("floor"); }
  Expr ceil() const { return function("ceil"); }
  Expr reverse() const { return function("reverse"); }
  Expr shift(int64_t n = 1) const { return function("shift", {}, {{"n", n}}); }
  Expr unique(bool maintain_order = false) const { return function("unique", {}, {{"maintain_order", maintain_order}}); }
  Expr drop_nulls() const { return function("drop_nulls"); }
  Expr head(int64_t n = 10) const { return function("head", {}, {{"n", n}}); }
  Expr tail(int64_t n = 10) const { return function("tail", {}, {{"n", n}}); }
  Expr null_count() const { return function("null_count"); }
  // Running sum / min / max / count of the non-null values, in row order.
  Expr cum_sum() const { return function("cum_sum"); }
  Expr cum_min() const { return function("cum_min"); }
  Expr cum_max() const { return function("cum_max"); }
  Expr cum_count() const { return function("cum_count"); }
  // One row per element of a List expression (Polars' Expr.explode).
  Expr explode(bool empty_as_null = false, bool keep_nulls = true) const {
    return function("explode", {}, {{"empty_as_null", empty_as_null}, {"keep_nulls", keep_nulls}});
  }

  // aggregations
  Expr agg(compute::AggKind kind, compute::AggOptions options = {}) const;
  Expr sum() const { return agg(compute::AggKind::Sum); }
  Expr mean() const { return agg(compute::AggKind::Mean); }
  Expr min() const { return agg(compute::AggKind::Min); }
  Expr max() const { return agg(compute::AggKind::Max); }
  Expr count() const { return agg(compute::AggKind::Count); }
  Expr len() const { return agg(compute::AggKind::Len); }
  Expr n_unique() const { return agg(compute::AggKind::NUnique); }
  Expr first() const { return agg(compute::AggKind::First); }
  Expr last() const { return agg(compute::AggKind::Last); }
  Expr median() const { return agg(compute::AggKind::Median); }
  Expr std(int ddof = 1) const;
  Expr var(int ddof = 1) const;
  Expr quantile(double q, const std::string& interpolation = "nearest") const;
  Expr any(bool ignore_nulls = true) const;
  Expr all(bool ignore_nulls = true) const;

  // ordering, filtering, windows
  Expr sort(bool descending = false, bool nulls_last = false, bool maintain_order = false) const;
  Expr sort_by(std::vector<Expr> by, std::vector<bool> descending = {false}, bool nulls_last = false,
               bool maintain_order = false) const;
  // With nulls_last per key (one entry applies to all, as descending).
  Expr sort_by(std::vector<Expr> by, std::vector<bool> descending, std::vector<bool> nulls_last,
               bool maintain_order) const;
  Expr filter(const Expr& predicate) const;
  Expr over(std::vector<Expr> partition_by) const;
  // over() with order keys (Polars' order_by, descending, nulls_last) and a mapping strategy;
  // partition_by may be empty when order_by is given (one partition: the whole frame).
  Expr over(std::vector<Expr> partition_by, std::vector<Expr> order_by, bool descending = false,
            bool nulls_last = false, WindowMapping mapping = WindowMapping::GroupToRows) const;
  // Expr.rolling: the expression over each row's window of `index_column` values
  // (period/offset are Polars duration strings such as "2d", "3i"; offset "" for -period).
  Expr rolling(const Expr& index_column, const std::string& period, const std::string& offset = "",
               const std::string& closed = "right") const;
  Expr exclude(std::vector<std::string> names) const;

  // Polars' `str` and `dt` namespaces (include str_namespace.hpp / dt_namespace.hpp):
  // col("a").str().contains("x"), col("t").dt().year().
  StrNameSpace str() const;
  DtNameSpace dt() const;
  // Polars' `list` namespace (include list_namespace.hpp): col("a").list().len().
  ListNameSpace list() const;
  // Polars' `struct` and `name` namespaces (struct_namespace.hpp / name_namespace.hpp).
  StructNameSpace struct_() const;
  NameNameSpace name() const;

  // A Polars-style rendering: col("a"), (col("a") + 1), col("x").sum().alias("y").
  std::string to_string() const;

 private:
  friend struct ExprNode;
  std::shared_ptr<const ExprNode> node_;
};

// Constructors of the expression language.
Expr col(const std::string& name);  // "*" is the wildcard
Expr cols(std::vector<std::string> names);
Expr all();
Expr nth(int64_t index);
Expr lit(const Scalar& value);
Expr lit_dynamic_int(int64_t value);    // a Python int
Expr lit_dynamic_float(double value);   // a Python float
Expr lit(int64_t value);                // dynamic int, like Python's pl.lit(1)
Expr lit(int value);
Expr lit(double value);                 // dynamic float
Expr lit(bool value);
Expr lit(const char* value);
Expr lit(const std::string& value);
Expr lit_null();
Expr lit_series(ArrayRef values);
Expr len();
Expr coalesce(std::vector<Expr> exprs);

// when(...).then(...)[.when(...).then(...)].otherwise(...)
class When;
class Then {
 public:
  When when(const Expr& predicate) const;
  Expr otherwise(const Expr& value) const;
  operator Expr() const;  // NOLINT: otherwise(null)

 private:
  friend class When;
  std::vector<std::pair<Expr, Expr>> branches_;
};
class When {
 public:
  explicit When(const Expr& predicate) : predicate_(predicate) {}
  Then then(const Expr& value) const;

 private:
  friend class Then;
  std::vector<std::pair<Expr, Expr>> branches_;
  Expr predicate_;
};
When when(const Expr& predicate);

// Operators build BinaryExpr nodes.
Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator*(const Expr& a, const Expr& b);
Expr operator/(const Expr& a, const Expr& b);
Expr operator%(const Expr& a, const Expr& b);
Expr floor_div(const Expr& a, const Expr& b);
Expr operator==(const Expr& a, const Expr& b);
Expr operator!=(const Expr& a, const Expr& b);
Expr operator<(const Expr& a, const Expr& b);
Expr operator<=(const Expr& a, const Expr& b);
Expr operator>(const Expr& a, const Expr& b);
Expr operator>=(const Expr& a, const Expr& b);
Expr operator&(const Expr& a, const Expr& b);
Expr operator|(const Expr& a, const Expr& b);
Expr operator^(const Expr& a, const Expr& b);
Expr operator!(const Expr& a);
Expr operator-(const Expr& a);

}  // namespace frazil::dsl
