// Calendar arithmetic on the proleptic Gregorian calendar (Howard Hinnant's algorithms):
// days since 1970-01-01 <-> (year, month, day), and formatting of temporal values.
#pragma once

#include <cstdint>
#include <string>

#include "frazil/core/dtype.hpp"

namespace frazil {

struct CivilDate {
  int64_t year;
  unsigned month;  // 1..12
  unsigned day;    // 1..31
};

constexpr int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

constexpr CivilDate civil_from_days(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return CivilDate{y + (m <= 2), m, d};
}

// Units per second for a TimeUnit (1e9, 1e6, 1e3).
int64_t units_per_second(TimeUnit unit);
// Floor division for negative timestamps.
inline int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::string format_date(int32_t days);                       // 2024-01-31
std::string format_datetime(int64_t value, TimeUnit unit);   // 2024-01-31 12:00:00.123
std::string format_duration(int64_t value, TimeUnit unit);   // 1d 2h 3m 4s 5ms
std::string format_time(int64_t nanos);                      // 12:00:00.5

}  // namespace frazil
