#include "frazil/compute/temporal/fields.hpp"

#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/compute/temporal/zone.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

constexpr bool is_calendar_part(DatePart p) {
  return p == DatePart::Year || p == DatePart::Month || p == DatePart::Day || p == DatePart::Weekday ||
         p == DatePart::Ordinal || p == DatePart::Quarter || p == DatePart::Week || p == DatePart::IsoYear ||
         p == DatePart::Century || p == DatePart::Millennium;
}

// ISO weekday (1 = Monday) of a day number: 1970-01-01 was a Thursday.
inline int64_t iso_weekday(int64_t days) { return ((days % 7) + 7 + 3) % 7 + 1; }

// A calendar part of a day number.
template <DatePart P>
inline int64_t calendar_part(int64_t days) {
  if constexpr (P == DatePart::Weekday) {
    return iso_weekday(days);
  } else if constexpr (P == DatePart::Week || P == DatePart::IsoYear) {
    // The ISO week is the one of its Thursday; the ISO year is that Thursday's year.
    const int64_t thursday = days - (iso_weekday(days) - 4);
    const int64_t y = civil_from_days(thursday).year;
    if constexpr (P == DatePart::IsoYear) return y;
    else return (thursday - days_from_civil(y, 1, 1)) / 7 + 1;
  } else {
    const CivilDate c = civil_from_days(days);
    if constexpr (P == DatePart::Year) return c.year;
    else if constexpr (P == DatePart::Month) return c.month;
    else if constexpr (P == DatePart::Day) return c.day;
    else if constexpr (P == DatePart::Quarter) return (c.month - 1) / 3 + 1;
    // (year - 1) / 100 + 1, truncating as Polars' integer division does (2000 -> 20, 2001 -> 21).
    else if constexpr (P == DatePart::Century) return (c.year - 1) / 100 + 1;
    else if constexpr (P == DatePart::Millennium) return (c.year - 1) / 1000 + 1;
    else return days - days_from_civil(c.year, 1, 1) + 1;  // Ordinal
  }
}

// A time-of-day part of units since midnight (`ups` units per second).
template <DatePart P>
inline int64_t clock_part(int64_t t, int64_t ups) {
  const int64_t secs = t / ups, frac = t % ups;
  if constexpr (P == DatePart::Hour) return secs / 3600;
  else if constexpr (P == DatePart::Minute) return secs / 60 % 60;
  else if constexpr (P == DatePart::Second) return secs % 60;
  else if constexpr (P == DatePart::Millisecond) return frac * 1000 / ups;
  else if constexpr (P == DatePart::Microsecond) return frac * 1'000'000 / ups;
  else return frac * (1'000'000'000 / ups);  // Nanosecond
}

template <typename R, typename T, typename F>
ArrayRef extract(const Array& a, const DataType& out, F f) {
  return unary_kernel<T, R>(a, out, [f](T v) { return static_cast<R>(f(static_cast<int64_t>(v))); });
}

// Polars (chrono) represents dates from -262144-01-01 to 262143-12-31: a Datetime beyond
// them has no year, day or hour, and its parts are null (not a wrapped-around value).
ArrayRef null_outside_calendar(const Array& local, int64_t units_per_day, ArrayRef parts) {
  static const int64_t first_day = days_from_civil(-262144, 1, 1), last_day = days_from_civil(262143, 12, 31);
  const int64_t n = local.length();
  const int64_t* v = local.values<int64_t>();
  auto inside = [&](int64_t i) {
    const int64_t d = floor_div(v[i], units_per_day);
    return d >= first_day && d <= last_day;
  };
  bool all_inside = true;
  for (int64_t i = 0; i < n && all_inside; ++i) all_inside = inside(i);
  if (all_inside) return parts;
  Buffer valid = alloc_bits(n);
  pack_bits(n, valid.mutable_data(), [&](int64_t i) { return inside(i) && parts->is_valid(i); });
  return parts->with_validity(std::move(valid));
}

template <DatePart P, typename R>
ArrayRef part_of(const Array& a, const DataType& out) {
  const DataType& t = a.dtype();
  if (t.id() == TypeId::Date) return extract<R, int32_t>(a, out, [](int64_t d) { return calendar_part<P>(d); });
  if (t.id() == TypeId::Time) {
    if constexpr (is_calendar_part(P)) return nullptr;
    else return extract<R, int64_t>(a, out, [](int64_t ns) { return clock_part<P>(ns, 1'000'000'000); });
  }
  // Datetime: split the local clock value into whole days (floored) and the time of day.
  ArrayRef local = to_local_clock(a);
  const int64_t ups = units_per_second(t.time_unit());
  const int64_t upd = ups * 86'400;
  ArrayRef parts;
  if constexpr (is_calendar_part(P))
    parts = extract<R, int64_t>(*local, out, [upd](int64_t v) { return calendar_part<P>(floor_div(v, upd)); });
  else
    parts = extract<R, int64_t>(*local, out, [upd, ups](int64_t v) {
      const int64_t tod = v - floor_div(v, upd) * upd;
      return clock_part<P>(tod, ups);
    });
  return null_outside_calendar(*local, upd, std::move(parts));
}

// Day numbers of a Date or (local) Datetime array, as Int32 days of the same validity.
ArrayRef day_numbers(const Array& a, const char* what) {
  const DataType& t = a.dtype();
  if (t.id() == TypeId::Date) return a.with_dtype(DataType::int32());
  if (t.id() != TypeId::Datetime) temporal_not_supported(what, t);
  ArrayRef local = to_local_clock(a);
  const int64_t upd = units_per_day(t.time_unit());
  return unary_kernel<int64_t, int32_t>(*local, DataType::int32(),
                                        [upd](int64_t v) { return static_cast<int32_t>(floor_div(v, upd)); });
}

}  // namespace

const char* date_part_name(DatePart p) {
  switch (p) {
    case DatePart::Year: return "year";
    case DatePart::Month: return "month";
    case DatePart::Day: return "day";
    case DatePart::Hour: return "hour";
    case DatePart::Minute: return "minute";
    case DatePart::Second: return "second";
    case DatePart::Millisecond: return "millisecond";
    case DatePart::Microsecond: return "microsecond";
    case DatePart::Nanosecond: return "nanosecond";
    case DatePart::Weekday: return "weekday";
    case DatePart::Ordinal: return "ordinal_day";
    case DatePart::Quarter: return "quarter";
    case DatePart::Week: return "week";
    case DatePart::IsoYear: return "iso_year";
    case DatePart::Century: return "century";
    case DatePart::Millennium: return "millennium";
  }
  return "?";
}

DataType date_part_dtype(DatePart part) {
  switch (part) {
    case DatePart::Year:
    case DatePart::IsoYear:
    case DatePart::Century:
    case DatePart::Millennium:
    case DatePart::Millisecond:
    case DatePart::Microsecond:
    case DatePart::Nanosecond: return DataType::int32();
    case DatePart::Ordinal: return DataType::int16();
    default: return DataType::int8();
  }
}

ArrayRef date_part(const Array& values, DatePart part) {
  const DataType& t = values.dtype();
  const DataType out = date_part_dtype(part);
  const bool ok = t.id() == TypeId::Datetime || (t.id() == TypeId::Date && is_calendar_part(part)) ||
                  (t.id() == TypeId::Time && !is_calendar_part(part));
  if (t.is_null()) return make_null_array(out, values.length());
  if (!ok) temporal_not_supported(date_part_name(part), t);
  switch (part) {
    case DatePart::Year: return part_of<DatePart::Year, int32_t>(values, out);
    case DatePart::Month: return part_of<DatePart::Month, int8_t>(values, out);
    case DatePart::Day: return part_of<DatePart::Day, int8_t>(values, out);
    case DatePart::Hour: return part_of<DatePart::Hour, int8_t>(values, out);
    case DatePart::Minute: return part_of<DatePart::Minute, int8_t>(values, out);
    case DatePart::Second: return part_of<DatePart::Second, int8_t>(values, out);
    case DatePart::Millisecond: return part_of<DatePart::Millisecond, int32_t>(values, out);
    case DatePart::Microsecond: return part_of<DatePart::Microsecond, int32_t>(values, out);
    case DatePart::Nanosecond: return part_of<DatePart::Nanosecond, int32_t>(values, out);
    case DatePart::Weekday: return part_of<DatePart::Weekday, int8_t>(values, out);
    case DatePart::Ordinal: return part_of<DatePart::Ordinal, int16_t>(values, out);
    case DatePart::Quarter: return part_of<DatePart::Quarter, int8_t>(values, out);
    case DatePart::Week: return part_of<DatePart::Week, int8_t>(values, out);
    case DatePart::IsoYear: return part_of<DatePart::IsoYear, int32_t>(values, out);
    case DatePart::Century: return part_of<DatePart::Century, int32_t>(values, out);
    case DatePart::Millennium: return part_of<DatePart::Millennium, int32_t>(values, out);
  }
  throw InternalError("unknown date part");
}

ArrayRef is_leap_year(const Array& values) {
  if (values.dtype().is_null()) return make_null_array(DataType::boolean(), values.length());
  ArrayRef days = day_numbers(values, "is_leap_year");
  const int64_t n = days->length();
  const int32_t* d = days->values<int32_t>();
  Buffer bits = alloc_bits(n);
  pack_bits(n, bits.mutable_data(), [d](int64_t i) { return is_leap(civil_from_days(d[i]).year); });
  return Array::make(DataType::boolean(), n, aligned_validity(*days), {std::move(bits)});
}

ArrayRef days_in_month(const Array& values) {
  if (values.dtype().is_null()) return make_null_array(DataType::int8(), values.length());
  ArrayRef days = day_numbers(values, "days_in_month");
  return unary_kernel<int32_t, int8_t>(*days, DataType::int8(), [](int32_t d) {
    const CivilDate c = civil_from_days(d);
    return static_cast<int8_t>(month_days(c.year, c.month));
  });
}

}  // namespace frazil::compute
