#include "frazil/plan/expr/properties.hpp"

#include <vector>

#include "frazil/core/error.hpp"
#include "frazil/plan/expr/walk.hpp"

namespace frazil::plan {

using functions::InputRole;
using functions::Shape;

namespace {

// Whether input i of `e` is row-aligned with it (a Set input, is_in's values, is not).
bool row_input(const AExpr& e, size_t i) {
  return e.kind != AExprKind::Function || e.spec().role(i) == InputRole::Row;
}

}  // namespace

bool is_nondeterministic_top_level(const AExpr& e) {
  // Functions that draw random numbers say so in the registry.
  return e.kind == AExprKind::Function && e.spec().nondeterministic;
}

bool is_scalar_ae(Node node, const ExprArena& arena) {
  return all_reachable(
      node, arena,
      [](Node, const AExpr& e) {
        switch (e.kind) {
          case AExprKind::Literal: return e.literal().is_series() ? Verdict::Fail : Verdict::Holds;
          case AExprKind::Agg:
          case AExprKind::Len: return Verdict::Holds;
          case AExprKind::Column:
          case AExprKind::Window:
          case AExprKind::Filter:
          case AExprKind::Sort:
          case AExprKind::SortBy: return Verdict::Fail;
          case AExprKind::Function:
            switch (e.spec().shape) {
              case Shape::Reduction: return Verdict::Holds;
              case Shape::Other: return Verdict::Fail;
              // Reordering one value keeps one value (Polars: lit(1).shift() broadcasts).
              case Shape::LengthPreserving:
              case Shape::Elementwise: return Verdict::Descend;
            }
            return Verdict::Descend;
          default: return Verdict::Descend;
        }
      },
      [](const AExpr& e, size_t i) {
        if (e.kind == AExprKind::Function && e.spec().shape == Shape::LengthPreserving) return i == 0;
        return row_input(e, i);
      });
}

bool is_elementwise(Node node, const ExprArena& arena, const ElementwiseOptions& o) {
  return all_reachable(
      node, arena,
      [&](Node n, const AExpr& e) {
        if (o.leaves && o.leaves->count(n.idx)) return Verdict::Holds;
        if (o.deterministic && is_nondeterministic_top_level(e)) return Verdict::Fail;
        switch (e.kind) {
          case AExprKind::Agg:
          case AExprKind::Len:
          case AExprKind::Filter:
          case AExprKind::Sort:
          case AExprKind::SortBy: return Verdict::Fail;
          case AExprKind::Literal: return e.literal().is_series() ? Verdict::Fail : Verdict::Holds;
          case AExprKind::Window: {
            if (!o.windows || has_window(e.inputs[0], arena)) return Verdict::Fail;
            // A rolling window's rows are its neighbours by index, not a partition; an exploded
            // one moves the rows.
            if (e.window().kind != dsl::WindowKind::Over || !e.window().keeps_rows()) return Verdict::Fail;
            std::unordered_set<std::string> keys;
            // The order keys order a partition's rows: filtering on them would change its content.
            for (size_t i = 1; i + e.window().num_order_by < e.inputs.size(); ++i) {
              const AExpr& p = arena.get(e.inputs[i]);
              if (p.kind != AExprKind::Column) return Verdict::Fail;
              keys.insert(p.name);
            }
            WindowKeys& w = *o.windows;
            if (!w.any) {
              w.any = true;
              w.keys = std::move(keys);
            } else {
              std::erase_if(w.keys, [&](const std::string& k) { return !keys.count(k); });
            }
            // Evaluated per partition: what is inside does not see other partitions.
            return w.keys.empty() ? Verdict::Fail : Verdict::Holds;
          }
          case AExprKind::Function: {
            const auto& spec = e.spec();
            if (!spec.is_elementwise()) return Verdict::Fail;
            if (o.literal_sets)
              for (size_t i = 0; i < e.inputs.size(); ++i)
                if (spec.role(i) == InputRole::Set && arena.get(e.inputs[i]).kind != AExprKind::Literal)
                  return Verdict::Fail;
            return Verdict::Descend;
          }
          default: return Verdict::Descend;
        }
      },
      row_input);
}

bool is_elementwise_rec(Node node, const ExprArena& arena) { return is_elementwise(node, arena); }

bool is_elementwise_rec(Node node, const ExprArena& arena, const std::unordered_set<uint32_t>& leaves) {
  ElementwiseOptions o;
  o.leaves = &leaves;
  return is_elementwise(node, arena, o);
}

bool is_row_local(Node node, const ExprArena& arena) {
  ElementwiseOptions o;
  o.literal_sets = true;
  o.deterministic = true;
  return is_elementwise(node, arena, o);
}

bool lets_filters_through(Node node, const ExprArena& arena, WindowKeys& windows) {
  ElementwiseOptions o;
  o.literal_sets = true;
  o.deterministic = true;
  o.windows = &windows;
  return is_elementwise(node, arena, o);
}

namespace {

// Integers of `from` all fit in `to`.
bool integer_fits(const DataType& from, const DataType& to) {
  if (from.id() == to.id()) return true;
  const int fw = from.byte_width(), tw = to.byte_width();
  if (from.is_signed_integer() == to.is_signed_integer()) return tw >= fw;
  return from.is_unsigned_integer() && to.is_signed_integer() && tw > fw;
}

bool cast_can_fail(const DataType& from, const DataType& to) {
  if (from == to || from.is_null()) return false;
  if (to.id() == TypeId::String) return false;
  if (to.is_float()) return !(from.is_primitive_numeric() || from.is_boolean());
  if (to.is_integer()) return !(from.is_boolean() || (from.is_integer() && integer_fits(from, to)));
  if (to.is_boolean()) return !from.is_primitive_numeric();
  return true;
}

}  // namespace

bool is_fallible(Node node, const ExprArena& arena, const Schema& schema) {
  DtypeMemo dtypes;
  return any_reachable(node, arena, [&](const AExpr& e) {
    if (e.kind == AExprKind::Function) return e.spec().fallible;
    if (e.kind != AExprKind::Cast || !e.strict) return false;
    try {
      return cast_can_fail(node_dtype(e.inputs[0], arena, schema, dtypes), e.dtype());
    } catch (const Error&) {
      return true;
    }
  });
}

bool is_zero_sign_insensitive(Node node, const ExprArena& arena) {
  return all_reachable(node, arena, [](Node, const AExpr& e) {
    switch (e.kind) {
      case AExprKind::Column:
      case AExprKind::Literal:
      case AExprKind::Ternary: return Verdict::Descend;
      case AExprKind::Cast:
        // "-0.0" and "0.0" differ as text.
        return e.dtype().id() == TypeId::String || e.dtype().id() == TypeId::Binary ? Verdict::Fail
                                                                                     : Verdict::Descend;
      case AExprKind::BinaryExpr:
        // x / -0.0 is -inf, x / 0.0 is +inf; everything else treats the zeros alike.
        return e.op == dsl::Operator::TrueDivide || e.op == dsl::Operator::FloorDivide ||
                       e.op == dsl::Operator::Modulus
                   ? Verdict::Fail
                   : Verdict::Descend;
      case AExprKind::Function: return e.spec().zero_sign_insensitive ? Verdict::Descend : Verdict::Fail;
      default: return Verdict::Fail;
    }
  });
}

bool has_aggregation(Node node, const ExprArena& arena) {
  return any_reachable(node, arena, [](const AExpr& e) {
    return e.kind == AExprKind::Agg || e.kind == AExprKind::Len || e.kind == AExprKind::Window ||
           (e.kind == AExprKind::Function && !e.spec().is_elementwise()) || e.kind == AExprKind::Sort ||
           e.kind == AExprKind::SortBy || e.kind == AExprKind::Filter;
  });
}

bool has_window(Node node, const ExprArena& arena) {
  return any_reachable(node, arena, [](const AExpr& e) { return e.kind == AExprKind::Window; });
}

namespace {

Height combine(const AExpr& e, std::span<const Height> inputs) {
  Height out = Height::Scalar;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!row_input(e, i)) continue;  // a Set input has a height of its own
    if (inputs[i] == Height::Other) return Height::Other;
    if (inputs[i] == Height::Frame) out = Height::Frame;
  }
  return out;
}

}  // namespace

Height node_height(const AExpr& e, std::span<const Height> in) {
  switch (e.kind) {
    case AExprKind::Column: return Height::Frame;
    case AExprKind::Window: return e.window().keeps_rows() ? Height::Frame : Height::Other;
    case AExprKind::Literal: return e.literal().is_series() ? Height::Other : Height::Scalar;
    case AExprKind::Len:
    case AExprKind::Agg: return Height::Scalar;
    case AExprKind::Filter: return Height::Other;
    case AExprKind::Cast:
    case AExprKind::Sort:
    case AExprKind::SortBy: return in[0];
    case AExprKind::BinaryExpr:
    case AExprKind::Ternary: return combine(e, in);
    case AExprKind::Function:
      switch (e.spec().shape) {
        case Shape::Reduction: return Height::Scalar;
        case Shape::LengthPreserving: return in[0];
        case Shape::Other: return Height::Other;
        case Shape::Elementwise: return combine(e, in);
      }
  }
  return Height::Other;
}

Height expr_height(Node node, const ExprArena& arena) {
  std::unordered_map<uint32_t, Height> heights;
  std::vector<Height> in;
  post_order(node, arena, [&](Node n, const AExpr& e) {
    in.clear();
    for (Node i : e.inputs) in.push_back(heights.at(i.idx));
    heights.emplace(n.idx, node_height(e, in));
  });
  return heights.at(node.idx);
}

}  // namespace frazil::plan
