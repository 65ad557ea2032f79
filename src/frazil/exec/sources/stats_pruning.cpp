#include "frazil/exec/sources/stats_pruning.hpp"

#include <cmath>

#include "frazil/dsl/operator_mirror.hpp"

namespace frazil::exec {

using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;

namespace {

// Total-order comparison of two non-null scalars of one dtype; nullopt if not comparable.
std::optional<int> compare(const Scalar& a, const Scalar& b) {
  if (a.dtype() != b.dtype() || a.is_null() || b.is_null()) return std::nullopt;
  const auto& x = a.value();
  const auto& y = b.value();
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

const io::parquet::ColumnStatistics* column_stats(const AExpr& e, const io::parquet::RowGroupStats& stats) {
  return e.kind == AExprKind::Column ? stats.get(e.name) : nullptr;
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
    if (auto* s = column_stats(l, stats))
      if (auto v = literal_value(r)) return comparison_is_never_true(e.op, *v, *s, rows);
    if (auto* s = column_stats(r, stats))
      if (auto v = literal_value(l)) return comparison_is_never_true(dsl::mirrored(e.op), *v, *s, rows);
    return false;
  }
  if (e.kind == AExprKind::Function) {
    const AExpr& x = arena.get(e.inputs[0]);
    const auto* s = column_stats(x, stats);
    if (!s) return false;
    // Pruning knows what a few predicates mean (by name: this is about their meaning, not
    // a property other functions could share).
    const auto& fn = e.function();
    if (fn.is("is_null")) return s->null_count && *s->null_count == 0;
    if (fn.is("is_not_null")) return s->null_count && *s->null_count == rows && rows > 0;
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
