#include "frazil/dsl/function_expr.hpp"

#include <functional>

namespace frazil::dsl {

const char* function_name(FunctionKind kind) {
  switch (kind) {
    case FunctionKind::Not: return "not";
    case FunctionKind::IsNull: return "is_null";
    case FunctionKind::IsNotNull: return "is_not_null";
    case FunctionKind::IsNan: return "is_nan";
    case FunctionKind::IsNotNan: return "is_not_nan";
    case FunctionKind::IsFinite: return "is_finite";
    case FunctionKind::IsInfinite: return "is_infinite";
    case FunctionKind::IsIn: return "is_in";
    case FunctionKind::IsBetween: return "is_between";
    case FunctionKind::FillNull: return "fill_null";
    case FunctionKind::FillNan: return "fill_nan";
    case FunctionKind::Coalesce: return "coalesce";
    case FunctionKind::Abs: return "abs";
    case FunctionKind::Negate: return "neg";
    case FunctionKind::Round: return "round";
    case FunctionKind::Floor: return "floor";
    case FunctionKind::Ceil: return "ceil";
    case FunctionKind::Sqrt: return "sqrt";
    case FunctionKind::Pow: return "pow";
    case FunctionKind::Reverse: return "reverse";
    case FunctionKind::Shift: return "shift";
    case FunctionKind::Unique: return "unique";
    case FunctionKind::DropNulls: return "drop_nulls";
    case FunctionKind::Head: return "head";
    case FunctionKind::Tail: return "tail";
    case FunctionKind::NullCount: return "null_count";
    case FunctionKind::StrContains: return "str.contains";
    case FunctionKind::StrStartsWith: return "str.starts_with";
    case FunctionKind::StrEndsWith: return "str.ends_with";
    case FunctionKind::StrSlice: return "str.slice";
    case FunctionKind::StrLenBytes: return "str.len_bytes";
    case FunctionKind::StrLenChars: return "str.len_chars";
    case FunctionKind::StrToUppercase: return "str.to_uppercase";
    case FunctionKind::StrToLowercase: return "str.to_lowercase";
    case FunctionKind::StrStripChars: return "str.strip_chars";
    case FunctionKind::StrReplace: return "str.replace";
    case FunctionKind::DtYear: return "dt.year";
    case FunctionKind::DtMonth: return "dt.month";
    case FunctionKind::DtDay: return "dt.day";
    case FunctionKind::DtHour: return "dt.hour";
    case FunctionKind::DtMinute: return "dt.minute";
    case FunctionKind::DtSecond: return "dt.second";
    case FunctionKind::DtWeekday: return "dt.weekday";
    case FunctionKind::DtOrdinalDay: return "dt.ordinal_day";
    case FunctionKind::DtQuarter: return "dt.quarter";
    case FunctionKind::Explode: return "explode";
    case FunctionKind::CumSum: return "cum_sum";
    case FunctionKind::CumMin: return "cum_min";
    case FunctionKind::CumMax: return "cum_max";
    case FunctionKind::CumCount: return "cum_count";
  }
  return "?";
}

bool function_is_elementwise(FunctionKind kind) {
  switch (kind) {
    case FunctionKind::Reverse:
    case FunctionKind::Shift:
    case FunctionKind::Unique:
    case FunctionKind::DropNulls:
    case FunctionKind::Head:
    case FunctionKind::Tail:
    case FunctionKind::NullCount:
    case FunctionKind::Explode:
    case FunctionKind::CumSum:
    case FunctionKind::CumMin:
    case FunctionKind::CumMax:
    case FunctionKind::CumCount: return false;
    default: return true;
  }
}

bool function_is_reduction(FunctionKind kind) { return kind == FunctionKind::NullCount; }

std::pair<size_t, size_t> function_arity(FunctionKind kind) {
  switch (kind) {
    case FunctionKind::IsIn:
    case FunctionKind::FillNull:
    case FunctionKind::FillNan:
    case FunctionKind::Pow: return {2, 2};
    case FunctionKind::IsBetween: return {3, 3};
    case FunctionKind::Coalesce: return {1, SIZE_MAX};
    default: return {1, 1};
  }
}

size_t hash_function_expr(const FunctionExpr& f) {
  size_t h = static_cast<size_t>(f.kind) * 0x9E3779B97F4A7C15ULL;
  auto mix = [&h](size_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
  mix(std::hash<int64_t>()(f.options.n));
  mix(f.options.length ? std::hash<int64_t>()(*f.options.length) + 1 : 0);
  mix(std::hash<std::string>()(f.options.str));
  mix(std::hash<std::string>()(f.options.str2));
  mix(f.options.flag * 2 + f.options.flag2);
  return h;
}

}  // namespace frazil::dsl
