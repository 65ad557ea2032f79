#include "frazil/plan/conversion/type_coercion.hpp"

#include "frazil/plan/conversion/temporal_coercion.hpp"

#include <unordered_set>

#include "frazil/compute/list/list_arith.hpp"
#include "frazil/compute/struct/struct_arith.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/conversion/simplify/rules.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::plan {

using dsl::Operator;
using functions::Coercion;

namespace {

// The smallest integer dtype that holds `v`; unsigned for a non-negative value next to an
// unsigned column (Polars: col_u8 + 300 is UInt16, col_u8 + 2**40 UInt64, col_u8 - 1 Int16).
DataType int_dtype_for(int64_t v, bool unsigned_side = false) {
  if (unsigned_side && v >= 0) {
    if (v <= UINT8_MAX) return DataType::uint8();
    if (v <= UINT16_MAX) return DataType::uint16();
    if (v <= UINT32_MAX) return DataType::uint32();
    return DataType::uint64();
  }
  if (v >= INT8_MIN && v <= INT8_MAX) return DataType::int8();
  if (v >= INT16_MIN && v <= INT16_MAX) return DataType::int16();
  if (v >= INT32_MIN && v <= INT32_MAX) return DataType::int32();
  return DataType::int64();
}

bool fits(int64_t v, const DataType& t) {
  switch (t.id()) {
    case TypeId::Int8: return v >= INT8_MIN && v <= INT8_MAX;
    case TypeId::Int16: return v >= INT16_MIN && v <= INT16_MAX;
    case TypeId::Int32: return v >= INT32_MIN && v <= INT32_MAX;
    case TypeId::Int64: return true;
    case TypeId::UInt8: return v >= 0 && v <= UINT8_MAX;
    case TypeId::UInt16: return v >= 0 && v <= UINT16_MAX;
    case TypeId::UInt32: return v >= 0 && v <= UINT32_MAX;
    case TypeId::UInt64: return v >= 0;
    default: return false;
  }
}

const dsl::LiteralValue* dynamic_literal(const AExpr& e) {
  if (e.kind == AExprKind::Literal && e.literal().dynamic && !e.literal().is_series()) return &e.literal();
  return nullptr;
}

// The dtype operand `self` should have next to `other` (for dynamic literals: adapted).
DataType operand_dtype(const AExpr& self, const DataType& self_dtype, const DataType& other) {
  if (auto* lit = dynamic_literal(self)) return adapt_dynamic_literal(*lit, other);
  return self_dtype;
}

// A Date, Datetime or Time next to a String in a comparison: Polars refuses it rather
// than comparing the date's text.
bool compares_temporal_with_string(const DataType& a, const DataType& b) {
  auto calendar = [](const DataType& t) {
    return t.id() == TypeId::Date || t.id() == TypeId::Datetime || t.id() == TypeId::Time;
  };
  return (calendar(a) && b.is_string()) || (a.is_string() && calendar(b));
}

std::string temporal_string_comparison_message() {
  return "cannot compare 'date/datetime/time' to a string value (create native python { 'date', 'datetime', "
         "'time' } or compare to a temporal column)";
}

}  // namespace

DataType adapt_dynamic_literal(const dsl::LiteralValue& lit, const DataType& other) {
  const Scalar& v = lit.scalar;
  if (v.is_null()) return other;
  // A Python int past 64 bits takes a number column's dtype (Polars: null where it does
  // not fit), else stays Int128.
  if (v.dtype().id() == TypeId::Int128) return other.is_primitive_numeric() ? other : v.dtype();
  if (v.dtype().id() == TypeId::Int64) {
    if (other.is_integer()) {
      if (fits(v.as_int64(), other)) return other;
      if (other.is_unsigned_integer() && v.as_int64() < 0) {
        // Polars: a negative number next to an unsigned column gives the signed type twice
        // as wide, at most Int64 (u8 - 5 is Int16, u64 - 5 is Int64, not a float).
        DataType wide = other.id() == TypeId::UInt8    ? DataType::int16()
                        : other.id() == TypeId::UInt16 ? DataType::int32()
                                                       : DataType::int64();
        auto s = get_supertype(wide, int_dtype_for(v.as_int64()));
        return s ? *s : DataType::int64();
      }
      auto s = get_supertype(other, int_dtype_for(v.as_int64(), other.is_unsigned_integer()));
      return s ? *s : DataType::int64();
    }
    if (other.is_float() || other.id() == TypeId::Decimal) return other;
    return lit.materialized_dtype();
  }
  if (v.dtype().id() == TypeId::Float64) {
    if (other.is_float()) return other;
    return DataType::float64();
  }
  return lit.materialized_dtype();
}

// Whether `input` is a Python int past 64 bits (a dynamic Int128 literal) that would be
// narrowed to `dtype`: next to a column (operators, supertype coercion) Polars makes it
// null where it does not fit; as a parameter (repeat's n) it stays a strict cast.
static bool narrows_wide_literal(const ExprArena& arena, Node input, const DataType& dtype) {
  const AExpr& e = arena.get(input);
  if (e.kind != AExprKind::Literal || !e.literal().dynamic || e.literal().is_series()) return false;
  const Scalar& v = e.literal().scalar;
  return !v.is_null() && v.dtype().id() == TypeId::Int128 && !dtype.is_128_bit_integer();
}

Node add_cast(ExprArena& arena, Node input, const DataType& dtype, bool strict) {
  const AExpr& e = arena.get(input);
  if (e.kind == AExprKind::Literal && !e.literal().is_series()) {
    Scalar value = e.literal().materialized_scalar();
    if (value.dtype() == dtype && !e.literal().dynamic) return input;
    ArrayRef one = scalar_to_array(value, 1);
    ArrayRef cast = compute::cast(*one, dtype, strict);
    return arena.add(AExpr::scalar(array_get(*cast, 0)));
  }
  if (e.kind == AExprKind::Literal && e.literal().is_series()) {
    dsl::LiteralValue l;
    l.series = compute::cast(*e.literal().series, dtype, strict);
    return arena.add(AExpr::literal_value(std::move(l)));
  }
  return arena.add(AExpr::cast(input, dtype, strict));
}

// The registry's type rules for one call: the root's dtype among those the function accepts,
// then the function's own checks; errors name the expression.
static void check_call(Node node, const ExprArena& arena, std::span<const DataType> types) {
  const AExpr& e = arena.get(node);
  const functions::FunctionSpec& spec = e.spec();
  const DataType& t = types[0];
  if (!t.is_null() && !spec.input_types.contains(t.id())) {
    const std::string where = " in " + node_to_expr(node, arena).to_string();
    if (spec.type_error == functions::TypeErrorStyle::ExpectedString)
      throw SchemaError(err_msg("invalid series dtype: expected `",
                                spec.input_types.contains(TypeId::String) ? "String" : "Binary", "`, got `",
                                t.short_name(), "`", where));
    throw InvalidOperationError(
        err_msg("`", spec.name, "` operation not supported for dtype `", t.short_name(), "`", where));
  }
  if (!spec.check) return;
  try {
    spec.check(functions::CallTypes{types, e.function().args});
  } catch (const Error& err) {
    throw_error(err.kind(), std::string(err.what()) + " in " + node_to_expr(node, arena).to_string());
  }
}

std::optional<AExpr> TypeCoercionRule::optimize_expr(ExprArena& arena, Node node, const Schema& schema,
                                                     const OptimizeExprContext& ctx) {
  const AExpr e = arena.get(node);  // a copy: add_cast may grow the arena
  // Shared across the nodes of one expression: each input's dtype is derived once, not
  // once per ancestor (a deep chain stays linear).
  auto dtype = [&](Node n) {
    return ctx.dtypes ? node_dtype(n, arena, schema, *ctx.dtypes) : node_dtype(n, arena, schema);
  };
  switch (e.kind) {
    case AExprKind::BinaryExpr: {
      Node l = e.inputs[0], r = e.inputs[1];
      // Copies: add_cast and folding grow the arena, which would leave references dangling.
      const AExpr la = arena.get(l);
      const AExpr ra = arena.get(r);
      DataType lt = dtype(l), rt = dtype(r);
      bool l_dyn = dynamic_literal(la) != nullptr, r_dyn = dynamic_literal(ra) != nullptr;
      // Two Python numbers combine into a Python number that still adapts to its context
      // (col_f32 * (2.0 + 1.0) stays Float32), with or without simplification.
      if (l_dyn && r_dyn)
        if (auto folded = simplify::fold_constants(arena, node, schema)) return folded;
      if (lt == rt && !l_dyn && !r_dyn) {
        // Boolean with Boolean, as Polars: + counts (UInt32), / divides (Float64), and the
        // other operators are errors.
        if (lt.is_boolean() && dsl::is_arithmetic(e.op)) {
          if (e.op != Operator::Plus && e.op != Operator::TrueDivide)
            throw InvalidOperationError(err_msg("`", dsl::operator_symbol(e.op),
                                                "` operation not supported for dtype `bool` in ",
                                                node_to_expr(node, arena).to_string()));
          DataType t = e.op == Operator::TrueDivide ? DataType::float64() : DataType::uint32();
          return AExpr::binary(add_cast(arena, l, t), e.op, add_cast(arena, r, t));
        }
        return std::nullopt;
      }
      // Temporal arithmetic mixes dtypes on purpose (Datetime - Datetime, Date + Duration).
      if (dsl::is_arithmetic(e.op) && (lt.is_temporal() || rt.is_temporal()))
        return coerce_temporal_arithmetic(arena, node, l, r, lt, rt, l_dyn, r_dyn);
      // Struct arithmetic: each field meets the other operand inside the kernel.
      if (dsl::is_arithmetic(e.op) && compute::is_struct_arith(lt, rt)) return std::nullopt;
      // List arithmetic: the numeric leaves meet in their supertype, each side keeping its
      // nesting (List(Int8) + 1 stays List(Int8)); other leaves are the type check's error.
      if (dsl::is_arithmetic(e.op) && compute::is_list_arith(lt, rt)) {
        const DataType ll = compute::leaf_dtype(lt), rl = compute::leaf_dtype(rt);
        auto numeric = [](const DataType& t) { return t.is_numeric() || t.is_boolean() || t.is_null(); };
        if (!numeric(ll) || !numeric(rl)) return std::nullopt;
        // Two lists of different depths are the type check's error, reported on the dtypes given.
        if (lt.is_list_like() && rt.is_list_like() && lt.inner().is_list_like() != rt.inner().is_list_like())
          return std::nullopt;
        auto leaf = get_supertype(operand_dtype(la, ll, rl), operand_dtype(ra, rl, ll));
        if (!leaf) return std::nullopt;
        const DataType lc = compute::with_leaf(lt, *leaf), rc = compute::with_leaf(rt, *leaf);
        Node nl = lc == lt && !l_dyn ? l : add_cast(arena, l, lc);
        Node nr = rc == rt && !r_dyn ? r : add_cast(arena, r, rc);
        if (nl == l && nr == r) return std::nullopt;
        return AExpr::binary(nl, e.op, nr);
      }
      DataType lw = operand_dtype(la, lt, rt);
      DataType rw = operand_dtype(ra, rt, lt);
      if (dsl::is_logical(e.op)) {
        // Null in a boolean operation is a null boolean.
        if (lt.is_null() && rt.is_boolean()) lw = rt;
        if (rt.is_null() && lt.is_boolean()) rw = lt;
      }
      if (dsl::is_comparison(e.op)) {
        // A typed null literal compared with a non-literal takes its dtype, as in Polars
        // (lit(None, Int8) == col_str is null, eq_missing false; not a type error).
        // Also a non-strict cast of a literal that casts to null (Polars folds it first).
        auto null_literal = [&](const AExpr& a) {
          auto is_null_scalar = [](const AExpr& x) {
            return x.kind == AExprKind::Literal && !x.literal().is_series() && x.literal().scalar.is_null();
          };
          if (is_null_scalar(a)) return true;
          if (a.kind != AExprKind::Cast || a.strict) return false;
          const AExpr& in = arena.get(a.inputs[0]);
          if (in.kind != AExprKind::Literal || in.literal().is_series()) return false;
          if (is_null_scalar(in)) return true;
          try {
            return compute::cast(*scalar_to_array(in.literal().materialized_scalar(), 1), a.dtype(), false)->is_null(0);
          } catch (const Error&) {
            return false;  // an unsupported cast: its own check reports it
          }
        };
        if (null_literal(la) && ra.kind != AExprKind::Literal) lw = rt;
        if (null_literal(ra) && la.kind != AExprKind::Literal) rw = lt;
      }
      // An operand's own type error is reported before this node's (Polars reports the
      // innermost failing expression).
      auto operands_first = [&] {
        type_check(l, arena, schema);
        type_check(r, arena, schema);
      };
      if (dsl::is_comparison(e.op) && ((lw.is_string() && rw.is_numeric()) || (lw.is_numeric() && rw.is_string()))) {
        operands_first();
        throw ComputeError(err_msg("cannot compare string with numeric type (", lt, " and ", rt, ") in ",
                                   node_to_expr(node, arena).to_string()));
      }
      // A date, datetime or time is never compared with text as text (Polars raises).
      if (dsl::is_comparison(e.op) && compares_temporal_with_string(lw, rw)) {
        operands_first();
        throw InvalidOperationError(temporal_string_comparison_message());
      }
      // Polars never casts numbers to strings for arithmetic ("a" + 1 is an error, not "a1").
      if (dsl::is_arithmetic(e.op) && ((lw.is_string() && rw.is_numeric()) || (lw.is_numeric() && rw.is_string()))) {
        operands_first();
        throw InvalidOperationError(err_msg("arithmetic on string and numeric not allowed, try an explicit cast "
                                            "first (", lt, " and ", rt, ") in ",
                                            node_to_expr(node, arena).to_string()));
      }
      auto st = get_supertype(lw, rw);
      if (!st)
        throw SchemaError(err_msg("failed to determine supertype of ", lt, " and ", rt, " in ",
                                  node_to_expr(node, arena).to_string()));
      DataType target = *st;
      // A negative Python int next to UInt64 (Polars computes in Int128): arithmetic is
      // Int64, the UInt64 values past Int64 becoming null (a lossy cast, as Polars'); a
      // comparison is exact in Float64 (every UInt64 value stays >= 0 there).
      const bool u64_and_negative =
          e.op != Operator::TrueDivide && ((l_dyn && rw.id() == TypeId::UInt64 && lw.id() == TypeId::Int64) ||
                                           (r_dyn && lw.id() == TypeId::UInt64 && rw.id() == TypeId::Int64));
      if (u64_and_negative) target = dsl::is_comparison(e.op) ? DataType::float64() : DataType::int64();
      // UInt128 next to a signed integer meets it in Int128: values past Int128 become null,
      // as in Polars (the only supertype that does not hold every value).
      const bool u128_to_i128 = target.id() == TypeId::Int128 && (lw.id() == TypeId::UInt128 || rw.id() == TypeId::UInt128);
      const bool lossy = (u64_and_negative && !dsl::is_comparison(e.op)) || u128_to_i128;
      if (dsl::is_arithmetic(e.op) && target.is_boolean()) target = DataType::int32();
      // An Enum equals a string that is not one of its categories nowhere (Polars: false, not
      // a failed cast): (in)equality compares the strings; an ordering needs the category.
      const bool equality = e.op == Operator::Eq || e.op == Operator::NotEq || e.op == Operator::EqValidity ||
                            e.op == Operator::NotEqValidity;
      if (equality && target.id() == TypeId::Enum && (lw.is_string() || rw.is_string())) target = DataType::string();
      bool changed = lt != target || rt != target || l_dyn || r_dyn;
      if (!changed) return std::nullopt;
      Node nl = lt == target && !l_dyn ? l
                : add_cast(arena, l, target, !(lossy && !l_dyn) && !narrows_wide_literal(arena, l, target));
      Node nr = rt == target && !r_dyn ? r
                : add_cast(arena, r, target, !(lossy && !r_dyn) && !narrows_wide_literal(arena, r, target));
      if (nl == l && nr == r) return std::nullopt;
      return AExpr::binary(nl, e.op, nr);
    }
    case AExprKind::Ternary: {
      Node p = e.inputs[0], t = e.inputs[1], f = e.inputs[2];
      DataType pt = dtype(p), tt = dtype(t), ft = dtype(f);
      AExpr out = e;
      bool changed = false;
      if (pt.is_null()) {
        out.inputs[0] = add_cast(arena, p, DataType::boolean());
        changed = true;
      }
      const AExpr ta = arena.get(t);  // copies: add_cast below grows the arena
      const AExpr fa = arena.get(f);
      bool t_dyn = dynamic_literal(ta), f_dyn = dynamic_literal(fa);
      if (tt != ft || t_dyn || f_dyn) {
        DataType tw = operand_dtype(ta, tt, ft), fw = operand_dtype(fa, ft, tt);
        auto st = get_supertype(tw, fw);
        if (!st)
          throw SchemaError(err_msg("failed to determine supertype of ", tt, " and ", ft, " in ",
                                    node_to_expr(node, arena).to_string()));
        if (tt != *st || t_dyn) out.inputs[1] = add_cast(arena, t, *st);
        if (ft != *st || f_dyn) out.inputs[2] = add_cast(arena, f, *st);
        changed |= out.inputs[1] != t || out.inputs[2] != f;
      }
      if (!changed) return std::nullopt;
      return out;
    }
    case AExprKind::Function: {
      AExpr out = e;
      bool changed = false;
      auto unify = [&](size_t first, size_t last) {
        // Casts inputs [first, last] to their supertype (dynamic literals adapt).
        DataType t = dtype(e.inputs[first]);
        const AExpr* fa = &arena.get(e.inputs[first]);
        if (dynamic_literal(*fa) && last > first) t = DataType::null();
        for (size_t i = first; i <= last; ++i) {
          const AExpr& a = arena.get(e.inputs[i]);
          DataType d = dtype(e.inputs[i]);
          if (dynamic_literal(a)) continue;
          auto s = get_supertype(t, d);
          if (!s)
            throw SchemaError(err_msg("failed to determine supertype of ", t, " and ", d, " in ",
                                      node_to_expr(node, arena).to_string()));
          t = *s;
        }
        for (size_t i = first; i <= last; ++i) {
          const AExpr& a = arena.get(e.inputs[i]);
          if (auto* lit = dynamic_literal(a)) {
            DataType want = t.is_null() ? lit->materialized_dtype() : adapt_dynamic_literal(*lit, t);
            // (A negative int next to UInt64 makes Int64, as in binary operations.)
            if (t.id() == TypeId::UInt64 && want.id() == TypeId::Int64) {
              t = want;
              continue;
            }
            auto s = get_supertype(t, want);
            if (s) t = *s;
          }
        }
        for (size_t i = first; i <= last; ++i) {
          DataType d = dtype(e.inputs[i]);
          if (d != t || dynamic_literal(arena.get(e.inputs[i]))) {
            out.inputs[i] = add_cast(arena, e.inputs[i], t, !narrows_wide_literal(arena, e.inputs[i], t));
            changed |= out.inputs[i] != e.inputs[i];
          }
        }
      };
      switch (e.spec().coercion) {
        case Coercion::None: break;
        case Coercion::Supertype: {
          // The root is checked before unifying, which could make a Boolean input Float64.
          std::vector<DataType> types;
          for (Node in : e.inputs) types.push_back(dtype(in));
          check_call(node, arena, types);
          unify(0, e.inputs.size() - 1);
          break;
        }
        case Coercion::Between: {
          DataType xt = dtype(e.inputs[0]);
          for (size_t i = 1; i < 3; ++i) {
            const AExpr& a = arena.get(e.inputs[i]);
            DataType d = dtype(e.inputs[i]);
            DataType w = operand_dtype(a, d, xt);
            if (compares_temporal_with_string(xt, w)) {
              for (Node in : e.inputs) type_check(in, arena, schema);
              throw InvalidOperationError(temporal_string_comparison_message());
            }
            if ((xt.is_numeric() && w.is_string()) || (xt.is_string() && w.is_numeric())) {
              for (Node in : e.inputs) type_check(in, arena, schema);  // an operand's own error first
              throw ComputeError(err_msg("cannot compare string with numeric type (", xt, " and ", w, ") in ",
                                         node_to_expr(node, arena).to_string()));
            }
            if (auto s = get_supertype(xt, w)) xt = *s;
          }
          for (size_t i = 0; i < 3; ++i) {
            if (dtype(e.inputs[i]) != xt || dynamic_literal(arena.get(e.inputs[i]))) {
              out.inputs[i] = add_cast(arena, e.inputs[i], xt);
              changed |= out.inputs[i] != e.inputs[i];
            }
          }
          break;
        }
        case Coercion::SetMembers: {
          DataType xt = dtype(e.inputs[0]);
          const AExpr& v = arena.get(e.inputs[1]);
          DataType vt = dtype(e.inputs[1]);
          if (v.kind == AExprKind::Literal && v.literal().is_series()) {
            if (vt != xt && !vt.is_null()) {
              // Polars 2 casts between integer widths only: strings, booleans and integer vs.
              // float need an explicit cast.
              bool same_kind = (vt.is_integer() && xt.is_integer()) || (vt.is_float() && xt.is_float()) ||
                               (vt.is_temporal() && xt.is_temporal()) ||
                               (vt.is_string() && xt.is_categorical());  // strings name categories
              if (!same_kind && !xt.is_null())
                throw InvalidOperationError(err_msg("'is_in' cannot check for ", xt, " values in List(", vt,
                                                    ") data"));
              // Values that do not fit the column's dtype can never match: cast non-strictly.
              out.inputs[1] = add_cast(arena, e.inputs[1], xt, false);
              changed = true;
            }
          } else if (vt.is_list_like() && !xt.is_list_like()) {
            // A List or Array column: membership row by row (the kernel compares in the
            // list's inner dtype), as Polars does.
          } else if (vt != xt) {
            out.inputs[1] = add_cast(arena, e.inputs[1], xt);
            changed = true;
          }
          break;
        }
        case Coercion::FloatOperand: {
          // A Boolean root is read as a number, a String as the number it spells (null if none).
          DataType t = dtype(e.inputs[0]);
          if (t.is_boolean() || t.is_string()) {
            out.inputs[0] = add_cast(arena, e.inputs[0], DataType::float64(), /*strict=*/false);
            changed = true;
          }
          break;
        }
        case Coercion::Power: {
          DataType b = dtype(e.inputs[0]);
          // (Read before add_cast grows the arena.)
          const bool x_dyn = dynamic_literal(arena.get(e.inputs[1])) != nullptr;
          DataType x = dtype(e.inputs[1]);
          DataType target = b;
          // (A non-numeric operand is an error, as in Polars: the function's check reports it.)
          if (!b.is_numeric() || !x.is_numeric()) break;
          if (b.is_integer() && x.is_integer()) {
            // Polars' integer power: the exponent strictly cast to u32 (a negative or huge one fails).
            if (x != DataType::uint32() || x_dyn) {
              out.inputs[1] = add_cast(arena, e.inputs[1], DataType::uint32());
              changed = true;
            }
            break;
          }
          if (b.is_integer() && x.is_float()) target = x;  // the exponent's float type (Polars)
          else if (b.is_float()) target = b;
          if (b != target) {
            out.inputs[0] = add_cast(arena, e.inputs[0], target);
            changed = true;
          }
          if (x != target || x_dyn) {
            out.inputs[1] = add_cast(arena, e.inputs[1], target);
            changed |= out.inputs[1] != e.inputs[1];
          }
          break;
        }
      }
      if (!changed) return std::nullopt;
      return out;
    }
    default: return std::nullopt;
  }
}

// Checks one node whose inputs are checked, deriving each dtype once for the whole check
// (`dtypes`): a deep expression stays linear.
static void type_check_node(Node node, const AExpr& e, const ExprArena& arena, const Schema& schema,
                            DtypeMemo& dtypes) {
  auto dtype = [&](Node n) { return node_dtype(n, arena, schema, dtypes); };
  auto fail = [&](const std::string& what) {
    throw InvalidOperationError(what + " in " + node_to_expr(node, arena).to_string());
  };
  switch (e.kind) {
    case AExprKind::BinaryExpr: {
      DataType l = dtype(e.inputs[0]), r = dtype(e.inputs[1]);
      if (dsl::is_arithmetic(e.op)) {
        bool ok = (l.is_numeric() && r.is_numeric()) || l.is_temporal() || r.is_temporal() ||
                  (l.is_null() || r.is_null()) || (l.id() == TypeId::Array && r.id() == TypeId::Array) ||
                  (e.op == Operator::Plus && l.is_string() && r.is_string());
        if (compute::is_list_arith(l, r) || compute::is_struct_arith(l, r)) {
          ok = true;
          try {
            (void)dtype(node);  // list_arith_dtype: Polars' errors for non-numeric leaves
          } catch (const Error& err) {
            throw_error(err.kind(), std::string(err.what()) + " in " + node_to_expr(node, arena).to_string());
          }
        }
        if (!ok) fail(err_msg("arithmetic '", dsl::operator_symbol(e.op), "' is not supported for dtypes ", l, " and ", r));
      }
      if (dsl::is_logical(e.op)) {
        bool ok = (l.is_boolean() || l.is_null() || l.is_integer()) && (r.is_boolean() || r.is_null() || r.is_integer());
        if (!ok) fail(err_msg("logical '", dsl::operator_symbol(e.op), "' is not supported for dtypes ", l, " and ", r));
      }
      break;
    }
    case AExprKind::Ternary: {
      DataType p = dtype(e.inputs[0]);
      if (!p.is_boolean() && !p.is_null()) fail(err_msg("when() predicate must be of type Boolean, got ", p));
      break;
    }
    case AExprKind::Filter: {
      DataType p = dtype(e.inputs[1]);
      if (!p.is_boolean()) fail(err_msg("filter predicate must be of type Boolean, got ", p));
      break;
    }
    case AExprKind::Cast: {
      DataType from = dtype(e.inputs[0]);
      try {
        compute::check_cast(from, e.dtype());
      } catch (const Error& err) {
        throw_error(err.kind(), std::string(err.what()) + " in " + node_to_expr(node, arena).to_string());
      }
      break;
    }
    case AExprKind::Agg: {
      DataType t = dtype(e.inputs[0]);
      using compute::AggKind;
      bool numeric_only = e.agg == AggKind::Mean || e.agg == AggKind::Median || e.agg == AggKind::Std ||
                          e.agg == AggKind::Var || e.agg == AggKind::Quantile;
      if (numeric_only && !(t.is_numeric() || t.is_boolean() || t.is_null() || t.is_temporal()))
        fail(err_msg("`", compute::agg_name(e.agg), "` operation not supported for dtype `", t.short_name(), "`"));
      if (e.agg == AggKind::Sum && !(t.is_numeric() || t.is_boolean() || t.is_null() || t.id() == TypeId::Duration))
        fail(err_msg("`sum` operation not supported for dtype `", t.short_name(), "`"));
      if ((e.agg == AggKind::Any || e.agg == AggKind::All) && !t.is_boolean())
        fail(err_msg("`", compute::agg_name(e.agg), "` operation not supported for dtype `", t.short_name(), "`"));
      break;
    }
    case AExprKind::Function: {
      std::vector<DataType> types;
      for (Node in : e.inputs) types.push_back(dtype(in));
      check_call(node, arena, types);
      break;
    }
    default: break;
  }
}

// Each node of the DAG once, inputs first (a shared subtree is not checked per parent).
void type_check(Node node, const ExprArena& arena, const Schema& schema) {
  DtypeMemo dtypes;
  post_order(node, arena, [&](Node n, const AExpr& e) { type_check_node(n, e, arena, schema, dtypes); });
}

}  // namespace frazil::plan
