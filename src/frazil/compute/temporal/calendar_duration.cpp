#include "frazil/compute/temporal/calendar_duration.hpp"

#include "frazil/compute/temporal/temporal_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;
constexpr int64_t kNsPerDay = 86'400 * kNsPerSecond;

int64_t ns_to_unit(int64_t ns, TimeUnit unit) { return ns / (kNsPerSecond / units_per_second(unit)); }

// A local value split into its civil date and the time of day (units since midnight).
struct Civil {
  int64_t year;
  unsigned month, day;
  int64_t time_of_day;
};

Civil split(int64_t v, int64_t upd) {
  const int64_t days = floor_div(v, upd);
  const CivilDate c = civil_from_days(days);
  return {c.year, c.month, c.day, v - days * upd};
}

int64_t join(int64_t year, unsigned month, unsigned day, int64_t time_of_day, int64_t upd) {
  return days_from_civil(year, month, day) * upd + time_of_day;
}

int64_t add_months_naive(int64_t v, int64_t months, int64_t upd) {
  Civil c = split(v, upd);
  int64_t total = c.year * 12 + (c.month - 1) + months;
  const int64_t year = floor_div(total, 12);
  const unsigned month = static_cast<unsigned>(total - year * 12 + 1);
  const unsigned day = std::min(c.day, month_days(year, month));
  return join(year, month, day, c.time_of_day, upd);
}

// The DST part of the offset at an instant (seconds).
int64_t dst_at(const tz::TimeZone& zone, int64_t s) {
  return zone.offset_at(s).total - zone.base_offset_at(s);
}

// The instant of a computed local value, keeping the DST state of the original instant
// where the local time is ambiguous or does not exist (Polars' localize_result_rfc_5545).
int64_t localize_rfc5545(int64_t original_utc, int64_t result_local, int64_t ups, tz::ZoneCursor& cursor) {
  const tz::TimeZone& zone = cursor.zone();
  const int64_t s = floor_div(result_local, ups), frac = result_local - s * ups;
  const tz::LocalLookup l = zone.lookup_local(s);
  if (l.kind == tz::LocalLookup::Unique) return l.earliest * ups + frac;
  const int64_t original_dst = dst_at(zone, floor_div(original_utc, ups));
  if (l.kind == tz::LocalLookup::Ambiguous) {
    if (dst_at(zone, l.earliest) == original_dst) return l.earliest * ups + frac;
    if (dst_at(zone, l.latest) == original_dst) return l.latest * ups + frac;
    throw ComputeError(err_msg("Could not localize datetime '", format_datetime(s * 1000, TimeUnit::Milliseconds),
                               "' to time zone '", zone.name(), "'"));
  }
  int64_t shifted;
  if (original_dst != 0) {
    shifted = s + original_dst;
  } else {
    const tz::LocalLookup next_hour = zone.lookup_local(s + 3600);
    if (next_hour.kind == tz::LocalLookup::NonExistent)
      throw ComputeError(err_msg("Could not localize datetime '", format_datetime(s * 1000, TimeUnit::Milliseconds),
                                 "' to time zone '", zone.name(), "'"));
    shifted = s - dst_at(zone, next_hour.earliest);
  }
  auto u = cursor.to_utc(shifted, tz::Ambiguous::Raise, tz::NonExistent::Raise, frac, ups);
  return *u * ups + frac;
}

// Applies a change to the local time of t, in the zone or naive.
template <typename F>
int64_t in_local_time(int64_t t, int64_t ups, tz::ZoneCursor* zone, F change) {
  if (!zone || zone->zone().is_utc()) return change(t);
  const int64_t local = zone->local_value(t, ups);
  return localize_rfc5545(t, change(local), ups, *zone);
}

}  // namespace

CalendarDuration CalendarDuration::parse(std::string_view s) {
  CalendarDuration d;
  size_t pos = 0;
  const bool minus = !s.empty() && s[0] == '-', plus = !s.empty() && s[0] == '+';
  if (minus || plus) ++pos;
  auto sign_error = [&](char c) -> void {
    if ((c == '-' && minus) || (c == '+' && plus))
      throw InvalidOperationError(err_msg("duration string can only have a single '", c, "' sign"));
    throw InvalidOperationError(err_msg("only a single ", c == '-' ? "minus" : "plus",
                                        " sign is allowed, at the front of the string"));
  };
  int64_t months = 0, weeks = 0, days = 0, nanos = 0;
  while (pos < s.size()) {
    const char ch = s[pos];
    if (ch < '0' || ch > '9') {
      if (ch == '-' || ch == '+') sign_error(ch);
      throw InvalidOperationError(err_msg("expected leading integer in the duration string, found '", ch, "'"));
    }
    int64_t n = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, s[pos] - '0', &n))
        throw InvalidOperationError(err_msg("duration string '", s, "' is out of range"));
      ++pos;
    }
    const size_t unit_start = pos;
    while (pos < s.size() && ((s[pos] >= 'a' && s[pos] <= 'z') || (s[pos] >= 'A' && s[pos] <= 'Z'))) ++pos;
    if (unit_start == pos)
      throw InvalidOperationError(
          err_msg("expected a valid unit to follow integer in the duration string '", s, "'"));
    if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) sign_error(s[pos]);
    const std::string_view unit = s.substr(unit_start, pos - unit_start);
    auto add = [&](int64_t& field, int64_t scale) {
      int64_t v;
      if (__builtin_mul_overflow(n, scale, &v) || __builtin_add_overflow(field, v, &field))
        throw InvalidOperationError(err_msg("duration string '", s, "' is out of range"));
    };
    if (unit == "ns") add(nanos, 1);
    else if (unit == "us") add(nanos, 1'000);
    else if (unit == "ms") add(nanos, 1'000'000);
    else if (unit == "s") add(nanos, kNsPerSecond);
    else if (unit == "m") add(nanos, 60 * kNsPerSecond);
    else if (unit == "h") add(nanos, 3600 * kNsPerSecond);
    else if (unit == "d") add(days, 1);
    else if (unit == "w") add(weeks, 1);
    else if (unit == "mo") add(months, 1);
    else if (unit == "q") add(months, 3);
    else if (unit == "y") add(months, 12);
    else if (unit == "i") add(nanos, 1), d.parsed_int = true;
    else
      throw InvalidOperationError(err_msg("unit: '", unit,
                                          "' not supported; available units are: 'y', 'mo', 'q', 'w', 'd', 'h', 'm', "
                                          "'s', 'ms', 'us', 'ns'"));
  }
  d.months = months;
  d.weeks = weeks;
  d.days = days;
  d.nanos = nanos;
  d.negative = minus;
  return d;
}

int64_t CalendarDuration::estimate(TimeUnit unit) const {
  const int64_t ns = (months * 28 + weeks * 7 + days) * kNsPerDay + nanos;
  return ns_to_unit(ns, unit);
}

std::string CalendarDuration::to_string() const {
  if (is_zero()) return "0s";
  std::string out = negative ? "-" : "";
  if (months) out += std::to_string(months) + "mo";
  if (weeks) out += std::to_string(weeks) + "w";
  if (days) out += std::to_string(days) + "d";
  if (nanos) {
    if (nanos % kNsPerSecond == 0) out += std::to_string(nanos / kNsPerSecond) + "s";
    else if (nanos % 1000 == 0) out += std::to_string(nanos / 1000) + "us";
    else out += std::to_string(nanos) + "ns";
  }
  return out;
}

int64_t add_duration(const CalendarDuration& d, int64_t t, TimeUnit unit, tz::ZoneCursor* zone) {
  const int64_t ups = units_per_second(unit), upd = ups * 86'400;
  const int64_t sign = d.negative ? -1 : 1;
  if (d.months) t = in_local_time(t, ups, zone, [&](int64_t v) { return add_months_naive(v, sign * d.months, upd); });
  if (d.weeks) t = in_local_time(t, ups, zone, [&](int64_t v) { return v + sign * d.weeks * 7 * upd; });
  if (d.days) t = in_local_time(t, ups, zone, [&](int64_t v) { return v + sign * d.days * upd; });
  return t + sign * ns_to_unit(d.nanos, unit);
}

int64_t truncate_to(const CalendarDuration& every, int64_t t, TimeUnit unit, tz::ZoneCursor* zone) {
  const int64_t ups = units_per_second(unit), upd = ups * 86'400;
  const int kinds = (every.months != 0) + (every.weeks != 0) + (every.days != 0) + (every.nanos != 0);
  if (kinds == 0) throw ComputeError("duration cannot be zero");
  if (kinds > 1) throw ComputeError("cannot mix month, week, day, and sub-daily units for this operation");
  auto floor_to = [](int64_t v, int64_t step) { return v - (v - floor_div(v, step) * step); };
  if (every.nanos) {
    const int64_t step = ns_to_unit(every.nanos, unit);
    if (step == 0) return t;
    return in_local_time(t, ups, zone, [&](int64_t v) { return floor_to(v, step); });
  }
  if (every.days) return in_local_time(t, ups, zone, [&](int64_t v) { return floor_to(v, every.days * upd); });
  if (every.weeks) {
    // From a Monday: 1970-01-01 was a Thursday, four days after one.
    const int64_t step = every.weeks * 7 * upd;
    return in_local_time(t, ups, zone, [&](int64_t v) { return floor_to(v - 4 * upd, step) + 4 * upd; });
  }
  return in_local_time(t, ups, zone, [&](int64_t v) {
    const Civil c = split(v, upd);
    const int64_t total = (c.year - 1970) * 12 + (c.month - 1);
    const int64_t start = total - (total - floor_div(total, every.months) * every.months);
    const int64_t year = 1970 + floor_div(start, 12);
    const unsigned month = static_cast<unsigned>(start - floor_div(start, 12) * 12 + 1);
    return join(year, month, 1, 0, upd);
  });
}

}  // namespace frazil::compute
