#include "frazil/compute/temporal/strptime.hpp"

#include <cstring>
#include <regex>
#include <string_view>
#include <vector>

#include "frazil/compute/kernel_context.hpp"
#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/compute/temporal/zone.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// ---- the fields one parse collects (chrono's Parsed) -------------------------------------

struct Parsed {
  std::optional<int64_t> year, year_div_100, year_mod_100, iso_year, iso_year_mod_100, month, day, ordinal,
      iso_week, week_from_sun, week_from_mon, weekday /* 0 = Monday */, hour, hour_mod_12, minute, second,
      nanosecond, timestamp, offset;
  std::optional<bool> pm;
};

// ---- compiled formats --------------------------------------------------------------------

enum class Spec : uint8_t {
  Literal, Space, Year, YearDiv100, YearMod100, IsoYear, IsoYearMod100, Month, MonthName, Day, Ordinal, WeekdayName,
  WeekdayFromSun, WeekdayFromMon, WeekFromSun, WeekFromMon, IsoWeek, Hour, Hour12, AmPm, Minute, Second,
  NanosNumber, FracOptional, Frac3, Frac6, Frac9, Digits3, Digits6, Digits9, Offset, OffsetColon, OffsetPermissive,
  ZoneName, Timestamp, Rfc3339
};

struct Item {
  Spec spec;
  std::string text;  // Literal
};

std::vector<Item> compile(const std::string& f) {
  std::vector<Item> out;
  auto lit = [&](char c) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (out.empty() || out.back().spec != Spec::Space) out.push_back({Spec::Space, ""});
      return;
    }
    if (!out.empty() && out.back().spec == Spec::Literal) out.back().text.push_back(c);
    else out.push_back({Spec::Literal, std::string(1, c)});
  };
  auto add = [&](Spec s) { out.push_back({s, ""}); };
  auto bad = [&]() -> void { throw ComputeError(err_msg("invalid format string '", f, "'")); };
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      lit(f[i]);
      continue;
    }
    if (++i >= f.size()) bad();
    if (f[i] == '-' || f[i] == '_' || f[i] == '0') {
      if (++i >= f.size()) bad();
    }
    switch (f[i]) {
      case 'Y': add(Spec::Year); break;
      case 'C': add(Spec::YearDiv100); break;
      case 'y': add(Spec::YearMod100); break;
      case 'G': add(Spec::IsoYear); break;
      case 'g': add(Spec::IsoYearMod100); break;
      case 'm': add(Spec::Month); break;
      case 'b':
      case 'h':
      case 'B': add(Spec::MonthName); break;
      case 'd':
      case 'e': add(Spec::Day); break;
      case 'j': add(Spec::Ordinal); break;
      case 'a':
      case 'A': add(Spec::WeekdayName); break;
      case 'w': add(Spec::WeekdayFromSun); break;
      case 'u': add(Spec::WeekdayFromMon); break;
      case 'U': add(Spec::WeekFromSun); break;
      case 'W': add(Spec::WeekFromMon); break;
      case 'V': add(Spec::IsoWeek); break;
      case 'H':
      case 'k': add(Spec::Hour); break;
      case 'I':
      case 'l': add(Spec::Hour12); break;
      case 'p':
      case 'P': add(Spec::AmPm); break;
      case 'M': add(Spec::Minute); break;
      case 'S': add(Spec::Second); break;
      case 'f': add(Spec::NanosNumber); break;
      case 'D': add(Spec::Month), lit('/'), add(Spec::Day), lit('/'), add(Spec::YearMod100); break;
      case 'x': add(Spec::Month), lit('/'), add(Spec::Day), lit('/'), add(Spec::YearMod100); break;
      case 'F': add(Spec::Year), lit('-'), add(Spec::Month), lit('-'), add(Spec::Day); break;
      case 'v': add(Spec::Day), lit('-'), add(Spec::MonthName), lit('-'), add(Spec::Year); break;
      case 'R': add(Spec::Hour), lit(':'), add(Spec::Minute); break;
      case 'T':
      case 'X': add(Spec::Hour), lit(':'), add(Spec::Minute), lit(':'), add(Spec::Second); break;
      case 'r':
        add(Spec::Hour12), lit(':'), add(Spec::Minute), lit(':'), add(Spec::Second), lit(' '), add(Spec::AmPm);
        break;
      case 'c':
        add(Spec::WeekdayName), lit(' '), add(Spec::MonthName), lit(' '), add(Spec::Day), lit(' '), add(Spec::Hour),
            lit(':'), add(Spec::Minute), lit(':'), add(Spec::Second), lit(' '), add(Spec::Year);
        break;
      case '+': add(Spec::Rfc3339); break;
      case 's': add(Spec::Timestamp); break;
      case 'Z': add(Spec::ZoneName); break;
      case 'z': add(Spec::Offset); break;
      case 't': lit('\t'); break;
      case 'n': lit('\n'); break;
      case '%': lit('%'); break;
      case '.':
        if (i + 1 < f.size() && f[i + 1] == 'f') {
          add(Spec::FracOptional);
          ++i;
        } else if (i + 2 < f.size() && f[i + 2] == 'f' && (f[i + 1] == '3' || f[i + 1] == '6' || f[i + 1] == '9')) {
          add(f[i + 1] == '3' ? Spec::Frac3 : f[i + 1] == '6' ? Spec::Frac6 : Spec::Frac9);
          i += 2;
        } else {
          bad();
        }
        break;
      case '3':
      case '6':
      case '9':
        if (i + 1 < f.size() && f[i + 1] == 'f') {
          add(f[i] == '3' ? Spec::Digits3 : f[i] == '6' ? Spec::Digits6 : Spec::Digits9);
          ++i;
        } else {
          bad();
        }
        break;
      case ':': {
        size_t colons = 0;
        while (i < f.size() && f[i] == ':') ++colons, ++i;
        if (i >= f.size() || f[i] != 'z' || colons > 3) bad();
        add(Spec::OffsetColon);
        break;
      }
      case '#':
        if (i + 1 < f.size() && f[i + 1] == 'z') {
          add(Spec::OffsetPermissive);
          ++i;
        } else {
          bad();
        }
        break;
      default: bad();
    }
  }
  return out;
}

// ---- scanning ------------------------------------------------------------------------------

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

void skip_space(std::string_view s, size_t& p) {
  while (p < s.size() && is_space(s[p])) ++p;
}

// 1..max_width digits.
bool number(std::string_view s, size_t& p, size_t max_width, int64_t& v) {
  size_t n = 0;
  v = 0;
  while (p < s.size() && n < max_width && is_digit(s[p])) {
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[p] - '0', &v)) return false;
    ++p, ++n;
  }
  return n > 0;
}

// A signed number: with an explicit sign any number of digits, else up to `width`.
bool signed_number(std::string_view s, size_t& p, size_t width, int64_t& v) {
  if (p < s.size() && (s[p] == '-' || s[p] == '+')) {
    const bool neg = s[p] == '-';
    ++p;
    if (!number(s, p, SIZE_MAX, v)) return false;
    if (neg) v = -v;
    return true;
  }
  return number(s, p, width, v);
}

bool starts_with_ci(std::string_view s, size_t p, std::string_view word) {
  if (s.size() - p < word.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    char a = s[p + k], b = word[k];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a + 32);
    if (b >= 'A' && b <= 'Z') b = static_cast<char>(b + 32);
    if (a != b) return false;
  }
  return true;
}

// A month or weekday name: the three-letter abbreviation, extended to the full name when
// the text goes on with it (chrono's rule).
bool name(std::string_view s, size_t& p, const char* const* names, int count, int64_t& v) {
  for (int k = 0; k < count; ++k) {
    std::string_view full(names[k]);
    if (!starts_with_ci(s, p, full.substr(0, 3))) continue;
    p += 3;
    if (starts_with_ci(s, p, full.substr(3))) p += full.size() - 3;
    v = k;
    return true;
  }
  return false;
}

const char* const kMonthNames[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
const char* const kDayNames[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

// Fraction digits after a dot: up to 9 significant, further digits skipped.
bool fraction(std::string_view s, size_t& p, int64_t& ns) {
  size_t n = 0;
  ns = 0;
  while (p < s.size() && is_digit(s[p])) {
    if (n < 9) ns = ns * 10 + (s[p] - '0');
    ++p, ++n;
  }
  if (n == 0) return false;
  for (size_t k = n; k < 9; ++k) ns *= 10;
  return true;
}

bool fixed_fraction(std::string_view s, size_t& p, size_t digits, int64_t& ns) {
  if (s.size() - p < digits) return false;
  ns = 0;
  for (size_t k = 0; k < digits; ++k) {
    if (!is_digit(s[p + k])) return false;
    ns = ns * 10 + (s[p + k] - '0');
  }
  p += digits;
  for (size_t k = digits; k < 9; ++k) ns *= 10;
  return true;
}

// "+hh:mm", "+hhmm" (colon optional); permissive also "+hh" and "Z".
bool offset(std::string_view s, size_t& p, bool permissive, int64_t& secs) {
  skip_space(s, p);
  if (p >= s.size()) return false;
  if (permissive && (s[p] == 'Z' || s[p] == 'z')) {
    ++p;
    secs = 0;
    return true;
  }
  if (s[p] != '+' && s[p] != '-') return false;
  const bool neg = s[p] == '-';
  ++p;
  if (s.size() - p < 2 || !is_digit(s[p]) || !is_digit(s[p + 1])) return false;
  const int64_t h = (s[p] - '0') * 10 + (s[p + 1] - '0');
  p += 2;
  int64_t m = 0;
  size_t q = p;
  if (q < s.size() && s[q] == ':') ++q;
  if (s.size() - q >= 2 && is_digit(s[q]) && is_digit(s[q + 1])) {
    m = (s[q] - '0') * 10 + (s[q + 1] - '0');
    p = q + 2;
  } else if (!permissive) {
    return false;
  }
  if (m >= 60) return false;
  secs = (h * 3600 + m * 60) * (neg ? -1 : 1);
  return true;
}

bool set(std::optional<int64_t>& field, int64_t v) {
  if (field && *field != v) return false;  // the same field twice must agree
  field = v;
  return true;
}

// Parses `s` against `items`; on success `p` is where parsing stopped.
bool parse_items(const std::vector<Item>& items, std::string_view s, size_t& p, Parsed& out) {
  for (const Item& it : items) {
    int64_t v = 0;
    switch (it.spec) {
      case Spec::Literal:
        if (s.substr(p, it.text.size()) != it.text) return false;
        p += it.text.size();
        break;
      case Spec::Space: skip_space(s, p); break;
      case Spec::Year:
        skip_space(s, p);
        if (!signed_number(s, p, 4, v) || !set(out.year, v)) return false;
        break;
      case Spec::IsoYear:
        skip_space(s, p);
        if (!signed_number(s, p, 4, v) || !set(out.iso_year, v)) return false;
        break;
      case Spec::YearDiv100:
      case Spec::YearMod100:
      case Spec::IsoYearMod100:
      case Spec::Month:
      case Spec::Day:
      case Spec::Ordinal:
      case Spec::WeekdayFromSun:
      case Spec::WeekdayFromMon:
      case Spec::WeekFromSun:
      case Spec::WeekFromMon:
      case Spec::IsoWeek:
      case Spec::Hour:
      case Spec::Hour12:
      case Spec::Minute:
      case Spec::Second:
      case Spec::NanosNumber:
      case Spec::Timestamp: {
        skip_space(s, p);
        const size_t width = it.spec == Spec::Ordinal                                               ? 3
                             : it.spec == Spec::WeekdayFromSun || it.spec == Spec::WeekdayFromMon ? 1
                             : it.spec == Spec::NanosNumber                                        ? 9
                             : it.spec == Spec::Timestamp                                          ? SIZE_MAX
                                                                                                   : 2;
        if (!number(s, p, width, v)) {
          return false;
        }
        bool ok = true;
        switch (it.spec) {
          case Spec::YearDiv100: ok = set(out.year_div_100, v); break;
          case Spec::YearMod100: ok = set(out.year_mod_100, v); break;
          case Spec::IsoYearMod100: ok = set(out.iso_year_mod_100, v); break;
          case Spec::Month: ok = v >= 1 && v <= 12 && set(out.month, v); break;
          case Spec::Day: ok = v >= 1 && v <= 31 && set(out.day, v); break;
          case Spec::Ordinal: ok = v >= 1 && v <= 366 && set(out.ordinal, v); break;
          case Spec::WeekdayFromSun: ok = v <= 6 && set(out.weekday, (v + 6) % 7); break;
          case Spec::WeekdayFromMon: ok = v >= 1 && v <= 7 && set(out.weekday, v - 1); break;
          case Spec::WeekFromSun: ok = v <= 53 && set(out.week_from_sun, v); break;
          case Spec::WeekFromMon: ok = v <= 53 && set(out.week_from_mon, v); break;
          case Spec::IsoWeek: ok = v >= 1 && v <= 53 && set(out.iso_week, v); break;
          case Spec::Hour: ok = v <= 23 && set(out.hour, v); break;
          case Spec::Hour12: ok = v >= 1 && v <= 12 && set(out.hour_mod_12, v % 12); break;
          case Spec::Minute: ok = v <= 59 && set(out.minute, v); break;
          case Spec::Second: ok = v <= 60 && set(out.second, v); break;
          case Spec::NanosNumber: ok = set(out.nanosecond, v); break;
          case Spec::Timestamp: ok = set(out.timestamp, v); break;
          default: break;
        }
        if (!ok) return false;
        break;
      }
      case Spec::MonthName:
        skip_space(s, p);
        if (!name(s, p, kMonthNames, 12, v) || !set(out.month, v + 1)) return false;
        break;
      case Spec::WeekdayName:
        skip_space(s, p);
        if (!name(s, p, kDayNames, 7, v) || !set(out.weekday, v)) return false;
        break;
      case Spec::AmPm:
        skip_space(s, p);
        if (starts_with_ci(s, p, "am")) out.pm = false;
        else if (starts_with_ci(s, p, "pm")) out.pm = true;
        else return false;
        p += 2;
        break;
      case Spec::FracOptional:
        if (p < s.size() && s[p] == '.') {
          ++p;
          if (!fraction(s, p, v) || !set(out.nanosecond, v)) return false;
        }
        break;
      case Spec::Frac3:
      case Spec::Frac6:
      case Spec::Frac9:
        if (p >= s.size() || s[p] != '.') return false;
        ++p;
        if (!fixed_fraction(s, p, it.spec == Spec::Frac3 ? 3 : it.spec == Spec::Frac6 ? 6 : 9, v) ||
            !set(out.nanosecond, v))
          return false;
        break;
      case Spec::Digits3:
      case Spec::Digits6:
      case Spec::Digits9:
        if (!fixed_fraction(s, p, it.spec == Spec::Digits3 ? 3 : it.spec == Spec::Digits6 ? 6 : 9, v) ||
            !set(out.nanosecond, v))
          return false;
        break;
      case Spec::Offset:
      case Spec::OffsetColon:
      case Spec::OffsetPermissive:
        if (!offset(s, p, it.spec == Spec::OffsetPermissive, v) || !set(out.offset, v)) return false;
        break;
      case Spec::ZoneName:
        // Skipped: the letters of an abbreviation ("CET").
        while (p < s.size() && !is_space(s[p])) ++p;
        break;
      case Spec::Rfc3339: {
        // YYYY-MM-DD[T ]HH:MM:SS[.f](Z|±hh:mm)
        static const std::vector<Item> date = compile("%Y-%m-%d");
        static const std::vector<Item> time = compile("%H:%M:%S%.f");
        if (!parse_items(date, s, p, out)) return false;
        if (p >= s.size() || (s[p] != 'T' && s[p] != 't' && s[p] != ' ')) return false;
        ++p;
        if (!parse_items(time, s, p, out)) return false;
        if (!offset(s, p, true, v) || !set(out.offset, v)) return false;
        break;
      }
    }
  }
  return true;
}

// ---- resolving the fields ------------------------------------------------------------------

inline int64_t iso_weekday0(int64_t days) { return ((days % 7) + 7 + 3) % 7; }  // 0 = Monday

// The day number of the parsed date, or nullopt when the fields are missing or disagree.
std::optional<int64_t> resolve_date(const Parsed& f) {
  std::optional<int64_t> year = f.year;
  if (!year && f.year_mod_100) {
    const int64_t c = f.year_div_100 ? *f.year_div_100 : (*f.year_mod_100 < 70 ? 20 : 19);
    year = c * 100 + *f.year_mod_100;
  } else if (year && f.year_mod_100 && year.value() % 100 != *f.year_mod_100 && year.value() >= 0) {
    return std::nullopt;
  }
  std::optional<int64_t> month = f.month, day = f.day;
  // Without week, weekday or ordinal fields, Polars fills what is missing from 0001-01-01
  // ("2022-01" with "%Y-%m" is 2022-01-01, "15" with "%d" 0001-01-15).
  const bool calendar_only = !f.weekday && !f.ordinal && !f.week_from_mon && !f.week_from_sun && !f.iso_week &&
                             !f.iso_year && !f.iso_year_mod_100;
  if (calendar_only) {
    if (!year) year = 1;
    if (!month) month = 1;
    if (!day) day = 1;
  }
  std::optional<int64_t> days;
  if (year && month && day) {
    if (*day > static_cast<int64_t>(month_days(*year, static_cast<unsigned>(*month)))) return std::nullopt;
    days = days_from_civil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day));
  } else if (year && f.ordinal) {
    if (*f.ordinal > (is_leap(*year) ? 366 : 365)) return std::nullopt;
    days = days_from_civil(*year, 1, 1) + *f.ordinal - 1;
  } else if (year && f.weekday && (f.week_from_mon || f.week_from_sun)) {
    const int64_t jan1 = days_from_civil(*year, 1, 1);
    const int64_t wd1 = iso_weekday0(jan1);
    if (f.week_from_mon) {
      // Week 1 starts on the first Monday.
      const int64_t first_monday = jan1 + (7 - wd1) % 7;
      days = first_monday + (*f.week_from_mon - 1) * 7 + *f.weekday;
    } else {
      const int64_t sun = (*f.weekday + 1) % 7;  // 0 = Sunday
      const int64_t first_sunday = jan1 + (6 - wd1 + 7) % 7;
      days = first_sunday + (*f.week_from_sun - 1) * 7 + sun;
    }
    if (civil_from_days(*days).year != *year) return std::nullopt;
  } else if ((f.iso_year || f.iso_year_mod_100) && f.iso_week && f.weekday) {
    const int64_t iy = f.iso_year ? *f.iso_year : 2000 + *f.iso_year_mod_100;
    const int64_t jan4 = days_from_civil(iy, 1, 4);
    const int64_t week1_monday = jan4 - iso_weekday0(jan4);
    days = week1_monday + (*f.iso_week - 1) * 7 + *f.weekday;
  } else {
    return std::nullopt;
  }
  if (f.weekday && iso_weekday0(*days) != *f.weekday) return std::nullopt;
  if (f.month && civil_from_days(*days).month != *f.month) return std::nullopt;
  return days;
}

// Nanoseconds since midnight (a leap second 60 rolls into the next second, as chrono's
// timestamps do), or nullopt without hour and minute.
std::optional<int64_t> resolve_time(const Parsed& f) {
  std::optional<int64_t> hour = f.hour;
  if (f.hour_mod_12) {
    if (!f.pm) return std::nullopt;
    const int64_t h = *f.hour_mod_12 + (*f.pm ? 12 : 0);
    if (hour && *hour != h) return std::nullopt;
    hour = h;
  } else if (f.pm && hour) {
    if ((*hour >= 12) != *f.pm) return std::nullopt;
  }
  if (!hour || !f.minute) return std::nullopt;
  return ((*hour * 60 + *f.minute) * 60 + f.second.value_or(0)) * 1'000'000'000 + f.nanosecond.value_or(0);
}

// ---- formats and inference -----------------------------------------------------------------

const std::vector<std::string>& date_dmy() {
  static const std::vector<std::string> v = {"%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y"};
  return v;
}
const std::vector<std::string>& date_ymd() {
  static const std::vector<std::string> v = {"%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d"};
  return v;
}
std::vector<std::string> datetime_patterns(const char* d, const char* m, const char* y, bool ymd, bool zoned) {
  std::vector<std::string> out;
  for (const char* sep : {"-", "/", "."}) {
    const std::string date = ymd ? std::string(y) + sep + m + sep + d : std::string(d) + sep + m + sep + y;
    for (const char* t : {"T", " "}) {
      for (const char* clock : {"%H:%M:%S%.f", "%H%M%S%.f", "%H:%M", "%H%M"})
        out.push_back(date + t + clock + (zoned ? "%#z" : ""));
    }
    if (!zoned) out.push_back(date);
  }
  if (ymd && !zoned) out.push_back("%Y%m%dT%H%M%S%.f");
  if (ymd && zoned) {
    out.push_back("%Y%m%dT%H%M%S%.f%#z");
    out.push_back("%Y%m%dT%H%M%S%.fZ");
    out.push_back("%+");
  }
  return out;
}
const std::vector<std::string>& datetime_dmy() {
  static const std::vector<std::string> v = datetime_patterns("%d", "%m", "%Y", false, false);
  return v;
}
const std::vector<std::string>& datetime_ymd() {
  static const std::vector<std::string> v = datetime_patterns("%d", "%m", "%Y", true, false);
  return v;
}
const std::vector<std::string>& datetime_ymd_z() {
  static const std::vector<std::string> v = datetime_patterns("%d", "%m", "%Y", true, true);
  return v;
}
const std::vector<std::string>& time_patterns() {
  static const std::vector<std::string> v = {"%T%.f", "%R"};
  return v;
}

enum class Target { Date, Datetime, Time };

// A compiled format with Polars' check; parse() gives day number and time of day.
class Format {
 public:
  explicit Format(const std::string& text) : text_(text), items_(compile(text)), has_offset_(format_has_offset(text)) {}
  const std::string& text() const { return text_; }
  bool has_offset() const { return has_offset_; }

  struct Result {
    int64_t days = 0, nanos = 0;  // local date and time (or UTC with an offset)
    std::optional<int64_t> offset;
    bool leap_second = false;
  };
  // exact: the whole text; otherwise a prefix (the caller tries each start position).
  std::optional<Result> parse(std::string_view s, Target target, bool exact) const {
    Parsed f;
    size_t p = 0;
    if (!parse_items(items_, s, p, f)) return std::nullopt;
    if (exact && p != s.size()) return std::nullopt;
    Result r;
    r.offset = f.offset;
    if (f.timestamp) {
      r.days = floor_div(*f.timestamp, 86'400);
      r.nanos = (*f.timestamp - r.days * 86'400) * 1'000'000'000;
      if (f.offset) r.offset = 0;
      return r;
    }
    if (target != Target::Time) {
      auto d = resolve_date(f);
      if (!d) return std::nullopt;
      r.days = *d;
    }
    if (target == Target::Date) return r;
    auto t = resolve_time(f);
    if (!t) {
      // A date without any time of day is midnight (chrono's NotEnough fallback).
      if (target == Target::Datetime && !f.hour && !f.hour_mod_12 && !f.minute && !f.second && !f.nanosecond) {
        r.nanos = 0;
        return r;
      }
      return std::nullopt;
    }
    r.nanos = *t;
    r.leap_second = f.second && *f.second == 60;
    return r;
  }

 private:
  std::string text_;
  std::vector<Item> items_;
  bool has_offset_;
};

// Which of Polars' pattern groups a value belongs to (by the first format that parses it).
const std::vector<std::string>* infer_group(std::string_view s, Target target) {
  auto parses = [&](const std::vector<std::string>& group, Target t) {
    for (const auto& f : group)
      if (Format(f).parse(s, t, true)) return true;
    return false;
  };
  if (target == Target::Time) return parses(time_patterns(), Target::Time) ? &time_patterns() : nullptr;
  if (target == Target::Date) {
    if (parses(date_dmy(), Target::Date)) return &date_dmy();
    if (parses(date_ymd(), Target::Date)) return &date_ymd();
    return nullptr;
  }
  if (parses(datetime_dmy(), Target::Datetime)) return &datetime_dmy();
  if (parses(datetime_ymd(), Target::Datetime)) return &datetime_ymd();
  for (const auto& f : datetime_ymd_z()) {
    Format fmt(f);
    auto r = fmt.parse(s, Target::Datetime, true);
    if (r && r->offset) return &datetime_ymd_z();
  }
  return nullptr;
}

const char* target_name(Target t) { return t == Target::Date ? "date" : t == Target::Time ? "time" : "datetime"; }

[[noreturn]] void strict_failure(const Array& in, const std::vector<int64_t>& failed, const DataType& to) {
  std::string list;
  auto value = [&](int64_t i) { return "\"" + std::string(in.str_value(i)) + "\""; };
  if (failed.size() <= 3) {
    for (size_t k = 0; k < failed.size(); ++k) list += (k ? ", " : "") + value(failed[k]);
  } else {
    const size_t last = std::min<size_t>(failed.size(), 10) - 1;
    list = value(failed[0]) + ", " + value(failed[1]) + ", … " + value(failed[last]);
  }
  throw InvalidOperationError(err_msg(
      "conversion from `str` to `", to.short_name(), "` failed in column '", current_column_name(), "' for ",
      failed.size(), " out of ", in.length(), " values: [", list,
      "]\n\nYou might want to try:\n- setting `strict=False` to set values that cannot be converted to `null`\n- "
      "using `str.strptime`, `str.to_date`, `str.to_datetime`, or `str.to_time` and providing a format string"));
}

// Runs the parse over every row; `emit(i, result)` stores a value (returns false to make
// the row null). Returns the failed rows (valid text that gave no value).
struct RowParser {
  const Array& values;
  Target target;
  const StrptimeOptions& options;

  // The format for all rows, or the inferred group (tried in order, the last success first).
  std::optional<Format> fixed;
  std::vector<Format> group;
  size_t latest = 0;
  bool all_null = false;

  RowParser(const Array& v, Target t, const StrptimeOptions& o) : values(v), target(t), options(o) {
    if (o.format) {
      check_strptime_format(*o.format);
      fixed.emplace(*o.format);
      return;
    }
    int64_t first = -1;
    for (int64_t i = 0; i < v.length(); ++i)
      if (v.is_valid(i)) {
        first = i;
        break;
      }
    if (first < 0) {
      all_null = true;
      return;
    }
    const std::vector<std::string>* g = nullptr;
    for (int64_t i = first; i < v.length() && !g; ++i)
      if (v.is_valid(i)) g = infer_group(v.str_value(i), t);
    if (!g) {
      // Without strictness nothing parses: every value is null.
      if (!o.strict) {
        all_null = true;
        return;
      }
      throw ComputeError(err_msg("could not find an appropriate format to parse ", target_name(t),
                                 "s, please define a format"));
    }
    if (t == Target::Time) {
      // Polars sniffs one time format from the first value.
      for (int64_t i = first; i < v.length(); ++i) {
        if (!v.is_valid(i)) continue;
        for (const auto& f : *g)
          if (Format(f).parse(v.str_value(i), t, true)) {
            group.emplace_back(f);
            return;
          }
      }
    }
    for (const auto& f : *g) group.emplace_back(f);
  }
  bool zoned_data() const { return fixed ? fixed->has_offset() : (!group.empty() && group[0].has_offset()); }

  std::optional<Format::Result> parse_once(std::string_view s) {
    if (fixed) return fixed->parse(s, target, options.exact);
    if (auto r = group[latest].parse(s, target, options.exact)) return r;
    for (size_t k = 0; k < group.size(); ++k) {
      if (k == latest) continue;
      if (auto r = group[k].parse(s, target, options.exact)) {
        latest = k;
        return r;
      }
    }
    return std::nullopt;
  }
  std::optional<Format::Result> parse(std::string_view s) {
    if (options.exact) return parse_once(s);
    // Not exact: the first position (character by character) where the format matches.
    for (size_t start = 0; start < s.size();) {
      if (auto r = parse_once(s.substr(start))) return r;
      ++start;
      while (start < s.size() && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) ++start;
    }
    return std::nullopt;
  }
};

void require_string(const Array& a, const char* what) {
  if (!a.dtype().is_string() && !a.dtype().is_null())
    throw SchemaError(err_msg("invalid series dtype: expected `String`, got `", a.dtype().short_name(), "`"));
  (void)what;
}

}  // namespace

void check_strptime_format(const std::string& f) {
  static const std::regex hour(R"(%[_-]?[HkIl])"), minute(R"(%[_-]?M)"), second(R"(%[_-]?S)"),
      twelve(R"(%[_-]?[Il])"), meridiem(R"(%[_-]?[pP])");
  const bool h = std::regex_search(f, hour), m = std::regex_search(f, minute);
  if (h != m) throw ComputeError("Invalid format string: Please either specify both hour and minute, or neither.");
  if (std::regex_search(f, second) && !h)
    throw ComputeError("Invalid format string: Found seconds directive, but no hours directive.");
  if (std::regex_search(f, twelve) != std::regex_search(f, meridiem))
    throw ComputeError(
        "Invalid format string: Please either specify both 12-hour directive and meridiem directive, or neither.");
}

bool format_has_offset(const std::string& f) {
  static const std::regex re(R"((%z)|(%:z)|(%::z)|(%:::z)|(%#z)|(^%\+$))");
  return std::regex_search(f, re);
}

ArrayRef str_to_date(const Array& values, const StrptimeOptions& options) {
  require_string(values, "to_date");
  const int64_t n = values.length();
  RowParser parser(values, Target::Date, options);
  PrimitiveBuilder<int32_t> b(DataType::date(), n);
  std::vector<int64_t> failed;
  for (int64_t i = 0; i < n; ++i) {
    if (parser.all_null || values.is_null(i)) {
      b.push_null();
      continue;
    }
    auto r = parser.parse(values.str_value(i));
    if (r && r->days >= INT32_MIN && r->days <= INT32_MAX) {
      b.push(static_cast<int32_t>(r->days));
    } else {
      b.push_null();
      failed.push_back(i);
    }
  }
  if (options.strict && !failed.empty()) strict_failure(values, failed, DataType::date());
  return b.finish();
}

ArrayRef str_to_time(const Array& values, const StrptimeOptions& options) {
  require_string(values, "to_time");
  if (!options.exact) throw ComputeError("non-exact not implemented for Time data type");
  const int64_t n = values.length();
  RowParser parser(values, Target::Time, options);
  PrimitiveBuilder<int64_t> b(DataType::time(), n);
  std::vector<int64_t> failed;
  for (int64_t i = 0; i < n; ++i) {
    if (parser.all_null || values.is_null(i)) {
      b.push_null();
      continue;
    }
    auto r = parser.parse(values.str_value(i));
    // (A leap second, 60, is not a Time Polars keeps.)
    if (r && r->nanos < 86'400'000'000'000LL && (r->nanos / 1'000'000'000) % 60 < 60 &&
        r->nanos % 60'000'000'000LL < 60'000'000'000LL && !r->leap_second) {
      b.push(r->nanos);
    } else {
      b.push_null();
      failed.push_back(i);
    }
  }
  if (options.strict && !failed.empty()) strict_failure(values, failed, DataType::time());
  return b.finish();
}

ArrayRef str_to_datetime(const Array& values, TimeUnit unit, const std::optional<std::string>& time_zone,
                         const StrptimeOptions& options, const Array& ambiguous) {
  require_string(values, "to_datetime");
  const int64_t n = values.length();
  RowParser parser(values, Target::Datetime, options);
  const bool zoned = parser.zoned_data();
  if (zoned && !options.format && !time_zone)
    throw ComputeError(
        "`strptime` / `to_datetime` was called with no format and no time zone, but a time zone is part of the "
        "data.\n\nThis was previously allowed but led to unpredictable and erroneous results. Give a format string, "
        "set a time zone or perform the operation eagerly on a Series instead of on an Expr.");
  const int64_t ups = units_per_second(unit), per = 1'000'000'000 / ups;
  PrimitiveBuilder<int64_t> b(DataType::datetime(unit), n);
  std::vector<int64_t> failed;
  for (int64_t i = 0; i < n; ++i) {
    if (parser.all_null || values.is_null(i)) {
      b.push_null();
      continue;
    }
    auto r = parser.parse(values.str_value(i));
    int64_t v = 0;
    bool ok = r.has_value();
    if (ok && zoned && !r->offset) ok = false;  // an offset format needs an offset
    if (ok) {
      const int64_t secs = r->days * 86'400 + r->nanos / 1'000'000'000 - (zoned ? *r->offset : 0);
      ok = !__builtin_mul_overflow(secs, ups, &v) && !__builtin_add_overflow(v, (r->nanos % 1'000'000'000) / per, &v);
    }
    if (ok) {
      b.push(v);
    } else {
      b.push_null();
      failed.push_back(i);
    }
  }
  ArrayRef naive = b.finish();
  ArrayRef out = naive;
  if (zoned) out = naive->with_dtype(DataType::datetime(unit, tz::canonical_name(time_zone.value_or("UTC"))));
  else if (time_zone) out = from_local_clock(*naive, *time_zone, ambiguous, tz::NonExistent::Raise);
  if (options.strict && !parser.all_null) {
    // A value that parsed but has no instant (an ambiguous time made null) failed too.
    failed.clear();
    for (int64_t i = 0; i < n; ++i)
      if (values.is_valid(i) && out->is_null(i)) failed.push_back(i);
    if (!failed.empty()) strict_failure(values, failed, out->dtype());
  }
  return out;
}

}  // namespace frazil::compute
