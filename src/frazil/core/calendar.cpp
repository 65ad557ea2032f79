#include "frazil/core/calendar.hpp"

#include <cstdio>

namespace frazil {

int64_t units_per_second(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Nanoseconds: return 1'000'000'000;
    case TimeUnit::Microseconds: return 1'000'000;
    case TimeUnit::Milliseconds: return 1'000;
  }
  return 1;
}

std::string format_date(int32_t days) {
  CivilDate c = civil_from_days(days);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(c.year), c.month, c.day);
  return buf;
}

static std::string format_fraction(int64_t frac, TimeUnit unit) {
  if (frac == 0) return "";
  int digits = unit == TimeUnit::Nanoseconds ? 9 : unit == TimeUnit::Microseconds ? 6 : 3;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*lld", digits, static_cast<long long>(frac));
  std::string s(buf);
  // Like chrono: the shortest of 3, 6 or 9 digits that holds the value.
  while (s.size() > 3 && s.compare(s.size() - 3, 3, "000") == 0) s.resize(s.size() - 3);
  return "." + s;
}

std::string format_datetime(int64_t value, TimeUnit unit) {
  const int64_t ups = units_per_second(unit);
  int64_t secs = floor_div(value, ups);
  int64_t frac = value - secs * ups;
  int64_t days = floor_div(secs, 86400);
  int64_t sod = secs - days * 86400;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s %02lld:%02lld:%02lld", format_date(static_cast<int32_t>(days)).c_str(),
                static_cast<long long>(sod / 3600), static_cast<long long>(sod / 60 % 60),
                static_cast<long long>(sod % 60));
  return buf + format_fraction(frac, unit);
}

std::string format_time(int64_t nanos) {
  int64_t secs = nanos / 1'000'000'000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(secs / 3600),
                static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  return buf + format_fraction(nanos % 1'000'000'000, TimeUnit::Nanoseconds);
}

std::string format_duration(int64_t v, TimeUnit unit) {
  // Polars' display: each part with its own sign ("-1m -30s"), a space before the next
  // non-zero part, fractions of a second in the largest exact sub-unit.
  const char* const names[3] = {"ns", "µs", "ms"};
  if (v == 0) return std::string("0") + (unit == TimeUnit::Nanoseconds ? "ns" : unit == TimeUnit::Microseconds ? "µs" : "ms");
  const int64_t ups = units_per_second(unit);
  const int64_t sizes[4] = {86'400 * ups, 3600 * ups, 60 * ups, ups};
  const char* parts[4] = {"d", "h", "m", "s"};
  std::string out;
  for (int i = 0; i < 4; ++i) {
    const int64_t whole = i == 0 ? v / sizes[0] : (v % sizes[i - 1]) / sizes[i];
    if (whole != 0) {
      out += std::to_string(whole) + parts[i];
      if (v % sizes[i] != 0) out += ' ';
    }
  }
  const int64_t frac = v % ups;
  if (frac != 0) {
    // The sub-second units of this time unit, finest first ("ns", "µs", "ms").
    const int first = unit == TimeUnit::Nanoseconds ? 0 : unit == TimeUnit::Microseconds ? 1 : 2;
    if (frac % 1000 != 0) out += std::to_string(frac) + names[first];
    else if (frac % 1'000'000 != 0) out += std::to_string(frac / 1000) + names[first + 1];
    else out += std::to_string(frac / 1'000'000) + names[first + 2];
  }
  return out;
}

}  // namespace frazil
