#include "frazil/plan/aexpr.hpp"

#include <unordered_map>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::plan {

using dsl::Operator;
using functions::InputRole;
using functions::Shape;

const AExprPayload& AExpr::payload() const {
  static const AExprPayload kDefaults;
  return payload_ ? *payload_ : kDefaults;
}

AExprPayload& AExpr::payload_mut() {
  // Planning runs on one thread per arena; a payload also held by another node (or by a
  // copy of this arena) is never changed in place.
  if (!payload_) payload_ = std::make_shared<AExprPayload>();
  else if (payload_.use_count() > 1) payload_ = std::make_shared<AExprPayload>(*payload_);
  return *payload_;
}

AExpr AExpr::column(std::string name) {
  AExpr e;
  e.kind = AExprKind::Column;
  e.name = std::move(name);
  return e;
}

AExpr AExpr::literal_value(dsl::LiteralValue value) {
  AExpr e;
  e.kind = AExprKind::Literal;
  e.literal_mut() = std::move(value);
  return e;
}

AExpr AExpr::scalar(Scalar value) {
  dsl::LiteralValue l;
  l.scalar = std::move(value);
  return literal_value(std::move(l));
}

AExpr AExpr::binary(Node left, Operator op, Node right) {
  AExpr e;
  e.kind = AExprKind::BinaryExpr;
  e.inputs = {left, right};
  e.op = op;
  return e;
}

AExpr AExpr::cast(Node input, DataType dtype, bool strict) {
  AExpr e;
  e.kind = AExprKind::Cast;
  e.inputs = {input};
  e.dtype_mut() = std::move(dtype);
  e.strict = strict;
  return e;
}

AExpr AExpr::function_call(functions::FunctionCall call, std::vector<Node> inputs) {
  AExpr e;
  e.kind = AExprKind::Function;
  e.inputs = std::move(inputs);
  e.function_mut() = std::move(call);
  return e;
}

AExpr AExpr::function_call(std::string_view name, std::vector<Node> inputs) {
  return function_call(functions::FunctionCall(name), std::move(inputs));
}

std::optional<bool> AExpr::literal_bool() const {
  if (kind != AExprKind::Literal || literal().is_series() || literal().scalar.is_null() ||
      !literal().scalar.dtype().is_boolean())
    return std::nullopt;
  return literal().scalar.as_bool();
}

size_t AExpr::hash_shallow() const {
  size_t h = static_cast<size_t>(kind) * 0x9E3779B97F4A7C15ULL;
  auto mix = [&h](size_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
  mix(inputs.size());
  switch (kind) {
    case AExprKind::Column: mix(std::hash<std::string>()(name)); break;
    case AExprKind::Literal: mix(literal().hash()); break;
    case AExprKind::BinaryExpr: mix(static_cast<size_t>(op)); break;
    case AExprKind::Cast: mix(dtype().hash() * 2 + strict); break;
    case AExprKind::Agg:
      mix(static_cast<size_t>(agg));
      mix(std::hash<double>()(agg_options().quantile));
      mix(agg_options().ddof);
      mix(std::hash<std::string>()(agg_options().interpolation));
      mix(agg_options().ignore_nulls);
      break;
    case AExprKind::Function: mix(function().hash()); break;
    case AExprKind::Sort:
    case AExprKind::SortBy:
      mix(sort().descending * 4 + sort().nulls_last * 2 + sort().maintain_order);
      for (bool b : sort().descending_by) mix(b);
      break;
    case AExprKind::Window: mix(window().hash()); break;
    default: break;
  }
  return h;
}

bool AExpr::equal_shallow(const AExpr& o) const {
  if (kind != o.kind || inputs.size() != o.inputs.size()) return false;
  switch (kind) {
    case AExprKind::Column: return name == o.name;
    case AExprKind::Literal: return literal() == o.literal();
    case AExprKind::BinaryExpr: return op == o.op;
    case AExprKind::Cast: return dtype() == o.dtype() && strict == o.strict;
    case AExprKind::Agg:
      return agg == o.agg && agg_options().ddof == o.agg_options().ddof &&
             agg_options().quantile == o.agg_options().quantile &&
             agg_options().interpolation == o.agg_options().interpolation &&
             agg_options().ignore_nulls == o.agg_options().ignore_nulls;
    case AExprKind::Function: return function() == o.function();
    case AExprKind::Sort:
    case AExprKind::SortBy: return sort() == o.sort();
    case AExprKind::Window: return window() == o.window();
    default: return true;
  }
}

namespace {

// Nodes already walked by one traversal. The arena is a DAG (conversion shares the
// subtrees the user shared), so a walk that does not remember where it has been is
// exponential in the depth of the sharing. Small walks stay in the inline array.
class Visited {
 public:
  // True the first time `n` is seen.
  bool insert(Node n) {
    if (set_.empty()) {
      for (uint32_t i = 0; i < small_n_; ++i)
        if (small_[i] == n.idx) return false;
      if (small_n_ < kSmall) {
        small_[small_n_++] = n.idx;
        return true;
      }
      set_.insert(small_, small_ + small_n_);
    }
    return set_.insert(n.idx).second;
  }

 private:
  static constexpr uint32_t kSmall = 16;
  uint32_t small_[kSmall];
  uint32_t small_n_ = 0;
  std::unordered_set<uint32_t> set_;
};

// The properties below are conjunctions (or disjunctions) over the subtree that return as
// soon as the answer is known, so a node seen before contributed the neutral value.
bool is_scalar_rec(Node node, const ExprArena& arena, Visited& seen);

bool is_scalar_inputs(const AExpr& e, const ExprArena& arena, Visited& seen) {
  for (Node in : e.inputs)
    if (!is_scalar_rec(in, arena, seen)) return false;
  return true;
}

bool is_scalar_rec(Node node, const ExprArena& arena, Visited& seen) {
  const AExpr& e = arena.get(node);
  if (!e.inputs.empty() && !seen.insert(node)) return true;
  switch (e.kind) {
    case AExprKind::Literal: return !e.literal().is_series();
    case AExprKind::Agg:
    case AExprKind::Len: return true;
    case AExprKind::Column:
    case AExprKind::Window:
    case AExprKind::Filter:
    case AExprKind::Sort:
    case AExprKind::SortBy: return false;
    case AExprKind::Function: {
      const auto& spec = e.spec();
      switch (spec.shape) {
        case Shape::Reduction: return true;
        // Reordering one value keeps one value (Polars: lit(1).shift() broadcasts).
        case Shape::LengthPreserving: return is_scalar_rec(e.inputs[0], arena, seen);
        case Shape::Other: return false;
        case Shape::Elementwise: break;
      }
      // A Set input (is_in's values) is a whole series, not a row-aligned input.
      for (size_t i = 0; i < e.inputs.size(); ++i)
        if (spec.role(i) == InputRole::Row && !is_scalar_rec(e.inputs[i], arena, seen)) return false;
      return true;
    }
    default:
      return is_scalar_inputs(e, arena, seen);
  }
}

bool is_elementwise_inner(Node node, const ExprArena& arena, Visited& seen,
                          const std::unordered_set<uint32_t>* leaves = nullptr) {
  if (leaves && leaves->count(node.idx)) return true;
  const AExpr& e = arena.get(node);
  if (!e.inputs.empty() && !seen.insert(node)) return true;
  switch (e.kind) {
    case AExprKind::Agg:
    case AExprKind::Len:
    case AExprKind::Window:
    case AExprKind::Filter:
    case AExprKind::Sort:
    case AExprKind::SortBy: return false;
    case AExprKind::Literal: return !e.literal().is_series();
    case AExprKind::Function: {
      const auto& spec = e.spec();
      if (!spec.is_elementwise()) return false;
      for (size_t i = 0; i < e.inputs.size(); ++i)
        if (spec.role(i) == InputRole::Row && !is_elementwise_inner(e.inputs[i], arena, seen, leaves)) return false;
      return true;
    }
    default: break;
  }
  for (Node in : e.inputs)
    if (!is_elementwise_inner(in, arena, seen, leaves)) return false;
  return true;
}

bool any_node(Node node, const ExprArena& arena, bool (*pred)(const AExpr&), Visited& seen) {
  const AExpr& e = arena.get(node);
  if (pred(e)) return true;
  if (e.inputs.empty() || !seen.insert(node)) return false;
  for (Node in : e.inputs)
    if (any_node(in, arena, pred, seen)) return true;
  return false;
}

void collect_columns_rec(Node node, const ExprArena& arena, std::vector<std::string>& out, Visited& seen) {
  const AExpr& e = arena.get(node);
  if (e.kind == AExprKind::Column) {
    for (const auto& n : out)
      if (n == e.name) return;
    out.push_back(e.name);
    return;
  }
  if (e.inputs.empty() || !seen.insert(node)) return;
  for (Node in : e.inputs) collect_columns_rec(in, arena, out, seen);
}

std::optional<std::string> leftmost_column_rec(Node node, const ExprArena& arena, Visited& seen) {
  const AExpr& e = arena.get(node);
  if (e.kind == AExprKind::Column) return e.name;
  if (e.inputs.empty() || !seen.insert(node)) return std::nullopt;  // seen: no column below
  for (Node in : e.inputs)
    if (auto n = leftmost_column_rec(in, arena, seen)) return n;
  return std::nullopt;
}

}  // namespace

bool is_scalar_ae(Node node, const ExprArena& arena) {
  Visited seen;
  return is_scalar_rec(node, arena, seen);
}


bool is_elementwise_rec(Node node, const ExprArena& arena) {
  Visited seen;
  return is_elementwise_inner(node, arena, seen);
}

bool is_elementwise_rec(Node node, const ExprArena& arena, const std::unordered_set<uint32_t>& leaves) {
  Visited seen;
  return is_elementwise_inner(node, arena, seen, &leaves);
}

static bool any_node(Node node, const ExprArena& arena, bool (*pred)(const AExpr&)) {
  Visited seen;
  return any_node(node, arena, pred, seen);
}

bool has_aggregation(Node node, const ExprArena& arena) {
  return any_node(node, arena, [](const AExpr& e) {
    return e.kind == AExprKind::Agg || e.kind == AExprKind::Len || e.kind == AExprKind::Window ||
           (e.kind == AExprKind::Function && !e.spec().is_elementwise()) ||
           e.kind == AExprKind::Sort || e.kind == AExprKind::SortBy || e.kind == AExprKind::Filter;
  });
}

bool has_window(Node node, const ExprArena& arena) {
  return any_node(node, arena, [](const AExpr& e) { return e.kind == AExprKind::Window; });
}

void collect_columns(Node node, const ExprArena& arena, std::vector<std::string>& out) {
  Visited seen;
  collect_columns_rec(node, arena, out, seen);
}

std::optional<std::string> leftmost_column(Node node, const ExprArena& arena) {
  Visited seen;
  return leftmost_column_rec(node, arena, seen);
}

static DataType supertype_or_throw(const DataType& a, const DataType& b, const char* what) {
  auto s = get_supertype(a, b);
  if (!s) throw SchemaError(err_msg("failed to determine supertype of ", a, " and ", b, " in ", what));
  return *s;
}

static DataType arith_dtype(Operator op, const DataType& l, const DataType& r) {
  using T = TypeId;
  // Temporal arithmetic.
  if (op == Operator::Minus && l.id() == T::Date && r.id() == T::Date) return DataType::duration(TimeUnit::Microseconds);
  if (op == Operator::Minus && l.id() == T::Datetime && r.id() == T::Datetime)
    return DataType::duration(l.time_unit());
  if ((l.id() == T::Datetime || l.id() == T::Date) && r.id() == T::Duration) return l.id() == T::Date ? DataType::datetime(r.time_unit()) : l;
  if (l.id() == T::Duration && (r.id() == T::Datetime || r.id() == T::Date) && op == Operator::Plus) return r;
  DataType t = supertype_or_throw(l, r, "arithmetic");
  if (t.is_boolean()) t = DataType::int64();  // Polars: bool + bool -> int... arithmetic promotes
  if (op == Operator::TrueDivide) {
    if (t.id() == T::Float32) return t;
    if (t.id() == T::Duration) return t;
    return DataType::float64();
  }
  return t;
}

namespace {
DataType node_dtype_rec(Node node, const ExprArena& arena, const Schema& schema, DtypeMemo& memo);
}  // namespace

DataType node_dtype(Node node, const ExprArena& arena, const Schema& schema) {
  DtypeMemo memo;
  return node_dtype_rec(node, arena, schema, memo);
}

DataType node_dtype(Node node, const ExprArena& arena, const Schema& schema, DtypeMemo& memo) {
  return node_dtype_rec(node, arena, schema, memo);
}

namespace {

DataType node_dtype_impl(Node node, const ExprArena& arena, const Schema& schema, DtypeMemo& memo);

// Memoized per node of the DAG (leaves are cheaper to recompute than to look up).
DataType node_dtype_rec(Node node, const ExprArena& arena, const Schema& schema, DtypeMemo& memo) {
  if (arena.get(node).inputs.empty()) return node_dtype_impl(node, arena, schema, memo);
  if (auto it = memo.find(node.idx); it != memo.end()) return it->second;
  DataType t = node_dtype_impl(node, arena, schema, memo);
  memo.emplace(node.idx, t);
  return t;
}

DataType node_dtype_impl(Node node, const ExprArena& arena, const Schema& schema, DtypeMemo& memo) {
  const AExpr& e = arena.get(node);
  auto in = [&](size_t i) { return node_dtype_rec(e.inputs[i], arena, schema, memo); };
  switch (e.kind) {
    case AExprKind::Column: return schema.dtype_of(e.name);
    case AExprKind::Literal: return e.literal().materialized_dtype();
    case AExprKind::BinaryExpr: {
      DataType l = in(0), r = in(1);
      if (dsl::is_comparison(e.op)) return DataType::boolean();
      if (dsl::is_logical(e.op)) {
        if (l.is_boolean() || r.is_boolean() || l.is_null() || r.is_null()) return DataType::boolean();
        return supertype_or_throw(l, r, "a bitwise operation");
      }
      return arith_dtype(e.op, l, r);
    }
    case AExprKind::Cast: return e.dtype();
    case AExprKind::Agg: return compute::agg_result_dtype(e.agg, in(0));
    case AExprKind::Ternary: return supertype_or_throw(in(1), in(2), "when/then/otherwise");
    case AExprKind::Len: return DataType::uint32();
    case AExprKind::Sort:
    case AExprKind::SortBy:
    case AExprKind::Filter: return in(0);
    case AExprKind::Window: {
      // mapping_strategy="join" gives each row its partition's values as a list (an
      // aggregate stays one value).
      const dsl::WindowOptions& w = e.window();
      if (w.mapping == dsl::WindowMapping::Join && !is_scalar_ae(e.inputs[0], arena)) return DataType::list(in(0));
      // A rolling window gives each row its window's values when they are not aggregated.
      if (w.kind == dsl::WindowKind::Rolling && !is_scalar_ae(e.inputs[0], arena)) return DataType::list(in(0));
      return in(0);
    }
    case AExprKind::Function: {
      std::vector<DataType> types;
      types.reserve(e.inputs.size());
      for (size_t i = 0; i < e.inputs.size(); ++i) types.push_back(in(i));
      return e.spec().output_dtype(functions::CallTypes{types, e.function().args});
    }
  }
  return DataType::null();
}

}  // namespace

}  // namespace frazil::plan
