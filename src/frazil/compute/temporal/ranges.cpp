#include "frazil/compute/temporal/ranges.hpp"

#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/compute/temporal/zone.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

enum class Closed { Both, Left, Right, None };

Closed parse_closed(const std::string& s) {
  if (s == "both") return Closed::Both;
  if (s == "left") return Closed::Left;
  if (s == "right") return Closed::Right;
  if (s == "none") return Closed::None;
  throw InvalidOperationError(err_msg("`closed` must be one of {'both', 'left', 'right', 'none'}, got '", s, "'"));
}

CalendarDuration times(CalendarDuration d, int64_t k) {
  d.months *= k;
  d.weeks *= k;
  d.days *= k;
  d.nanos *= k;
  return d;
}

// The values from start to end (in `unit`; UTC instants when `zone` is given).
void range_values(int64_t start, int64_t end, const CalendarDuration& interval, Closed closed, TimeUnit unit,
                  tz::ZoneCursor* zone, std::vector<int64_t>& out) {
  out.clear();
  if (start > end) return;
  if (interval.negative || interval.is_zero()) throw ComputeError("`interval` must be positive");
  const bool include_start = closed == Closed::Both || closed == Closed::Left;
  const bool include_end = closed == Closed::Both || closed == Closed::Right;
  if (interval.is_constant(zone != nullptr && !zone->zone().is_utc())) {
    const int64_t step = interval.estimate(unit);
    if (step == 0)
      throw InvalidOperationError(err_msg("interval ", interval.to_string(), " is too small for time unit ",
                                          time_unit_name(unit), " and was rounded down to zero"));
    for (int64_t t = include_start ? start : start + step; include_end ? t <= end : t < end; t += step) {
      out.push_back(t);
      if (t > end - step) break;  // (no overflow past the end)
    }
    return;
  }
  for (int64_t i = include_start ? 0 : 1;; ++i) {
    const int64_t t = add_duration(times(interval, i), start, unit, zone);
    if (include_end ? t > end : t >= end) break;
    out.push_back(t);
  }
}

// Converts start and end to the working Datetime dtype (Date output works in naive us,
// Time in naive ns since midnight); naive values become local time of the output zone.
ArrayRef to_working(const Array& a, const DataType& work, const char* what) {
  if (a.dtype().is_null()) return make_null_array(work, a.length());
  const DataType& t = a.dtype();
  if (work.id() == TypeId::Time) {
    if (t.id() != TypeId::Time) throw InvalidOperationError(err_msg("expected Time for `", what, "`, got ", t));
    return share(a);
  }
  if (t.id() != TypeId::Date && t.id() != TypeId::Datetime)
    throw InvalidOperationError(err_msg("expected a temporal datatype, got ", t));
  const TimeUnit u = work.time_unit();
  if (t.id() == TypeId::Datetime && t.time_zone()) return cast(a, work);  // the same instants
  ArrayRef naive = cast(a, DataType::datetime(u));
  if (!work.time_zone()) return naive;
  return from_local_clock(*naive, *work.time_zone(), tz::Ambiguous::Raise, tz::NonExistent::Raise);
}

DataType working_dtype(const DataType& out) {
  if (out.id() == TypeId::Date) return DataType::datetime(TimeUnit::Microseconds);
  return out;
}

TimeUnit unit_of(const DataType& work) {
  return work.id() == TypeId::Time ? TimeUnit::Nanoseconds : work.time_unit();
}

// Working values -> output values (Date: days).
ArrayRef finish(std::vector<int64_t>& all, const DataType& out) {
  if (out.id() == TypeId::Date) {
    PrimitiveBuilder<int32_t> b(out, static_cast<int64_t>(all.size()));
    const int64_t upd = units_per_day(TimeUnit::Microseconds);
    for (int64_t v : all) b.push(static_cast<int32_t>(floor_div(v, upd)));
    return b.finish();
  }
  PrimitiveBuilder<int64_t> b(out, static_cast<int64_t>(all.size()));
  for (int64_t v : all) b.push(v);
  return b.finish();
}

void check_date_interval(const CalendarDuration& interval, const DataType& out) {
  if (out.id() == TypeId::Date && interval.nanos != 0)
    throw ComputeError(err_msg("`interval` input for `date_range` must consist of full days, got: ",
                               interval.to_string()));
}

}  // namespace

ArrayRef temporal_range(const Array& start, const Array& end, const CalendarDuration& interval,
                        const std::string& closed, const DataType& out) {
  check_date_interval(interval, out);
  const Closed c = parse_closed(closed);
  for (const auto& [a, name] : {std::pair<const Array*, const char*>{&start, "start"}, {&end, "end"}})
    if (a->length() != 1)
      throw ShapeError(err_msg("non-scalar ", name, " passed to `",
                               out.id() == TypeId::Date ? "date_range" : out.id() == TypeId::Time ? "time_range"
                                                                                                 : "datetime_range",
                               "`"));
  const DataType work = working_dtype(out);
  ArrayRef s = to_working(start, work, "start"), e = to_working(end, work, "end");
  std::vector<int64_t> values;
  if (s->is_valid(0) && e->is_valid(0)) {
    std::optional<tz::ZoneCursor> cursor;
    if (work.id() == TypeId::Datetime && work.time_zone()) cursor.emplace(tz::TimeZone::get(*work.time_zone()));
    range_values(s->values<int64_t>()[0], e->values<int64_t>()[0], interval, c, unit_of(work),
                 cursor ? &*cursor : nullptr, values);
  }
  return finish(values, out);
}

ArrayRef temporal_ranges(const Array& start, const Array& end, const CalendarDuration& interval,
                         const std::string& closed, const DataType& out) {
  check_date_interval(interval, out);
  const Closed c = parse_closed(closed);
  const int64_t n = start.length() == 1 ? end.length() : start.length();
  if ((start.length() != 1 && start.length() != n) || (end.length() != 1 && end.length() != n))
    throw ShapeError(err_msg("arguments for ranges have different lengths (", start.length(), " != ", end.length(),
                             ")"));
  const DataType work = working_dtype(out);
  ArrayRef s = to_working(start, work, "start"), e = to_working(end, work, "end");
  std::optional<tz::ZoneCursor> cursor;
  if (work.id() == TypeId::Datetime && work.time_zone()) cursor.emplace(tz::TimeZone::get(*work.time_zone()));
  std::vector<int64_t> all, one;
  Buffer offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int64_t));
  int64_t* off = offsets.mutable_as<int64_t>();
  off[0] = 0;
  ValidityBuilder validity;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t si = s->length() == 1 ? 0 : i, ei = e->length() == 1 ? 0 : i;
    const bool valid = s->is_valid(si) && e->is_valid(ei);
    validity.push(valid);
    if (valid) {
      range_values(s->values<int64_t>()[si], e->values<int64_t>()[ei], interval, c, unit_of(work),
                   cursor ? &*cursor : nullptr, one);
      all.insert(all.end(), one.begin(), one.end());
    }
    off[i + 1] = static_cast<int64_t>(all.size());
  }
  const int64_t nulls = validity.null_count();
  return Array::make(DataType::list(out), n, validity.finish(), {offsets}, {finish(all, out)}, 0, nulls);
}

}  // namespace frazil::compute
