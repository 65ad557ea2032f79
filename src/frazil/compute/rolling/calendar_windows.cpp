#include "frazil/compute/rolling/calendar_windows.hpp"

#include "frazil/compute/temporal/calendar_duration.hpp"
#include "frazil/core/tz.hpp"

namespace frazil::compute {

std::optional<WindowBounds> calendar_bounds(const int64_t* t, int64_t n, const DataType& index,
                                            const std::string& period, const std::string& offset) {
  if (index.id() != TypeId::Date && index.id() != TypeId::Datetime) return std::nullopt;
  const bool zoned = index.id() == TypeId::Datetime && index.time_zone().has_value();
  const CalendarDuration p = CalendarDuration::parse(period);
  CalendarDuration o = p;
  if (offset.empty()) o.negative = !o.negative;
  else o = CalendarDuration::parse(offset);
  // An offset of -period looks back from each value: the window ends at the value itself
  // (Polars' lookbehind windows), where lo + period could fall short of it after clamping
  // (2024-03-31 - 1mo + 1mo is 2024-03-29).
  const bool lookbehind = o.negative != p.negative && o.months == p.months && o.weeks == p.weeks &&
                          o.days == p.days && o.nanos == p.nanos;
  if (p.is_constant(zoned) && o.is_constant(zoned)) return std::nullopt;
  // index_ticks counts a Date in microseconds.
  const TimeUnit unit = index.id() == TypeId::Date ? TimeUnit::Microseconds : index.time_unit();
  std::optional<tz::ZoneCursor> cursor;
  if (zoned) cursor.emplace(tz::TimeZone::get(*index.time_zone()));
  tz::ZoneCursor* zone = cursor ? &*cursor : nullptr;
  WindowBounds b;
  b.lo.resize(static_cast<size_t>(n));
  b.hi.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    b.lo[i] = add_duration(o, t[i], unit, zone);
    b.hi[i] = lookbehind ? t[i] : add_duration(p, b.lo[i], unit, zone);
  }
  return b;
}

}  // namespace frazil::compute
