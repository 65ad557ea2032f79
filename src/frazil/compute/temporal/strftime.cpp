#include "frazil/compute/temporal/strftime.hpp"

#include <cstdio>
#include <optional>
#include <vector>

#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/tz.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

const char* const kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                               "July",    "August",   "September", "October", "November", "December"};
const char* const kDays[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

// One piece of a compiled format.
struct Item {
  enum Kind : uint8_t {
    Literal, Year, Century, YearMod100, Month, MonthShort, MonthLong, Day, DaySpace, WeekdayShort, WeekdayLong,
    WeekdayFromSunday, WeekdayFromMonday, WeekSunday, WeekMonday, IsoYear, IsoYearMod100, IsoWeek, Ordinal,
    Hour, HourSpace, Hour12, Hour12Space, AmPmLower, AmPmUpper, Minute, Second, Nanos9, FracAuto, Frac3, Frac6,
    Frac9, Frac3NoDot, Frac6NoDot, Frac9NoDot, Abbreviation, OffsetPlain, OffsetColon, OffsetColonSeconds,
    OffsetHours, UnixSeconds
  } kind;
  char pad = 0;  // 0: the specifier's default, '-': none, '_': spaces, '0': zeros
  std::string text;
};

struct Needs {
  bool date = false, time = false, offset = false;
};

// Compiles a chrono format into items; nullopt when it has an unknown specifier.
std::optional<std::vector<Item>> compile(const std::string& f, Needs& needs) {
  std::vector<Item> out;
  auto lit = [&](const std::string& s) {
    if (!out.empty() && out.back().kind == Item::Literal) out.back().text += s;
    else out.push_back({Item::Literal, 0, s});
  };
  auto add = [&](Item::Kind k, char pad, bool date, bool time, bool offset = false) {
    out.push_back({k, pad, ""});
    needs.date |= date;
    needs.time |= time;
    needs.offset |= offset;
  };
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      lit(std::string(1, f[i]));
      continue;
    }
    if (++i >= f.size()) return std::nullopt;
    char pad = 0;
    if (f[i] == '-' || f[i] == '_' || f[i] == '0') {
      pad = f[i];
      if (++i >= f.size()) return std::nullopt;
    }
    const char c = f[i];
    switch (c) {
      case 'Y': add(Item::Year, pad, true, false); break;
      case 'C': add(Item::Century, pad, true, false); break;
      case 'y': add(Item::YearMod100, pad, true, false); break;
      case 'm': add(Item::Month, pad, true, false); break;
      case 'b':
      case 'h': add(Item::MonthShort, pad, true, false); break;
      case 'B': add(Item::MonthLong, pad, true, false); break;
      case 'd': add(Item::Day, pad, true, false); break;
      case 'e': add(Item::DaySpace, pad, true, false); break;
      case 'a': add(Item::WeekdayShort, pad, true, false); break;
      case 'A': add(Item::WeekdayLong, pad, true, false); break;
      case 'w': add(Item::WeekdayFromSunday, pad, true, false); break;
      case 'u': add(Item::WeekdayFromMonday, pad, true, false); break;
      case 'U': add(Item::WeekSunday, pad, true, false); break;
      case 'W': add(Item::WeekMonday, pad, true, false); break;
      case 'G': add(Item::IsoYear, pad, true, false); break;
      case 'g': add(Item::IsoYearMod100, pad, true, false); break;
      case 'V': add(Item::IsoWeek, pad, true, false); break;
      case 'j': add(Item::Ordinal, pad, true, false); break;
      case 'D':
      case 'x':
        add(Item::Month, pad, true, false), lit("/"), add(Item::Day, pad, true, false), lit("/"),
            add(Item::YearMod100, pad, true, false);
        break;
      case 'F': add(Item::Year, pad, true, false), lit("-"), add(Item::Month, pad, true, false), lit("-"),
                add(Item::Day, pad, true, false);
        break;
      case 'v': add(Item::DaySpace, pad, true, false), lit("-"), add(Item::MonthShort, pad, true, false), lit("-"),
                add(Item::Year, pad, true, false);
        break;
      case 'H': add(Item::Hour, pad, false, true); break;
      case 'k': add(Item::HourSpace, pad, false, true); break;
      case 'I': add(Item::Hour12, pad, false, true); break;
      case 'l': add(Item::Hour12Space, pad, false, true); break;
      case 'P': add(Item::AmPmLower, pad, false, true); break;
      case 'p': add(Item::AmPmUpper, pad, false, true); break;
      case 'M': add(Item::Minute, pad, false, true); break;
      case 'S': add(Item::Second, pad, false, true); break;
      case 'f': add(Item::Nanos9, pad, false, true); break;
      case 'R': add(Item::Hour, pad, false, true), lit(":"), add(Item::Minute, pad, false, true); break;
      case 'T':
      case 'X':
        add(Item::Hour, pad, false, true), lit(":"), add(Item::Minute, pad, false, true), lit(":"),
            add(Item::Second, pad, false, true);
        break;
      case 'r':
        add(Item::Hour12, pad, false, true), lit(":"), add(Item::Minute, pad, false, true), lit(":"),
            add(Item::Second, pad, false, true), lit(" "), add(Item::AmPmUpper, pad, false, true);
        break;
      case 'c':
        add(Item::WeekdayShort, pad, true, false), lit(" "), add(Item::MonthShort, pad, true, false), lit(" "),
            add(Item::DaySpace, pad, true, false), lit(" "), add(Item::Hour, pad, false, true), lit(":"),
            add(Item::Minute, pad, false, true), lit(":"), add(Item::Second, pad, false, true), lit(" "),
            add(Item::Year, pad, true, false);
        break;
      case '+':
        add(Item::Year, pad, true, false), lit("-"), add(Item::Month, pad, true, false), lit("-"),
            add(Item::Day, pad, true, false), lit("T"), add(Item::Hour, pad, false, true), lit(":"),
            add(Item::Minute, pad, false, true), lit(":"), add(Item::Second, pad, false, true),
            add(Item::FracAuto, pad, false, true), add(Item::OffsetColon, pad, false, false, true);
        break;
      case 's': add(Item::UnixSeconds, pad, true, true); break;
      case 'Z': add(Item::Abbreviation, pad, false, false, true); break;
      case 'z': add(Item::OffsetPlain, pad, false, false, true); break;
      case 't': lit("\t"); break;
      case 'n': lit("\n"); break;
      case '%': lit("%"); break;
      case '.': {
        // %.f %.3f %.6f %.9f
        if (i + 1 < f.size() && f[i + 1] == 'f') {
          add(Item::FracAuto, pad, false, true);
          ++i;
        } else if (i + 2 < f.size() && f[i + 2] == 'f' && (f[i + 1] == '3' || f[i + 1] == '6' || f[i + 1] == '9')) {
          add(f[i + 1] == '3' ? Item::Frac3 : f[i + 1] == '6' ? Item::Frac6 : Item::Frac9, pad, false, true);
          i += 2;
        } else {
          return std::nullopt;
        }
        break;
      }
      case '3':
      case '6':
      case '9':
        if (i + 1 < f.size() && f[i + 1] == 'f') {
          add(c == '3' ? Item::Frac3NoDot : c == '6' ? Item::Frac6NoDot : Item::Frac9NoDot, pad, false, true);
          ++i;
        } else {
          return std::nullopt;
        }
        break;
      case ':': {
        // %:z %::z %:::z
        size_t colons = 0;
        while (i < f.size() && f[i] == ':') ++colons, ++i;
        if (i >= f.size() || f[i] != 'z' || colons > 3) return std::nullopt;
        add(colons == 1 ? Item::OffsetColon : colons == 2 ? Item::OffsetColonSeconds : Item::OffsetHours, pad, false,
            false, true);
        break;
      }
      case '#':
        if (i + 1 < f.size() && f[i + 1] == 'z') return std::nullopt;  // parsing only in chrono
        return std::nullopt;
      default: return std::nullopt;
    }
  }
  return out;
}

struct Fields {
  int64_t year = 1970;
  unsigned month = 1, day = 1;
  int64_t days = 0;  // since the epoch
  int64_t seconds_of_day = 0, nanos = 0;
  int32_t offset = 0;
  const char* abbreviation = "";
  int64_t unix_seconds = 0;
};

void number(std::string& out, int64_t v, int width, char pad, char default_pad) {
  const char p = pad ? pad : default_pad;
  char buf[32];
  if (p == '-') std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else if (p == '_') std::snprintf(buf, sizeof buf, "%*lld", width, static_cast<long long>(v));
  else std::snprintf(buf, sizeof buf, "%0*lld", width + (v < 0), static_cast<long long>(v));
  out += buf;
}

void year(std::string& out, int64_t y, char pad) {
  // chrono: 4 digits (zero padded), a sign outside 0..9999.
  if (y > 9999) {
    out += "+";
    number(out, y, 4, pad, '0');
  } else {
    number(out, y, 4, pad, '0');
  }
}

void offset_text(std::string& out, int32_t off, int colons, bool seconds_too) {
  const char sign = off < 0 ? '-' : '+';
  const int32_t a = off < 0 ? -off : off;
  char buf[24];
  if (seconds_too) {
    std::snprintf(buf, sizeof buf, "%c%02d:%02d:%02d", sign, a / 3600, a / 60 % 60, a % 60);
    out += buf;
    return;
  }
  out += tz::format_offset(off, colons > 0);
}

void render(const std::vector<Item>& items, const Fields& f, std::string& out) {
  const int64_t wd = ((f.days % 7) + 7 + 3) % 7;  // 0 = Monday
  const int64_t ordinal = f.days - days_from_civil(f.year, 1, 1) + 1;
  const int64_t h = f.seconds_of_day / 3600, mi = f.seconds_of_day / 60 % 60, s = f.seconds_of_day % 60;
  const int64_t h12 = h % 12 == 0 ? 12 : h % 12;
  for (const Item& it : items) {
    switch (it.kind) {
      case Item::Literal: out += it.text; break;
      case Item::Year: year(out, f.year, it.pad); break;
      case Item::Century: number(out, floor_div(f.year, 100), 2, it.pad, '0'); break;
      case Item::YearMod100: number(out, f.year - floor_div(f.year, 100) * 100, 2, it.pad, '0'); break;
      case Item::Month: number(out, f.month, 2, it.pad, '0'); break;
      case Item::MonthShort: out.append(kMonths[f.month - 1], 3); break;
      case Item::MonthLong: out += kMonths[f.month - 1]; break;
      case Item::Day: number(out, f.day, 2, it.pad, '0'); break;
      case Item::DaySpace: number(out, f.day, 2, it.pad, '_'); break;
      case Item::WeekdayShort: out.append(kDays[wd], 3); break;
      case Item::WeekdayLong: out += kDays[wd]; break;
      case Item::WeekdayFromSunday: number(out, (wd + 1) % 7, 1, it.pad, '0'); break;
      case Item::WeekdayFromMonday: number(out, wd + 1, 1, it.pad, '0'); break;
      case Item::WeekSunday: number(out, (ordinal - 1 + 7 - ((wd + 1) % 7)) / 7, 2, it.pad, '0'); break;
      case Item::WeekMonday: number(out, (ordinal - 1 + 7 - wd) / 7, 2, it.pad, '0'); break;
      case Item::IsoYear:
      case Item::IsoYearMod100:
      case Item::IsoWeek: {
        const int64_t thursday = f.days - (wd - 3);
        const int64_t iy = civil_from_days(thursday).year;
        if (it.kind == Item::IsoWeek) number(out, (thursday - days_from_civil(iy, 1, 1)) / 7 + 1, 2, it.pad, '0');
        else if (it.kind == Item::IsoYear) year(out, iy, it.pad);
        else number(out, iy - floor_div(iy, 100) * 100, 2, it.pad, '0');
        break;
      }
      case Item::Ordinal: number(out, ordinal, 3, it.pad, '0'); break;
      case Item::Hour: number(out, h, 2, it.pad, '0'); break;
      case Item::HourSpace: number(out, h, 2, it.pad, '_'); break;
      case Item::Hour12: number(out, h12, 2, it.pad, '0'); break;
      case Item::Hour12Space: number(out, h12, 2, it.pad, '_'); break;
      case Item::AmPmLower: out += h < 12 ? "am" : "pm"; break;
      case Item::AmPmUpper: out += h < 12 ? "AM" : "PM"; break;
      case Item::Minute: number(out, mi, 2, it.pad, '0'); break;
      case Item::Second: number(out, s, 2, it.pad, '0'); break;
      case Item::Nanos9: number(out, f.nanos, 9, it.pad, '0'); break;
      case Item::FracAuto: {
        char buf[32];
        if (f.nanos == 0) break;
        if (f.nanos % 1'000'000 == 0) std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(f.nanos / 1'000'000));
        else if (f.nanos % 1000 == 0) std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(f.nanos / 1000));
        else std::snprintf(buf, sizeof buf, ".%09lld", static_cast<long long>(f.nanos));
        out += buf;
        break;
      }
      case Item::Frac3:
      case Item::Frac3NoDot:
        if (it.kind == Item::Frac3) out += '.';
        number(out, f.nanos / 1'000'000, 3, 0, '0');
        break;
      case Item::Frac6:
      case Item::Frac6NoDot:
        if (it.kind == Item::Frac6) out += '.';
        number(out, f.nanos / 1000, 6, 0, '0');
        break;
      case Item::Frac9:
      case Item::Frac9NoDot:
        if (it.kind == Item::Frac9) out += '.';
        number(out, f.nanos, 9, 0, '0');
        break;
      case Item::Abbreviation: out += f.abbreviation; break;
      case Item::OffsetPlain: offset_text(out, f.offset, 0, false); break;
      case Item::OffsetColon: offset_text(out, f.offset, 1, false); break;
      case Item::OffsetColonSeconds: offset_text(out, f.offset, 2, true); break;
      case Item::OffsetHours: {
        char buf[8];
        const int32_t a = f.offset < 0 ? -f.offset : f.offset;
        std::snprintf(buf, sizeof buf, "%c%02d", f.offset < 0 ? '-' : '+', a / 3600);
        out += buf;
        break;
      }
      case Item::UnixSeconds: out += std::to_string(f.unix_seconds); break;
    }
  }
}

ArrayRef format_rows(const Array& a, const std::vector<Item>& items, int64_t ups, bool is_date, bool is_time,
                     tz::ZoneCursor* zone) {
  const int64_t n = a.length();
  ViewBuilder b(DataType::string(), n);
  std::string buf;
  for (int64_t i = 0; i < n; ++i) {
    if (a.is_null(i)) {
      b.push_null();
      continue;
    }
    Fields f;
    int64_t v;
    if (is_date) v = int64_t{a.values<int32_t>()[i]} * 86'400 * ups;
    else v = a.values<int64_t>()[i];
    f.unix_seconds = floor_div(v, ups);
    if (zone) {
      const tz::Offset off = zone->zone().offset_at(f.unix_seconds);
      f.offset = off.total;
      f.abbreviation = off.abbreviation;
      v += static_cast<int64_t>(off.total) * ups;
    }
    const int64_t secs = floor_div(v, ups);
    f.nanos = (v - secs * ups) * (1'000'000'000 / ups);
    f.days = is_time ? 0 : floor_div(secs, 86'400);
    f.seconds_of_day = secs - f.days * 86'400;
    const CivilDate c = civil_from_days(f.days);
    f.year = c.year;
    f.month = c.month;
    f.day = c.day;
    buf.clear();
    render(items, f, buf);
    b.push(buf);
  }
  return b.finish();
}

}  // namespace

std::string format_duration_iso(int64_t v, TimeUnit unit) {
  if (v == 0) return "PT0S";
  const int64_t ups = units_per_second(unit);
  const int64_t sizes[] = {86'400 * ups, 3600 * ups, 60 * ups, ups};
  const char* parts[] = {"D", "H", "M", "S"};
  std::string s = v < 0 ? "-P" : "P";
  // (|INT64_MIN| does not fit: the magnitude is taken as unsigned.)
  const uint64_t a = v < 0 ? -static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  bool wrote = false;
  for (int k = 0; k < 4; ++k) {
    const uint64_t size = static_cast<uint64_t>(sizes[k]);
    const uint64_t whole = k == 0 ? a / size : (a % static_cast<uint64_t>(sizes[k - 1])) / size;
    if (whole != 0 || k == 3) {
      if (k != 3) {
        s += std::to_string(whole) + parts[k];
      } else {
        const uint64_t frac = a % size;
        if (whole == 0 && frac == 0) {
          if (!wrote) s += "0S";
        } else {
          s += std::to_string(whole);
          if (frac) {
            char buf[32];
            const int digits = unit == TimeUnit::Nanoseconds ? 9 : unit == TimeUnit::Microseconds ? 6 : 3;
            std::snprintf(buf, sizeof buf, ".%0*llu", digits, static_cast<unsigned long long>(frac));
            std::string f(buf);
            while (f.back() == '0') f.pop_back();
            s += f;
          }
          s += "S";
        }
      }
      if (k == 0) s += "T";
      wrote = true;
    } else if (k == 0) {
      s += "T";
    }
  }
  if (s.back() == 'T') s.pop_back();
  return s;
}

ArrayRef strftime(const Array& values, const std::string& format) {
  const DataType& t = values.dtype();
  if (t.is_null()) return make_null_array(DataType::string(), values.length());
  const bool iso = format == "iso" || format == "iso:strict";
  if (t.id() == TypeId::Duration) {
    if (!iso && format != "polars")
      throw InvalidOperationError(
          err_msg("format \"", format, "\" not supported for Duration type (expected one of 'iso' or 'polars')"));
    ViewBuilder b(DataType::string(), values.length());
    for (int64_t i = 0; i < values.length(); ++i) {
      if (values.is_null(i)) b.push_null();
      else {
        const int64_t v = values.values<int64_t>()[i];
        b.push(iso ? format_duration_iso(v, t.time_unit()) : format_duration(v, t.time_unit()));
      }
    }
    return b.finish();
  }
  if (format == "polars")
    throw InvalidOperationError(err_msg("'polars' is not a valid `to_string` format for ", t, " dtype expressions"));
  std::string f = format;
  const char* sep = format == "iso" ? " " : "T";
  if (iso) {
    switch (t.id()) {
      case TypeId::Date: f = "%F"; break;
      case TypeId::Time: f = "%T%.f"; break;
      case TypeId::Datetime: {
        const TimeUnit u = t.time_unit();
        f = std::string("%F") + sep + "%T" + (u == TimeUnit::Milliseconds ? "%.3f" : u == TimeUnit::Microseconds ? "%.6f" : "%.9f") +
            (t.time_zone() ? "%:z" : "");
        break;
      }
      default: break;
    }
  }
  const char* what = t.id() == TypeId::Date ? "Date"
                     : t.id() == TypeId::Time ? "Time"
                     : t.time_zone()          ? "timezone-aware Datetime"
                                              : "timezone-naive Datetime";
  if (t.id() != TypeId::Date && t.id() != TypeId::Time && t.id() != TypeId::Datetime)
    temporal_not_supported("to_string", t);
  Needs needs;
  auto items = compile(f, needs);
  const bool bad = !items || (t.id() == TypeId::Date && needs.time) || (t.id() == TypeId::Time && needs.date) ||
                   (needs.offset && !(t.id() == TypeId::Datetime && t.time_zone()));
  if (bad) throw ComputeError(err_msg("cannot format ", what, " with format '", f, "'"));
  if (t.id() == TypeId::Date) return format_rows(values, *items, 1, true, false, nullptr);
  if (t.id() == TypeId::Time) return format_rows(values, *items, 1'000'000'000, false, true, nullptr);
  std::optional<tz::ZoneCursor> cursor;
  if (t.time_zone()) cursor.emplace(tz::TimeZone::get(*t.time_zone()));
  return format_rows(values, *items, units_per_second(t.time_unit()), false, false, cursor ? &*cursor : nullptr);
}

}  // namespace frazil::compute
