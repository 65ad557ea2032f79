#include "frazil/exec/sources/stats_pruning.hpp"

#include <cmath>

#include "frazil/compute/cast.hpp"
#include "frazil/dsl/operator_mirror.hpp"

namespace frazil::exec {

using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;

namespace {

// Nanoseconds per unit of a Datetime/Duration.
int64_t nanos_per_unit(TimeUnit u) {
  return u == TimeUnit::Nanoseconds ? 1 : u == TimeUnit::Microseconds ? 1000 : 1'000'000;
}

// Two integers of any widths and signedness, compared by value.
std::optional<int> compare_integers(const Scalar::Value& x, const Scalar::Value& y) {
  auto wide = [](const Scalar::Value& v) -> std::optional<__int128> {
    if (auto* p = std::get_if<int64_t>(&v)) return __int128(*p);
    if (auto* p = std::get_if<uint64_t>(&v)) return __int128(*p);
    return std::nullopt;
  };
  auto a = wide(x), b = wide(y);
  if (!a || !b) return std::nullopt;
  return (*a > *b) - (*a < *b);
}

// Total-order comparison of two non-null scalars of one dtype; nullopt if not comparable.
// Integers of other widths compare by value, Datetimes (of one zone) and Durations of
// other units in nanoseconds (a literal's unit often differs from the column's).
std::optional<int> compare(const Scalar& a, const Scalar& b) {
  if (a.is_null() || b.is_null()) return std::nullopt;
  const auto& x = a.value();
  const auto& y = b.value();
  if (a.dtype() != b.dtype()) {
    const DataType &s = a.dtype(), &t = b.dtype();
    if (s.is_integer() && t.is_integer()) return compare_integers(x, y);
    const bool both_datetime = s.id() == TypeId::Datetime && t.id() == TypeId::Datetime && s.time_zone() == t.time_zone();
    const bool both_duration = s.id() == TypeId::Duration && t.id() == TypeId::Duration;
    if (!both_datetime && !both_duration) return std::nullopt;
    const auto* p = std::get_if<int64_t>(&x);
    const auto* q = std::get_if<int64_t>(&y);
    if (!p || !q) return std::nullopt;
    int64_t pn, qn;
    if (__builtin_mul_overflow(*p, nanos_per_unit(s.time_unit()), &pn) ||
        __builtin_mul_overflow(*q, nanos_per_unit(t.time_unit()), &qn))
      return std::nullopt;
    return (pn > qn) - (pn < qn);
  }
  if (x.index() != y.index()) return std::nullopt;
  if (auto* p = std::get_if<int64_t>(&x)) {
    int64_t q = std::get<int64_t>(y);
    return (*p > q) - (*p < q);
  }
  if (auto* p = std::get_if<uint64_t>(&x)) {
    uint64_t q = std::get<uint64_t>(y);
    return (*p > q) - (*p < q);
  }
  if (auto* p = std::get_if<double>(&x)) {
    double q = std::get<double>(y);
    bool pn = std::isnan(*p), qn = std::isnan(q);
    if (pn || qn) return pn && qn ? 0 : (pn ? 1 : -1);  // NaN is greatest
    return (*p > q) - (*p < q);
  }
  if (auto* p = std::get_if<std::string>(&x)) {
    int c = p->compare(std::get<std::string>(y));
    return (c > 0) - (c < 0);
  }
  if (auto* p = std::get_if<bool>(&x)) {
    bool q = std::get<bool>(y);
    return int(*p) - int(q);
  }
  if (auto* p = std::get_if<int128_t>(&x)) {
    int128_t q = std::get<int128_t>(y);
    return (*p > q) - (*p < q);
  }
  return std::nullopt;
}

// `column op value` is false or null for every row of the group.
bool comparison_is_never_true(Operator op, const Scalar& value, const io::parquet::ColumnStatistics& s,
                              int64_t rows) {
  if (s.null_count && *s.null_count == rows && rows > 0) return true;  // all null: every comparison is null
  const bool is_float = value.dtype().is_float();
  auto vs_min = s.min ? compare(*s.min, value) : std::nullopt;  // sign of (min - value)
  auto vs_max = s.max ? compare(*s.max, value) : std::nullopt;  // sign of (max - value)
  switch (op) {
    case Operator::Eq:
      if (is_float && std::isnan(value.as_double())) return false;
      return (vs_min && *vs_min > 0) || (vs_max && *vs_max < 0);
    case Operator::NotEq:
      return !is_float && vs_min && vs_max && *vs_min == 0 && *vs_max == 0;
    case Operator::Lt: return vs_min && *vs_min >= 0;
    case Operator::LtEq: return vs_min && *vs_min > 0;
    case Operator::Gt: return !is_float && vs_max && *vs_max <= 0;
    case Operator::GtEq: return !is_float && vs_max && *vs_max < 0;
    default: return false;
  }
}

// A cast that keeps the order of values (x <= y implies cast(x) <= cast(y)), so that the
// cast of a group's min and max bound the cast of its rows: a Datetime or Duration to
// another unit (a comparison with a literal of another unit casts the column), an integer
// to a wider one.
bool cast_keeps_order(const DataType& from, const DataType& to) {
  if (from.id() == TypeId::Datetime && to.id() == TypeId::Datetime) return from.time_zone() == to.time_zone();
  if (from.id() == TypeId::Duration && to.id() == TypeId::Duration) return true;
  return from.is_integer() && to.is_integer() && to.byte_width() > from.byte_width() &&
         (to.is_signed_integer() || !from.is_signed_integer());
}

// The statistics of a column, or of an order-keeping cast of one (its min and max cast
// as the rows are).
std::optional<io::parquet::ColumnStatistics> column_stats(const AExpr& e, const plan::ExprArena& arena,
                                                          const io::parquet::RowGroupStats& stats) {
  if (e.kind == AExprKind::Column) {
    if (const auto* s = stats.get(e.name)) return *s;
    return std::nullopt;
  }
  if (e.kind != AExprKind::Cast) return std::nullopt;
  const AExpr& x = arena.get(e.inputs[0]);
  if (x.kind != AExprKind::Column) return std::nullopt;
  const auto* s = stats.get(x.name);
  if (!s) return std::nullopt;
  io::parquet::ColumnStatistics out = *s;
  for (std::optional<Scalar>* bound : {&out.min, &out.max}) {
    if (!*bound) continue;
    if (!cast_keeps_order((*bound)->dtype(), e.dtype())) return std::nullopt;
    try {
      *bound = array_get(*compute::cast(*scalar_to_array(**bound, 1), e.dtype(), true), 0);
    } catch (const std::exception&) {
      return std::nullopt;  // out of range for the target: nothing known
    }
  }
  return out;
}

std::optional<Scalar> literal_value(const AExpr& e) {
  if (e.kind != AExprKind::Literal || e.literal().is_series() || e.literal().scalar.is_null()) return std::nullopt;
  return e.literal().materialized_scalar();
}

}  // namespace

bool can_skip_row_group(plan::Node node, const plan::ExprArena& arena, const io::parquet::RowGroupStats& stats) {
  const AExpr& e = arena.get(node);
  const int64_t rows = stats.num_rows;
  if (e.kind == AExprKind::BinaryExpr) {
    if (e.op == Operator::And)
      return can_skip_row_group(e.inputs[0], arena, stats) || can_skip_row_group(e.inputs[1], arena, stats);
    if (e.op == Operator::Or)
      return can_skip_row_group(e.inputs[0], arena, stats) && can_skip_row_group(e.inputs[1], arena, stats);
    const AExpr& l = arena.get(e.inputs[0]);
    const AExpr& r = arena.get(e.inputs[1]);
    if (auto s = column_stats(l, arena, stats))
      if (auto v = literal_value(r)) return comparison_is_never_true(e.op, *v, *s, rows);
    if (auto s = column_stats(r, arena, stats))
      if (auto v = literal_value(l)) return comparison_is_never_true(dsl::mirrored(e.op), *v, *s, rows);
    return false;
  }
  if (e.kind == AExprKind::Function) {
    const AExpr& x = arena.get(e.inputs[0]);
    const auto s = column_stats(x, arena, stats);
    if (!s) return false;
    // Pruning knows what a few predicates mean (by name: this is about their meaning, not
    // a property other functions could share).
    const auto& fn = e.function();
    if (fn.is("is_null")) return s->null_count && *s->null_count == 0;
    if (fn.is("is_not_null")) return s->null_count && *s->null_count == rows && rows > 0;
    if (fn.is("is_in") && e.inputs.size() == 2) {
      // Skipped when no value of the list can be in the group's [min, max] (a null in the
      // list, which may match nulls, keeps it).
      const AExpr& list = arena.get(e.inputs[1]);
      if (list.kind != AExprKind::Literal) return false;
      const dsl::LiteralValue& lit = list.literal();
      ArrayRef values = lit.series;
      if (!values && !lit.scalar.is_null())
        if (auto* a = std::get_if<ArrayRef>(&lit.scalar.value())) values = *a;
      if (!values || values->length() > 4096) return false;
      for (int64_t i = 0; i < values->length(); ++i) {
        if (values->is_null(i)) return false;
        if (!comparison_is_never_true(Operator::Eq, array_get(*values, i), *s, rows)) return false;
      }
      return true;
    }
    if (fn.is("is_between")) {
      auto lo = literal_value(arena.get(e.inputs[1]));
      auto hi = literal_value(arena.get(e.inputs[2]));
      const std::string& closed = fn.args.get_string("closed");
      bool lo_closed = closed == "both" || closed == "left";
      bool hi_closed = closed == "both" || closed == "right";
      if (lo && comparison_is_never_true(lo_closed ? Operator::GtEq : Operator::Gt, *lo, *s, rows)) return true;
      if (hi && comparison_is_never_true(hi_closed ? Operator::LtEq : Operator::Lt, *hi, *s, rows)) return true;
    }
    return false;
  }
  return false;
}

}  // namespace frazil::exec
