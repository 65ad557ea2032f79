#include "frazil/compute/temporal/calendar_ops.hpp"

#include <string>
#include <unordered_map>

#include "frazil/compute/temporal/calendar_duration.hpp"
#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/compute/temporal/zone.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// Parsed durations of a String array: one for all rows, or parsed per row (memoized).
class Durations {
 public:
  Durations(const Array& texts, int64_t n, const char* what) : texts_(texts) {
    if (!texts.dtype().is_string() && !texts.dtype().is_null())
      throw InvalidOperationError(err_msg("`", what, "` expects a String duration, got ", texts.dtype()));
    if (texts.length() != 1 && texts.length() != n)
      throw ShapeError(err_msg("length mismatch in '", what, "': got ", n, " values and ", texts.length(),
                               " durations"));
    broadcast_ = texts.length() == 1;
    if (broadcast_ && texts.is_valid(0)) one_ = CalendarDuration::parse(texts.str_value(0));
  }
  // nullptr for a null duration.
  const CalendarDuration* at(int64_t i) {
    const int64_t k = broadcast_ ? 0 : i;
    if (texts_.dtype().is_null() || texts_.is_null(k)) return nullptr;
    if (broadcast_) return &one_;
    std::string key(texts_.str_value(k));
    auto it = memo_.find(key);
    if (it == memo_.end()) it = memo_.emplace(key, CalendarDuration::parse(key)).first;
    return &it->second;
  }
  bool all_null() const { return broadcast_ && (texts_.dtype().is_null() || texts_.is_null(0)); }

 private:
  const Array& texts_;
  bool broadcast_ = true;
  CalendarDuration one_;
  std::unordered_map<std::string, CalendarDuration> memo_;
};

bool is_zoned(const DataType& t) { return has_local_offset(t); }

// Runs op(duration, value, unit, cursor) over a Date (as Datetime ms, or us for offset_by
// as Polars) or Datetime array; Date results are floored back to days.
template <typename Op>
ArrayRef apply(const Array& values, const Array& durations, const char* what, TimeUnit date_unit, Op op) {
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  if (t.id() != TypeId::Date && t.id() != TypeId::Datetime) temporal_not_supported(what, t);
  Durations d(durations, values.length(), what);
  if (d.all_null()) return make_null_array(t, values.length());
  if (t.id() == TypeId::Date) {
    const int64_t upd = units_per_day(date_unit);
    return map_optional<int32_t, int32_t>(values, t, [&](int64_t i, int32_t day) -> std::optional<int32_t> {
      const CalendarDuration* du = d.at(i);
      if (!du) return std::nullopt;
      return static_cast<int32_t>(floor_div(op(*du, day * upd, date_unit, nullptr, "Date"), upd));
    });
  }
  std::optional<tz::ZoneCursor> cursor;
  if (is_zoned(t)) cursor.emplace(tz::TimeZone::get(*t.time_zone()));
  tz::ZoneCursor* zone = cursor ? &*cursor : nullptr;
  return map_optional<int64_t, int64_t>(values, t, [&](int64_t i, int64_t v) -> std::optional<int64_t> {
    const CalendarDuration* du = d.at(i);
    if (!du) return std::nullopt;
    return op(*du, v, t.time_unit(), zone, "Datetime");
  });
}

void require_positive(const CalendarDuration& d, const char* verb, const char* type) {
  if (d.negative) throw ComputeError(err_msg("cannot ", verb, " a ", type, " to a negative duration"));
}

}  // namespace

ArrayRef offset_by(const Array& values, const Array& by) {
  return apply(values, by, "offset_by", TimeUnit::Microseconds,
               [](const CalendarDuration& d, int64_t v, TimeUnit u, tz::ZoneCursor* z, const char*) {
                 return add_duration(d, v, u, z);
               });
}

ArrayRef truncate(const Array& values, const Array& every) {
  return apply(values, every, "truncate", TimeUnit::Milliseconds,
               [](const CalendarDuration& d, int64_t v, TimeUnit u, tz::ZoneCursor* z, const char* type) {
                 require_positive(d, "truncate", type);
                 return truncate_to(d, v, u, z);
               });
}

ArrayRef round(const Array& values, const Array& every) {
  return apply(values, every, "round", TimeUnit::Milliseconds,
               [](const CalendarDuration& d, int64_t v, TimeUnit u, tz::ZoneCursor* z, const char* type) {
                 require_positive(d, "round", type);
                 // Half the (estimated) length forward, then truncate, as Polars.
                 return truncate_to(d, v + d.estimate(u) / 2, u, z);
               });
}

namespace {

// Keeps the time of day, moves the date to the first (or last) day of its month.
template <bool End>
ArrayRef month_edge(const Array& values, const char* what) {
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  auto edge = [](int64_t days) {
    const CivilDate c = civil_from_days(days);
    return days_from_civil(c.year, c.month, End ? month_days(c.year, c.month) : 1);
  };
  if (t.id() == TypeId::Date)
    return unary_kernel<int32_t, int32_t>(values, t, [&](int32_t d) { return static_cast<int32_t>(edge(d)); });
  if (t.id() != TypeId::Datetime) temporal_not_supported(what, t);
  const int64_t ups = units_per_second(t.time_unit()), upd = ups * 86'400;
  auto naive = [&](int64_t v) {
    const int64_t days = floor_div(v, upd);
    return edge(days) * upd + (v - days * upd);
  };
  if (!is_zoned(t)) return unary_kernel<int64_t, int64_t>(values, t, naive);
  tz::ZoneCursor cursor(tz::TimeZone::get(*t.time_zone()));
  return map_optional<int64_t, int64_t>(values, t, [&](int64_t, int64_t v) {
    return cursor.utc_value(naive(cursor.local_value(v, ups)), ups, tz::Ambiguous::Raise, tz::NonExistent::Raise);
  });
}

}  // namespace

ArrayRef month_start(const Array& values) { return month_edge<false>(values, "month_start"); }
ArrayRef month_end(const Array& values) { return month_edge<true>(values, "month_end"); }

}  // namespace frazil::compute
