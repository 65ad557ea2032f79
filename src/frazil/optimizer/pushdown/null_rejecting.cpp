#include "frazil/optimizer/pushdown/null_rejecting.hpp"

namespace frazil::optimizer {

using dsl::FunctionKind;
using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;
using plan::ExprArena;
using plan::Node;

namespace {

using NullColumn = std::function<bool(const std::string&)>;

// The value is null on such rows.
bool is_null_value(Node node, const ExprArena& arena, const NullColumn& is_null_column) {
  const AExpr& e = arena.get(node);
  auto in = [&](size_t i) { return is_null_value(e.inputs[i], arena, is_null_column); };
  switch (e.kind) {
    case AExprKind::Column: return is_null_column(e.name);
    case AExprKind::Literal: return !e.literal().is_series() && e.literal().scalar.is_null();
    case AExprKind::Cast: return in(0);
    case AExprKind::BinaryExpr:
      switch (e.op) {
        case Operator::EqValidity:
        case Operator::NotEqValidity: return false;
        // Kleene logic: null & false is false, null | true is true.
        case Operator::And:
        case Operator::Or: return in(0) && in(1);
        default: return in(0) || in(1);  // comparisons, arithmetic, xor propagate nulls
      }
    case AExprKind::Function:
      switch (e.function().kind) {
        case FunctionKind::Not:
        case FunctionKind::IsNan:
        case FunctionKind::IsNotNan:
        case FunctionKind::IsFinite:
        case FunctionKind::IsInfinite:
        case FunctionKind::IsBetween:  // null when x is; the bounds may make it false
        case FunctionKind::Abs:
        case FunctionKind::Negate:
        case FunctionKind::Round:
        case FunctionKind::Floor:
        case FunctionKind::Ceil:
        case FunctionKind::Sqrt:
        case FunctionKind::StrContains:
        case FunctionKind::StrStartsWith:
        case FunctionKind::StrEndsWith:
        case FunctionKind::StrSlice:
        case FunctionKind::StrLenBytes:
        case FunctionKind::StrLenChars:
        case FunctionKind::StrToUppercase:
        case FunctionKind::StrToLowercase:
        case FunctionKind::StrStripChars:
        case FunctionKind::StrReplace:
        case FunctionKind::DtYear:
        case FunctionKind::DtMonth:
        case FunctionKind::DtDay:
        case FunctionKind::DtHour:
        case FunctionKind::DtMinute:
        case FunctionKind::DtSecond:
        case FunctionKind::DtWeekday:
        case FunctionKind::DtOrdinalDay:
        case FunctionKind::DtQuarter: return in(0);
        case FunctionKind::Pow: return in(0) || in(1);
        default: return false;  // is_null, fill_null, coalesce, is_in, ... may turn null into a value
      }
    default: return false;  // ternaries, aggregations, windows: unknown
  }
}

// The value is null or false on such rows.
bool is_null_or_false(Node node, const ExprArena& arena, const NullColumn& is_null_column) {
  const AExpr& e = arena.get(node);
  if (is_null_value(node, arena, is_null_column)) return true;
  if (auto b = e.literal_bool(); b && !*b) return true;
  auto nof = [&](size_t i) { return is_null_or_false(e.inputs[i], arena, is_null_column); };
  if (e.kind == AExprKind::BinaryExpr) {
    if (e.op == Operator::And) return nof(0) || nof(1);
    if (e.op == Operator::Or) return nof(0) && nof(1);
  }
  if (e.kind == AExprKind::Function) {
    switch (e.function().kind) {
      // is_not_null(x) is false where x is null.
      case FunctionKind::IsNotNull: return is_null_value(e.inputs[0], arena, is_null_column);
      // x >= lo & x <= hi: a null bound makes one side null, so the whole is null or false.
      case FunctionKind::IsBetween:
        return is_null_value(e.inputs[1], arena, is_null_column) || is_null_value(e.inputs[2], arena, is_null_column);
      default: break;
    }
  }
  return false;
}

}  // namespace

bool rejects_nulls(Node predicate, const ExprArena& arena, const NullColumn& is_null_column) {
  return is_null_or_false(predicate, arena, is_null_column);
}

}  // namespace frazil::optimizer
