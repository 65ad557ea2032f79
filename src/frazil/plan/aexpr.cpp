#include "frazil/plan/aexpr.hpp"

#include <unordered_map>
#include <unordered_set>

#include "frazil/compute/list/list_arith.hpp"
#include "frazil/compute/struct/struct_arith.hpp"
#include "frazil/compute/arithmetic.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/plan/conversion/element_expr.hpp"
#include "frazil/plan/expr/properties.hpp"

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
    case AExprKind::Function:
      mix(function().hash());
      for (const dsl::Expr& x : element_exprs()) mix(std::hash<std::string>()(x.to_string()));
      break;
    case AExprKind::Sort:
    case AExprKind::SortBy:
      mix(sort().descending * 4 + sort().nulls_last * 2 + sort().maintain_order);
      for (bool b : sort().descending_by) mix(b);
      for (bool b : sort().nulls_last_by) mix(b + 2);
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
    case AExprKind::Function: {
      if (!(function() == o.function()) || element_exprs().size() != o.element_exprs().size()) return false;
      for (size_t i = 0; i < element_exprs().size(); ++i)
        if (element_exprs()[i].to_string() != o.element_exprs()[i].to_string()) return false;
      return true;
    }
    case AExprKind::Sort:
    case AExprKind::SortBy: return sort() == o.sort();
    case AExprKind::Window: return window() == o.window();
    default: return true;
  }
}

static DataType supertype_or_throw(const DataType& a, const DataType& b, const char* what) {
  auto s = get_supertype(a, b);
  if (!s) throw SchemaError(err_msg("failed to determine supertype of ", a, " and ", b, " in ", what));
  return *s;
}

static DataType arith_dtype(Operator op, const DataType& l, const DataType& r) {
  using T = TypeId;
  // Temporal arithmetic (the units agree once type coercion has run; see temporal_coercion),
  // list arithmetic (the leaves agree: see type_coercion) and struct arithmetic (each
  // field meets its operand in the kernel).
  if (l.is_temporal() || r.is_temporal() || compute::is_list_arith(l, r) || compute::is_struct_arith(l, r)) {
    compute::ArithOp aop = compute::ArithOp::Add;
    switch (op) {
      case Operator::Plus: aop = compute::ArithOp::Add; break;
      case Operator::Minus: aop = compute::ArithOp::Sub; break;
      case Operator::Multiply: aop = compute::ArithOp::Mul; break;
      case Operator::TrueDivide: aop = compute::ArithOp::TrueDiv; break;
      case Operator::FloorDivide: aop = compute::ArithOp::FloorDiv; break;
      default: aop = compute::ArithOp::Mod; break;
    }
    return compute::arith_result_dtype(aop, l, r);
  }
  DataType t = supertype_or_throw(l, r, "arithmetic");
  if (t.is_boolean()) t = DataType::int64();  // Polars: bool + bool -> int... arithmetic promotes
  if (t.id() == T::Decimal) return DataType::decimal(38, t.scale());  // every operator (Polars 2.1)
  if (op == Operator::TrueDivide) {
    if (t.id() == T::Float32 || t.id() == T::Float16) return t;
    if (t.id() == T::Duration) return t;
    return DataType::float64();
  }
  return t;
}

namespace {

// One node's dtype from its inputs' dtypes.
DataType dtype_of_node(const AExpr& e, const ExprArena& arena, const Schema& schema, std::span<const DataType> inputs);

// A node without inputs: cheaper to derive again than to remember.
bool is_leaf(const AExpr& e) { return e.inputs.empty(); }

}  // namespace

DataType node_dtype(Node node, const ExprArena& arena, const Schema& schema) {
  DtypeMemo memo;
  return node_dtype(node, arena, schema, memo);
}

// Bottom-up with an explicit stack (a chain of a hundred thousand operations has its dtype
// derived without deep recursion), each inner node of the DAG once per memo.
DataType node_dtype(Node node, const ExprArena& arena, const Schema& schema, DtypeMemo& memo) {
  const AExpr& root = arena.get(node);
  if (is_leaf(root)) return dtype_of_node(root, arena, schema, {});
  if (auto it = memo.find(node.idx); it != memo.end()) return it->second;
  std::vector<std::pair<Node, bool>> stack{{node, false}};
  std::vector<DataType> inputs;
  while (!stack.empty()) {
    auto [n, expanded] = stack.back();
    const AExpr& e = arena.get(n);
    if (memo.count(n.idx)) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      for (Node in : e.inputs)
        if (!is_leaf(arena.get(in)) && !memo.count(in.idx)) stack.emplace_back(in, false);
      continue;
    }
    stack.pop_back();
    inputs.clear();
    for (Node in : e.inputs) {
      const AExpr& x = arena.get(in);
      inputs.push_back(is_leaf(x) ? dtype_of_node(x, arena, schema, {}) : memo.at(in.idx));
    }
    memo.emplace(n.idx, dtype_of_node(e, arena, schema, inputs));
  }
  return memo.at(node.idx);
}

namespace {

DataType dtype_of_node(const AExpr& e, const ExprArena& arena, const Schema& schema, std::span<const DataType> inputs) {
  auto in = [&](size_t i) { return inputs[i]; };
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
      if (e.element_exprs().empty()) return e.spec().output_dtype(functions::CallTypes{inputs, e.function().args});
      // The element expressions' dtypes follow the inputs, over the List root's elements.
      std::vector<DataType> all(inputs.begin(), inputs.end());
      const DataType inner = inputs[0].is_list_like() ? inputs[0].inner() : DataType::null();
      for (const dsl::Expr& x : e.element_exprs()) all.push_back(element_expr_dtype(x, inner));
      return e.spec().output_dtype(functions::CallTypes{all, e.function().args});
    }
  }
  return DataType::null();
}

}  // namespace

}  // namespace frazil::plan
