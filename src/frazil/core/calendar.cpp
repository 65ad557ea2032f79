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

std::string format_duration(int64_t value, TimeUnit unit) {
  if (value == 0) return "0" + std::string(unit == TimeUnit::Microseconds ? "µs" : time_unit_name(unit));
  std::string out;
  bool neg = value < 0;
  uint64_t v = neg ? -static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  const uint64_t ups = units_per_second(unit);
  uint64_t secs = v / ups, frac = v % ups;
  struct Part { uint64_t n; const char* s; };
  Part parts[] = {{secs / 86400, "d"}, {secs / 3600 % 24, "h"}, {secs / 60 % 60, "m"}, {secs % 60, "s"}};
  for (auto& p : parts)
    if (p.n) out += (out.empty() ? "" : " ") + std::to_string(p.n) + p.s;
  if (frac) {
    const char* name = unit == TimeUnit::Nanoseconds ? "ns" : unit == TimeUnit::Microseconds ? "µs" : "ms";
    out += (out.empty() ? "" : " ") + std::to_string(frac) + name;
  }
  return (neg ? "-" : "") + out;
}

}  // namespace frazil
