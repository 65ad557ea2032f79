#include "frazil/physical/dispatch.hpp"

#include "frazil/compute/cumulative.hpp"

#include "frazil/compute/arithmetic.hpp"
#include "frazil/compute/boolean.hpp"
#include "frazil/compute/compare.hpp"
#include "frazil/compute/explode.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/string.hpp"
#include "frazil/compute/temporal.hpp"
#include "frazil/core/error.hpp"

namespace frazil::physical {

using dsl::FunctionKind;

namespace {

// `Fn(&Array)` closures: the first input is the root.
template <typename F>
ColumnsUdf map(F f) {
  return [f](std::span<const ArrayRef> in) { return f(*in[0]); };
}
template <typename F>
ColumnsUdf map2(F f) {
  return [f](std::span<const ArrayRef> in) { return f(*in[0], *in[1]); };
}

ColumnsUdf date_part(compute::DatePart part) {
  return [part](std::span<const ArrayRef> in) { return compute::date_part(*in[0], part); };
}

}  // namespace

ColumnsUdf function_expr_to_udf(const dsl::FunctionExpr& function) {
  const auto o = function.options;
  switch (function.kind) {
    case FunctionKind::Not:
      return map([](const Array& a) { return a.dtype().is_integer() ? compute::bit_not(a) : compute::not_(a); });
    case FunctionKind::IsNull: return map(compute::is_null);
    case FunctionKind::IsNotNull: return map(compute::is_not_null);
    case FunctionKind::IsNan: return map(compute::is_nan);
    case FunctionKind::IsNotNan: return map(compute::is_not_nan);
    case FunctionKind::IsFinite: return map(compute::is_finite);
    case FunctionKind::IsInfinite: return map(compute::is_infinite);
    case FunctionKind::IsIn:
      return map2([](const Array& x, const Array& values) { return compute::is_in(x, values); });
    case FunctionKind::IsBetween:
      return [closed = o.str](std::span<const ArrayRef> in) {
        return compute::is_between(*in[0], *in[1], *in[2], closed);
      };
    case FunctionKind::FillNull: return map2(compute::fill_null);
    case FunctionKind::FillNan: return map2(compute::fill_nan);
    case FunctionKind::Coalesce:
      return [](std::span<const ArrayRef> in) {
        ArrayRef out = in[0];
        for (size_t i = 1; i < in.size(); ++i) out = compute::fill_null(*out, *in[i]);
        return out;
      };
    case FunctionKind::Abs: return map(compute::abs);
    case FunctionKind::Negate: return map(compute::negate);
    case FunctionKind::Round:
      return map([n = o.n](const Array& a) { return compute::round(a, static_cast<int>(n)); });
    case FunctionKind::Floor: return map(compute::floor);
    case FunctionKind::Ceil: return map(compute::ceil);
    case FunctionKind::Sqrt: return map(compute::sqrt);
    case FunctionKind::Pow:
      return map2([](const Array& a, const Array& b) { return compute::arith(compute::ArithOp::Pow, a, b); });
    case FunctionKind::Reverse: return map(compute::reverse);
    case FunctionKind::Shift: return map([n = o.n](const Array& a) { return compute::shift(a, n); });
    case FunctionKind::CumSum: return map([](const Array& a) { return compute::cumulative(a, compute::CumulativeKind::Sum); });
    case FunctionKind::CumMin: return map([](const Array& a) { return compute::cumulative(a, compute::CumulativeKind::Min); });
    case FunctionKind::CumMax: return map([](const Array& a) { return compute::cumulative(a, compute::CumulativeKind::Max); });
    case FunctionKind::CumCount: return map([](const Array& a) { return compute::cumulative(a, compute::CumulativeKind::Count); });
    case FunctionKind::Unique:
      // Without maintain_order Polars leaves the order undefined; first-seen order is valid for both.
      return [](std::span<const ArrayRef> in) { return compute::take(*in[0], compute::unique_rows({in[0]}, "first")); };
    case FunctionKind::DropNulls:
      return map([](const Array& a) { return compute::filter(a, *compute::is_not_null(a)); });
    case FunctionKind::Head:
      return map([n = o.n](const Array& a) { return a.slice(0, std::min<int64_t>(std::max<int64_t>(n, 0), a.length())); });
    case FunctionKind::Tail:
      return map([n = o.n](const Array& a) {
        int64_t k = std::min<int64_t>(std::max<int64_t>(n, 0), a.length());
        return a.slice(a.length() - k, k);
      });
    case FunctionKind::NullCount:
      return map([](const Array& a) { return scalar_to_array(Scalar::uint32(a.null_count()), 1); });
    case FunctionKind::StrContains:
      return map([p = o.str, lit = o.flag](const Array& a) { return compute::str_contains(a, p, lit); });
    case FunctionKind::StrStartsWith: return map([p = o.str](const Array& a) { return compute::str_starts_with(a, p); });
    case FunctionKind::StrEndsWith: return map([p = o.str](const Array& a) { return compute::str_ends_with(a, p); });
    case FunctionKind::StrSlice:
      return map([off = o.n, len = o.length](const Array& a) { return compute::str_slice(a, off, len); });
    case FunctionKind::StrLenBytes: return map(compute::str_len_bytes);
    case FunctionKind::StrLenChars: return map(compute::str_len_chars);
    case FunctionKind::StrToUppercase: return map(compute::str_to_uppercase);
    case FunctionKind::StrToLowercase: return map(compute::str_to_lowercase);
    case FunctionKind::StrStripChars:
      return map([chars = o.flag ? std::optional<std::string>(o.str) : std::nullopt](const Array& a) {
        return compute::str_strip_chars(a, chars);
      });
    case FunctionKind::StrReplace:
      return map([p = o.str, v = o.str2, lit = o.flag, all = o.flag2](const Array& a) {
        return compute::str_replace(a, p, v, lit, all);
      });
    case FunctionKind::DtYear: return date_part(compute::DatePart::Year);
    case FunctionKind::DtMonth: return date_part(compute::DatePart::Month);
    case FunctionKind::DtDay: return date_part(compute::DatePart::Day);
    case FunctionKind::DtHour: return date_part(compute::DatePart::Hour);
    case FunctionKind::DtMinute: return date_part(compute::DatePart::Minute);
    case FunctionKind::DtSecond: return date_part(compute::DatePart::Second);
    case FunctionKind::DtWeekday: return date_part(compute::DatePart::Weekday);
    case FunctionKind::DtOrdinalDay: return date_part(compute::DatePart::Ordinal);
    case FunctionKind::DtQuarter: return date_part(compute::DatePart::Quarter);
    case FunctionKind::Explode:
      // Polars leaves a column that holds no lists as it is.
      return [opts = compute::ExplodeOptions{o.flag, o.flag2}](std::span<const ArrayRef> in) {
        return in[0]->dtype().id() == TypeId::List ? compute::explode(*in[0], opts) : in[0];
      };
  }
  throw InternalError(err_msg("no kernel for function ", dsl::function_name(function.kind)));
}

}  // namespace frazil::physical
