#include "frazil/compute/temporal/construct.hpp"

#include <cmath>
#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/temporal/fields.hpp"
#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/compute/temporal/zone.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// The common length of arrays that are each of one value or of n values.
int64_t broadcast_len(std::span<const ArrayRef> parts, const char* what) {
  int64_t n = 1;
  for (const auto& p : parts)
    if (p->length() != 1) n = p->length();
  for (const auto& p : parts)
    if (p->length() != 1 && p->length() != n)
      throw ShapeError(err_msg("length mismatch in '", what, "': ", p->length(), " and ", n));
  return n;
}

// A part read as int64 per row (row i of a one-value part is its only value).
class IntPart {
 public:
  IntPart(const ArrayRef& a, const char* what) {
    if (a->dtype().is_null()) {
      null_ = true;
      return;
    }
    if (!a->dtype().is_numeric() && !a->dtype().is_boolean())
      throw InvalidOperationError(err_msg("`", what, "` expects numbers, got ", a->dtype()));
    ints_ = a->dtype().id() == TypeId::Int64 ? a : cast(*a, DataType::int64(), true);
    one_ = a->length() == 1;
  }
  bool is_null(int64_t i) const { return null_ || ints_->is_null(one_ ? 0 : i); }
  int64_t at(int64_t i) const { return ints_->values<int64_t>()[one_ ? 0 : i]; }
  bool all_null() const { return null_ || (one_ && ints_->is_null(0)); }

 private:
  ArrayRef ints_;
  bool null_ = false, one_ = true;
};

// Civil parts -> naive value in `unit`, or an error naming the invalid parts.
std::optional<int64_t> civil_value(int64_t y, int64_t mo, int64_t d, int64_t h, int64_t mi, int64_t s, int64_t ns,
                                   TimeUnit unit) {
  if (mo < 1 || mo > 12 || d < 1 || d > static_cast<int64_t>(month_days(y, static_cast<unsigned>(mo))))
    throw ComputeError(err_msg("Invalid date components (", y, ", ", mo, ", ", d, ") supplied"));
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 || ns < 0 || ns > 999'999'999)
    throw ComputeError(err_msg("Invalid time components (", h, ", ", mi, ", ", s, ", ", ns, ") supplied"));
  const int64_t ups = units_per_second(unit);
  const int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  int64_t v;
  if (__builtin_mul_overflow(days * 86'400 + h * 3600 + mi * 60 + s, ups, &v))
    throw ComputeError(err_msg("datetime (", y, ", ", mo, ", ", d, ") is out of range for time unit ",
                               time_unit_name(unit)));
  return v + ns / (1'000'000'000 / ups);
}

ArrayRef localize(ArrayRef naive, const Array& ambiguous, const std::optional<std::string>& time_zone) {
  if (!time_zone) return naive;
  return from_local_clock(*naive, *time_zone, ambiguous, tz::NonExistent::Raise);
}

}  // namespace

ArrayRef datetime_from_parts(std::span<const ArrayRef> parts, const Array& ambiguous, TimeUnit unit,
                             const std::optional<std::string>& time_zone) {
  FRAZIL_CHECK_EQ(parts.size(), size_t{7});
  const int64_t n = broadcast_len(parts, "datetime");
  std::vector<IntPart> p;
  for (const auto& a : parts) p.emplace_back(a, "datetime");
  PrimitiveBuilder<int64_t> b(DataType::datetime(unit), n);
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    for (const auto& q : p) null |= q.is_null(i);
    if (null) {
      b.push_null();
      continue;
    }
    b.push(*civil_value(p[0].at(i), p[1].at(i), p[2].at(i), p[3].at(i), p[4].at(i), p[5].at(i), p[6].at(i) * 1000,
                        unit));
  }
  return localize(b.finish(), ambiguous, time_zone);
}

ArrayRef duration_from_parts(std::span<const ArrayRef> parts, TimeUnit unit) {
  FRAZIL_CHECK_EQ(parts.size(), size_t{8});
  const int64_t n = broadcast_len(parts, "duration");
  // Nanoseconds per unit of each part: weeks .. nanoseconds.
  static const double kNs[] = {7 * 86'400e9, 86'400e9, 3600e9, 60e9, 1e9, 1e6, 1e3, 1};
  static const int64_t kNsInt[] = {7 * 86'400'000'000'000LL, 86'400'000'000'000LL, 3'600'000'000'000LL,
                                   60'000'000'000LL, 1'000'000'000LL, 1'000'000LL, 1'000LL, 1LL};
  const int64_t per_unit = 1'000'000'000 / units_per_second(unit);
  bool floats = false;
  for (const auto& a : parts) floats |= a->dtype().is_float() || a->dtype().id() == TypeId::Decimal;
  std::vector<ArrayRef> vals;
  for (const auto& a : parts) {
    if (a->dtype().is_null()) {
      vals.push_back(a);
      continue;
    }
    if (!a->dtype().is_numeric() && !a->dtype().is_boolean())
      throw InvalidOperationError(err_msg("`duration` expects numbers, got ", a->dtype()));
    vals.push_back(cast(*a, floats ? DataType::float64() : DataType::int64(), true));
  }
  PrimitiveBuilder<int64_t> b(DataType::duration(unit), n);
  for (int64_t i = 0; i < n; ++i) {
    bool null = false;
    for (const auto& a : vals) null |= a->dtype().is_null() || a->is_null(a->length() == 1 ? 0 : i);
    if (null) {
      b.push_null();
      continue;
    }
    if (floats) {
      double total = 0;
      for (size_t k = 0; k < 8; ++k) total += vals[k]->values<double>()[vals[k]->length() == 1 ? 0 : i] * kNs[k];
      b.push(static_cast<int64_t>(std::trunc(total / static_cast<double>(per_unit))));
    } else {
      // Each part in the output unit (finer parts truncated toward zero, as Polars).
      int64_t total = 0;
      for (size_t k = 0; k < 8; ++k) {
        const int64_t v = vals[k]->values<int64_t>()[vals[k]->length() == 1 ? 0 : i];
        int64_t term;
        if (kNsInt[k] >= per_unit) {
          if (__builtin_mul_overflow(v, kNsInt[k] / per_unit, &term))
            throw ComputeError("duration is out of range for a 64-bit integer");
        } else {
          term = v / (per_unit / kNsInt[k]);
        }
        if (__builtin_add_overflow(total, term, &total))
          throw ComputeError("duration is out of range for a 64-bit integer");
      }
      b.push(total);
    }
  }
  return b.finish();
}

ArrayRef replace_fields(const Array& values, std::span<const ArrayRef> parts, const Array& ambiguous) {
  FRAZIL_CHECK_EQ(parts.size(), size_t{7});
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  if (t.id() != TypeId::Date && t.id() != TypeId::Datetime) temporal_not_supported("replace", t);
  const int64_t n = values.length();
  for (const auto& p : parts)
    if (p->length() != 1 && p->length() != n)
      throw ShapeError(err_msg("length mismatch in 'dt.replace': ", p->length(), " and ", n));
  std::vector<IntPart> p;
  for (const auto& a : parts) p.emplace_back(a, "replace");
  if (t.id() == TypeId::Date) {
    for (size_t k = 3; k < 7; ++k)
      if (!p[k].all_null())
        throw InvalidOperationError("cannot replace the time of a Date; cast it to Datetime first");
  }
  // The value's own fields, in local time.
  ArrayRef local = t.id() == TypeId::Datetime ? to_local_clock(values) : ArrayRef();
  const TimeUnit unit = t.id() == TypeId::Datetime ? t.time_unit() : TimeUnit::Milliseconds;
  const int64_t ups = units_per_second(unit), upd = ups * 86'400;
  PrimitiveBuilder<int64_t> b(DataType::datetime(unit), n);
  PrimitiveBuilder<int32_t> dates(DataType::date(), n);
  for (int64_t i = 0; i < n; ++i) {
    if (values.is_null(i)) {
      t.id() == TypeId::Date ? dates.push_null() : b.push_null();
      continue;
    }
    const int64_t v = local ? local->values<int64_t>()[i] : int64_t{values.values<int32_t>()[i]} * upd;
    const int64_t days = floor_div(v, upd), tod = v - days * upd;
    const CivilDate c = civil_from_days(days);
    const int64_t secs = tod / ups, frac_ns = (tod % ups) * (1'000'000'000 / ups);
    const int64_t own[7] = {c.year, c.month, c.day, secs / 3600, secs / 60 % 60, secs % 60, frac_ns};
    int64_t f[7];
    for (size_t k = 0; k < 7; ++k) f[k] = p[k].is_null(i) ? own[k] : (k == 6 ? p[k].at(i) * 1000 : p[k].at(i));
    if (t.id() == TypeId::Date) {
      civil_value(f[0], f[1], f[2], 0, 0, 0, 0, TimeUnit::Milliseconds);
      dates.push(static_cast<int32_t>(days_from_civil(f[0], static_cast<unsigned>(f[1]), static_cast<unsigned>(f[2]))));
    } else {
      b.push(*civil_value(f[0], f[1], f[2], f[3], f[4], f[5], f[6], unit));
    }
  }
  if (t.id() == TypeId::Date) return dates.finish();
  return localize(b.finish(), ambiguous, t.time_zone());
}

ArrayRef combine(const Array& values, const Array& time, TimeUnit unit) {
  const DataType& t = values.dtype();
  if (t.id() != TypeId::Date && t.id() != TypeId::Datetime && !t.is_null())
    throw ComputeError(err_msg("expected Date or Datetime, got ", t.short_name()));
  if (!time.dtype().is_null() && time.dtype().id() != TypeId::Time)
    throw InvalidOperationError(err_msg("`combine` expects a Time, got ", time.dtype()));
  const DataType out = DataType::datetime(unit);
  const int64_t n = std::max(values.length(), time.length());
  if (t.is_null() || time.dtype().is_null()) return make_null_array(out, n);
  ArrayRef dates = t.id() == TypeId::Date ? share(values) : cast(values, DataType::date());
  const int64_t ups = units_per_second(unit), upd = ups * 86'400, ns_per = 1'000'000'000 / ups;
  PrimitiveBuilder<int64_t> b(out, n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t di = dates->length() == 1 ? 0 : i, ti = time.length() == 1 ? 0 : i;
    if (dates->is_null(di) || time.is_null(ti)) {
      b.push_null();
      continue;
    }
    b.push(int64_t{dates->values<int32_t>()[di]} * upd + time.values<int64_t>()[ti] / ns_per);
  }
  if (t.id() == TypeId::Datetime && t.time_zone()) {
    ArrayRef raise = scalar_to_array(Scalar(DataType::string(), std::string("raise")), 1);
    return from_local_clock(*b.finish(), *t.time_zone(), *raise, tz::NonExistent::Raise);
  }
  return b.finish();
}

}  // namespace frazil::compute
