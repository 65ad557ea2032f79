#include "frazil/dsl/expr.hpp"

#include <cmath>

#include "frazil/core/error.hpp"
#include "frazil/functions/registry.hpp"

namespace frazil::dsl {

// ---- LiteralValue ----

DataType LiteralValue::materialized_dtype() const {
  if (is_series()) return series->dtype();
  if (dynamic && scalar.dtype().id() == TypeId::Int64 && !scalar.is_null()) {
    int64_t v = scalar.as_int64();
    return (v >= INT32_MIN && v <= INT32_MAX) ? DataType::int32() : DataType::int64();
  }
  return scalar.dtype();
}

Scalar LiteralValue::materialized_scalar() const {
  return scalar.is_null() ? Scalar::null(materialized_dtype()) : scalar.with_dtype(materialized_dtype());
}

bool LiteralValue::operator==(const LiteralValue& o) const {
  if (dynamic != o.dynamic || is_series() != o.is_series()) return false;
  if (is_series()) {
    if (series == o.series) return true;
    return Scalar(DataType::list(series->dtype()), series) ==
           Scalar(DataType::list(o.series->dtype()), o.series);
  }
  return scalar == o.scalar;
}

size_t LiteralValue::hash() const {
  if (is_series()) return Scalar(DataType::list(series->dtype()), series).hash() ^ 0x5e7135;
  return scalar.hash() ^ (dynamic ? 0xd1 : 0);
}

size_t WindowOptions::hash() const {
  size_t h = static_cast<size_t>(kind) * 131 + num_order_by * 17 + descending * 4 + nulls_last * 2;
  h = h * 31 + static_cast<size_t>(mapping);
  for (const std::string* s : {&period, &offset, &closed}) h = h * 1000003 ^ std::hash<std::string>()(*s);
  return h;
}

// ---- constructors ----

static Expr make_node(ExprKind kind, std::vector<Expr> inputs = {}) {
  ExprNode n;
  n.kind = kind;
  n.inputs = std::move(inputs);
  return Expr::make(std::move(n));
}

Expr col(const std::string& name) {
  if (name == "*") return all();
  ExprNode n;
  n.kind = ExprKind::Column;
  n.names = {name};
  return Expr::make(std::move(n));
}

Expr cols(std::vector<std::string> names) {
  if (names.size() == 1) return col(names[0]);
  ExprNode n;
  n.kind = ExprKind::Columns;
  n.names = std::move(names);
  return Expr::make(std::move(n));
}

Expr all() { return make_node(ExprKind::Wildcard); }

Expr nth(int64_t index) {
  ExprNode n;
  n.kind = ExprKind::Nth;
  n.literal.scalar = Scalar::int64(index);
  return Expr::make(std::move(n));
}

Expr lit(const Scalar& value) {
  ExprNode n;
  n.kind = ExprKind::Literal;
  n.literal.scalar = value;
  return Expr::make(std::move(n));
}

Expr lit_dynamic_int(int64_t value) {
  ExprNode n;
  n.kind = ExprKind::Literal;
  n.literal.scalar = Scalar::int64(value);
  n.literal.dynamic = true;
  return Expr::make(std::move(n));
}

Expr lit_dynamic_float(double value) {
  ExprNode n;
  n.kind = ExprKind::Literal;
  n.literal.scalar = Scalar::float64(value);
  n.literal.dynamic = true;
  return Expr::make(std::move(n));
}

Expr lit(int64_t value) { return lit_dynamic_int(value); }
Expr lit(int value) { return lit_dynamic_int(value); }
Expr lit(double value) { return lit_dynamic_float(value); }
Expr lit(bool value) { return lit(Scalar::boolean(value)); }
Expr lit(const char* value) { return lit(Scalar::string(value)); }
Expr lit(const std::string& value) { return lit(Scalar::string(value)); }
Expr lit_null() { return lit(Scalar::null(DataType::null())); }

Expr lit_series(ArrayRef values) {
  ExprNode n;
  n.kind = ExprKind::Literal;
  n.literal.series = std::move(values);
  return Expr::make(std::move(n));
}

Expr len() { return make_node(ExprKind::Len); }

Expr coalesce(std::vector<Expr> exprs) {
  ExprNode n;
  n.kind = ExprKind::Function;
  n.inputs = std::move(exprs);
  n.function = functions::FunctionCall("coalesce");
  return Expr::make(std::move(n));
}

Expr::Expr(int value) : Expr(lit_dynamic_int(value)) {}
Expr::Expr(long value) : Expr(lit_dynamic_int(value)) {}
Expr::Expr(double value) : Expr(lit_dynamic_float(value)) {}

// ---- methods ----

Expr Expr::alias(const std::string& name) const {
  ExprNode n;
  n.kind = ExprKind::Alias;
  n.inputs = {*this};
  n.names = {name};
  return make(std::move(n));
}

Expr Expr::cast(const DataType& dtype, bool strict) const {
  ExprNode n;
  n.kind = ExprKind::Cast;
  n.inputs = {*this};
  n.dtype = dtype;
  n.strict = strict;
  return make(std::move(n));
}

Expr Expr::binary(Operator op, const Expr& other) const {
  ExprNode n;
  n.kind = ExprKind::BinaryExpr;
  n.inputs = {*this, other};
  n.op = op;
  return make(std::move(n));
}

Expr Expr::pow(const Expr& exponent) const { return function("pow", {exponent}); }

Expr Expr::function(std::string_view name, std::vector<Expr> extra, Keywords keywords) const {
  const functions::FunctionSpec& spec = functions::get(name);
  return function(functions::FunctionCall(spec, functions::Args::from_keywords(name, spec.params, std::move(keywords))),
                  std::move(extra));
}

Expr Expr::function(functions::FunctionCall call, std::vector<Expr> extra) const {
  ExprNode n;
  n.kind = ExprKind::Function;
  n.inputs.push_back(*this);
  for (auto& e : extra) n.inputs.push_back(std::move(e));
  const auto& spec = *call.spec;
  if (n.inputs.size() < spec.min_inputs || n.inputs.size() > spec.max_inputs) {
    const std::string takes = spec.min_inputs == spec.max_inputs ? std::to_string(spec.min_inputs)
                              : spec.max_inputs == SIZE_MAX     ? "at least " + std::to_string(spec.min_inputs)
                                                                : std::to_string(spec.min_inputs) + " to " +
                                                                      std::to_string(spec.max_inputs);
    throw InvalidOperationError(err_msg("`", spec.name, "` takes ", takes, " input(s), got ", n.inputs.size()));
  }
  n.function = std::move(call);
  return make(std::move(n));
}

Expr Expr::agg(compute::AggKind kind, compute::AggOptions options) const {
  ExprNode n;
  n.kind = ExprKind::Agg;
  n.inputs = {*this};
  n.agg = kind;
  n.agg_options = std::move(options);
  return make(std::move(n));
}

Expr Expr::std(int ddof) const {
  compute::AggOptions o;
  o.ddof = ddof;
  return agg(compute::AggKind::Std, o);
}

Expr Expr::var(int ddof) const {
  compute::AggOptions o;
  o.ddof = ddof;
  return agg(compute::AggKind::Var, o);
}

Expr Expr::quantile(double q, const std::string& interpolation) const {
  if (!(q >= 0.0 && q <= 1.0))
    throw ComputeError(err_msg("quantile should be between 0.0 and 1.0, got ", q));
  compute::AggOptions o;
  o.quantile = q;
  o.interpolation = interpolation;
  return agg(compute::AggKind::Quantile, o);
}

Expr Expr::any(bool ignore_nulls) const {
  compute::AggOptions o;
  o.ignore_nulls = ignore_nulls;
  return agg(compute::AggKind::Any, o);
}

Expr Expr::all(bool ignore_nulls) const {
  compute::AggOptions o;
  o.ignore_nulls = ignore_nulls;
  return agg(compute::AggKind::All, o);
}

Expr Expr::sort(bool descending, bool nulls_last, bool maintain_order) const {
  ExprNode n;
  n.kind = ExprKind::Sort;
  n.inputs = {*this};
  n.sort = SortFlags{descending, nulls_last, maintain_order, {}};
  return make(std::move(n));
}

Expr Expr::sort_by(std::vector<Expr> by, std::vector<bool> descending, bool nulls_last, bool maintain_order) const {
  ExprNode n;
  n.kind = ExprKind::SortBy;
  n.inputs = {*this};
  for (auto& b : by) n.inputs.push_back(std::move(b));
  n.sort.descending_by = std::move(descending);
  n.sort.nulls_last = nulls_last;
  n.sort.maintain_order = maintain_order;
  return make(std::move(n));
}

Expr Expr::filter(const Expr& predicate) const { return make_node(ExprKind::Filter, {*this, predicate}); }

Expr Expr::over(std::vector<Expr> partition_by) const { return over(std::move(partition_by), {}); }

Expr Expr::over(std::vector<Expr> partition_by, std::vector<Expr> order_by, bool descending, bool nulls_last,
                WindowMapping mapping) const {
  if (partition_by.empty() && order_by.empty())
    throw InvalidOperationError("over() needs at least one partition expression or an order_by");
  ExprNode n;
  n.kind = ExprKind::Window;
  n.inputs = {*this};
  for (auto& p : partition_by) n.inputs.push_back(std::move(p));
  for (auto& o : order_by) n.inputs.push_back(std::move(o));
  n.window.num_order_by = order_by.size();
  n.window.descending = descending;
  n.window.nulls_last = nulls_last;
  n.window.mapping = mapping;
  return make(std::move(n));
}

Expr Expr::rolling(const Expr& index_column, const std::string& period, const std::string& offset,
                   const std::string& closed) const {
  if (closed != "left" && closed != "right" && closed != "both" && closed != "none")
    throw InvalidOperationError(err_msg("`rolling`: closed must be one of 'left', 'right', 'both', 'none', got '",
                                        closed, "'"));
  ExprNode n;
  n.kind = ExprKind::Window;
  n.inputs = {*this, index_column};
  n.window.kind = WindowKind::Rolling;
  n.window.period = period;
  n.window.offset = offset;
  n.window.closed = closed;
  return make(std::move(n));
}

Expr Expr::exclude(std::vector<std::string> names) const {
  ExprNode n;
  n.kind = ExprKind::Exclude;
  n.inputs = {*this};
  n.names = std::move(names);
  return make(std::move(n));
}

// ---- display ----

static std::string literal_to_string(const LiteralValue& l, bool in_binary) {
  if (l.is_series()) {
    std::string s = "[";
    for (int64_t i = 0; i < std::min<int64_t>(l.series->length(), 4); ++i) {
      if (i) s += ", ";
      s += array_get(*l.series, i).to_string();
    }
    if (l.series->length() > 4) s += ", …";
    return s + "]";
  }
  const Scalar& v = l.scalar;
  if (v.is_null()) return "null";
  std::string text = v.to_string();
  if (v.dtype().is_string()) text = "\"" + text + "\"";
  if (v.dtype().id() == TypeId::Float64 && l.dynamic) {
    double d = v.as_double();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) text = std::to_string(static_cast<int64_t>(d));
  }
  if (l.dynamic && !in_binary) return std::string(v.dtype().is_float() ? "dyn float: " : "dyn int: ") + text;
  return text;
}

// Nodes left to print in the current to_string(): an expression whose subtrees are shared
// unfolds exponentially, so its text is cut (with "…") instead of taking forever.
static thread_local int64_t t_print_budget = -1;
constexpr int64_t kPrintBudget = 100000;

static std::string to_string_impl(const Expr& e, bool in_binary) {
  if (t_print_budget == 0) return "…";
  if (t_print_budget > 0) --t_print_budget;
  const ExprNode& n = e.node();
  auto in = [&](size_t i) { return to_string_impl(n.inputs[i], false); };
  switch (n.kind) {
    case ExprKind::Column: return "col(\"" + n.names[0] + "\")";
    case ExprKind::Columns: {
      std::string s = "cols([";
      for (size_t i = 0; i < n.names.size(); ++i) s += (i ? ", \"" : "\"") + n.names[i] + "\"";
      return s + "])";
    }
    case ExprKind::Wildcard: return "*";
    case ExprKind::Exclude: {
      std::string s = in(0) + ".exclude([";
      for (size_t i = 0; i < n.names.size(); ++i) s += (i ? ", \"" : "\"") + n.names[i] + "\"";
      return s + "])";
    }
    case ExprKind::Nth: return "nth(" + n.literal.scalar.to_string() + ")";
    case ExprKind::Literal: return literal_to_string(n.literal, in_binary);
    case ExprKind::Alias: return in(0) + ".alias(\"" + n.names[0] + "\")";
    case ExprKind::BinaryExpr:
      return "(" + to_string_impl(n.inputs[0], true) + " " + operator_symbol(n.op) + " " +
             to_string_impl(n.inputs[1], true) + ")";
    case ExprKind::Cast:
      return in(0) + (n.strict ? ".strict_cast(" : ".cast(") + n.dtype.to_string() + ")";
    case ExprKind::Agg: {
      std::string args;
      if (n.agg == compute::AggKind::Quantile) args = err_msg(n.agg_options.quantile);
      if (n.agg == compute::AggKind::Std || n.agg == compute::AggKind::Var) args = err_msg("ddof=", n.agg_options.ddof);
      return in(0) + "." + compute::agg_name(n.agg) + "(" + args + ")";
    }
    case ExprKind::Ternary: {
      std::string s;
      const Expr* cur = &e;
      while (cur->kind() == ExprKind::Ternary) {
        const ExprNode& t = cur->node();
        s += ".when(" + to_string_impl(t.inputs[0], false) + ").then(" + to_string_impl(t.inputs[1], false) + ")";
        cur = &t.inputs[2];
      }
      return s.substr(1) + ".otherwise(" + to_string_impl(*cur, false) + ")";
    }
    case ExprKind::Function: {
      std::vector<std::string> inputs;
      for (size_t i = 0; i < n.inputs.size(); ++i) inputs.push_back(in(i));
      return n.function.to_string(inputs);
    }
    case ExprKind::Len: return "len()";
    case ExprKind::Sort: return in(0) + (n.sort.descending ? ".sort(desc)" : ".sort(asc)");
    case ExprKind::SortBy: {
      std::string s = in(0) + ".sort_by([";
      for (size_t i = 1; i < n.inputs.size(); ++i) s += (i > 1 ? ", " : "") + in(i);
      return s + "])";
    }
    case ExprKind::Filter: return in(0) + ".filter(" + in(1) + ")";
    case ExprKind::Window: {
      const WindowOptions& w = n.window;
      if (w.kind == WindowKind::Rolling)
        return in(0) + ".rolling(" + in(1) + ", period=\"" + w.period + "\"" +
               (w.offset.empty() ? "" : ", offset=\"" + w.offset + "\"") +
               (w.closed == "right" ? "" : ", closed=\"" + w.closed + "\"") + ")";
      const size_t np = n.inputs.size() - 1 - w.num_order_by;
      std::string s = in(0) + ".over([";
      for (size_t i = 1; i <= np; ++i) s += (i > 1 ? ", " : "") + in(i);
      s += "]";
      if (w.num_order_by) {
        s += ", order_by=[";
        for (size_t i = np + 1; i < n.inputs.size(); ++i) s += (i > np + 1 ? ", " : "") + in(i);
        s += "]";
        if (w.descending) s += ", descending=true";
        if (w.nulls_last) s += ", nulls_last=true";
      }
      if (w.mapping == WindowMapping::Join) s += ", mapping_strategy=\"join\"";
      if (w.mapping == WindowMapping::Explode) s += ", mapping_strategy=\"explode\"";
      return s + ")";
    }
  }
  return "?";
}

std::string Expr::to_string() const {
  struct Budget {
    bool outer = t_print_budget < 0;
    Budget() {
      if (outer) t_print_budget = kPrintBudget;
    }
    ~Budget() {
      if (outer) t_print_budget = -1;
    }
  } budget;
  return to_string_impl(*this, false);
}

// ---- when/then/otherwise ----

When when(const Expr& predicate) { return When(predicate); }

Then When::then(const Expr& value) const {
  Then t;
  t.branches_ = branches_;
  t.branches_.emplace_back(predicate_, value);
  return t;
}

When Then::when(const Expr& predicate) const {
  When w(predicate);
  w.branches_ = branches_;
  return w;
}

Expr Then::otherwise(const Expr& value) const {
  Expr result = value;
  for (auto it = branches_.rbegin(); it != branches_.rend(); ++it)
    result = make_node(ExprKind::Ternary, {it->first, it->second, result});
  return result;
}

Then::operator Expr() const { return otherwise(lit_null()); }

// ---- operators ----

Expr operator+(const Expr& a, const Expr& b) { return a.binary(Operator::Plus, b); }
Expr operator-(const Expr& a, const Expr& b) { return a.binary(Operator::Minus, b); }
Expr operator*(const Expr& a, const Expr& b) { return a.binary(Operator::Multiply, b); }
Expr operator/(const Expr& a, const Expr& b) { return a.binary(Operator::TrueDivide, b); }
Expr operator%(const Expr& a, const Expr& b) { return a.binary(Operator::Modulus, b); }
Expr floor_div(const Expr& a, const Expr& b) { return a.binary(Operator::FloorDivide, b); }
Expr operator==(const Expr& a, const Expr& b) { return a.binary(Operator::Eq, b); }
Expr operator!=(const Expr& a, const Expr& b) { return a.binary(Operator::NotEq, b); }
Expr operator<(const Expr& a, const Expr& b) { return a.binary(Operator::Lt, b); }
Expr operator<=(const Expr& a, const Expr& b) { return a.binary(Operator::LtEq, b); }
Expr operator>(const Expr& a, const Expr& b) { return a.binary(Operator::Gt, b); }
Expr operator>=(const Expr& a, const Expr& b) { return a.binary(Operator::GtEq, b); }
Expr operator&(const Expr& a, const Expr& b) { return a.binary(Operator::And, b); }
Expr operator|(const Expr& a, const Expr& b) { return a.binary(Operator::Or, b); }
Expr operator^(const Expr& a, const Expr& b) { return a.binary(Operator::Xor, b); }
Expr operator!(const Expr& a) { return a.not_(); }
Expr operator-(const Expr& a) {
  // -(-2**63) of a Python int is 2**63, which Polars folds to a UInt64 literal; negating
  // the Int64 would wrap back to -2**63.
  const ExprNode& n = a.node();
  if (n.kind == ExprKind::Literal && n.literal.dynamic && !n.literal.is_series() &&
      n.literal.scalar.dtype().id() == TypeId::Int64 && !n.literal.scalar.is_null() &&
      n.literal.scalar.as_int64() == INT64_MIN)
    return lit(Scalar::uint64(uint64_t{1} << 63));
  return a.function("neg");
}

}  // namespace frazil::dsl
