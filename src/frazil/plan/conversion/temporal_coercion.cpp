#include "frazil/plan/conversion/temporal_coercion.hpp"

#include "frazil/core/error.hpp"
#include "frazil/plan/conversion/type_coercion.hpp"
#include "frazil/plan/expr_ir.hpp"

namespace frazil::plan {

using dsl::Operator;

TimeUnit coarser_unit(TimeUnit a, TimeUnit b) {
  if (a == TimeUnit::Milliseconds || b == TimeUnit::Milliseconds) return TimeUnit::Milliseconds;
  if (a == TimeUnit::Microseconds || b == TimeUnit::Microseconds) return TimeUnit::Microseconds;
  return TimeUnit::Nanoseconds;
}

namespace {

DataType with_unit(const DataType& t, TimeUnit u) {
  if (t.id() == TypeId::Datetime) return DataType::datetime(u, t.time_zone());
  if (t.id() == TypeId::Duration) return DataType::duration(u);
  return t;
}

// Polars' "<op> not allowed on <l> and <r>" (a dynamic literal is "dyn int" / "dyn float").
[[noreturn]] void not_allowed(Operator op, const DataType& lt, const DataType& rt, bool l_dyn, bool r_dyn) {
  auto name = [](const DataType& t, bool dyn) {
    if (dyn) return std::string(t.is_float() ? "dyn float" : "dyn int");
    return t.short_name();
  };
  throw InvalidOperationError(
      err_msg(dsl::operator_symbol(op), " not allowed on ", name(lt, l_dyn), " and ", name(rt, r_dyn)));
}

}  // namespace

std::optional<AExpr> coerce_temporal_arithmetic(ExprArena& arena, Node node, Node l, Node r, const DataType& lt,
                                                const DataType& rt, bool l_dyn, bool r_dyn) {
  const Operator op = arena.get(node).op;
  if (!dsl::is_arithmetic(op) || !(lt.is_temporal() || rt.is_temporal()) || lt.is_null() || rt.is_null())
    return std::nullopt;
  const TypeId li = lt.id(), ri = rt.id();
  const bool add = op == Operator::Plus, sub = op == Operator::Minus;
  // A Date next to a Datetime is that Datetime (midnight).
  if (li == TypeId::Date && ri == TypeId::Datetime) return AExpr::binary(add_cast(arena, l, rt), op, r);
  if (li == TypeId::Datetime && ri == TypeId::Date) return AExpr::binary(l, op, add_cast(arena, r, lt));
  // Datetime - Datetime, Datetime ± Duration, Duration ± Duration: both in the coarser unit.
  const bool pair = (li == TypeId::Datetime && ri == TypeId::Datetime && sub) ||
                    (li == TypeId::Datetime && ri == TypeId::Duration && (add || sub)) ||
                    (li == TypeId::Duration && ri == TypeId::Datetime && add) ||
                    (li == TypeId::Duration && ri == TypeId::Duration && (add || sub || op == Operator::TrueDivide));
  if (pair) {
    if (li == TypeId::Datetime && ri == TypeId::Datetime && lt.time_zone() != rt.time_zone())
      throw SchemaError(err_msg("failed to determine supertype of ", lt.short_name(), " and ", rt.short_name()));
    const TimeUnit u = coarser_unit(lt.time_unit(), rt.time_unit());
    if (lt.time_unit() == u && rt.time_unit() == u) return std::nullopt;
    Node nl = lt.time_unit() == u ? l : add_cast(arena, l, with_unit(lt, u));
    Node nr = rt.time_unit() == u ? r : add_cast(arena, r, with_unit(rt, u));
    return AExpr::binary(nl, op, nr);
  }
  // A Duration scaled by a number: integers as Int64, floats as Float64 (the kernel
  // truncates); // is refused, as Polars.
  const bool ldur = li == TypeId::Duration, rdur = ri == TypeId::Duration;
  const DataType& other = ldur ? rt : lt;
  if ((ldur || rdur) && (other.is_primitive_numeric() || other.is_boolean())) {
    const bool mul = op == Operator::Multiply, div = op == Operator::TrueDivide && ldur;
    if (!mul && !div) not_allowed(op, lt, rt, l_dyn, r_dyn);
    const DataType want = other.is_float() ? DataType::float64() : DataType::int64();
    const bool other_dyn = ldur ? r_dyn : l_dyn;
    if (other == want && !other_dyn) return std::nullopt;
    Node on = add_cast(arena, ldur ? r : l, want);
    return ldur ? AExpr::binary(l, op, on) : AExpr::binary(on, op, r);
  }
  // Dates, datetimes, times and durations with numbers (or each other otherwise) are refused.
  if ((lt.is_temporal() && (rt.is_numeric() || rt.is_boolean())) ||
      (rt.is_temporal() && (lt.is_numeric() || lt.is_boolean())))
    not_allowed(op, lt, rt, l_dyn, r_dyn);
  return std::nullopt;
}

}  // namespace frazil::plan
