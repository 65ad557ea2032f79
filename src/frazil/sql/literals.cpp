#include "frazil/sql/literals.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>

#include "frazil/compute/cast_format.hpp"
#include "frazil/core/calendar.hpp"

namespace frazil::sql {

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Unit name -> (months, micros) per unit.
std::optional<std::pair<int64_t, double>> unit_size(const std::string& unit) {
  static const std::map<std::string, std::pair<int64_t, double>> units = {
      {"millennium", {12000, 0}}, {"millennia", {12000, 0}}, {"century", {1200, 0}},  {"centuries", {1200, 0}},
      {"decade", {120, 0}},       {"decades", {120, 0}},     {"year", {12, 0}},       {"years", {12, 0}},
      {"yr", {12, 0}},            {"yrs", {12, 0}},          {"y", {12, 0}},          {"quarter", {3, 0}},
      {"quarters", {3, 0}},       {"month", {1, 0}},         {"months", {1, 0}},      {"mon", {1, 0}},
      {"mons", {1, 0}},           {"mo", {1, 0}},            {"week", {0, 7.0 * kMicrosPerDay}},
      {"weeks", {0, 7.0 * kMicrosPerDay}}, {"w", {0, 7.0 * kMicrosPerDay}},
      {"day", {0, kMicrosPerDay}}, {"days", {0, kMicrosPerDay}}, {"d", {0, kMicrosPerDay}},
      {"hour", {0, 3600.0 * kMicrosPerSecond}}, {"hours", {0, 3600.0 * kMicrosPerSecond}},
      {"hr", {0, 3600.0 * kMicrosPerSecond}},   {"hrs", {0, 3600.0 * kMicrosPerSecond}},
      {"h", {0, 3600.0 * kMicrosPerSecond}},    {"minute", {0, 60.0 * kMicrosPerSecond}},
      {"minutes", {0, 60.0 * kMicrosPerSecond}}, {"min", {0, 60.0 * kMicrosPerSecond}},
      {"mins", {0, 60.0 * kMicrosPerSecond}},   {"m", {0, 60.0 * kMicrosPerSecond}},
      {"second", {0, kMicrosPerSecond}},        {"seconds", {0, kMicrosPerSecond}},
      {"sec", {0, kMicrosPerSecond}},           {"secs", {0, kMicrosPerSecond}},
      {"s", {0, kMicrosPerSecond}},             {"millisecond", {0, 1000}},
      {"milliseconds", {0, 1000}},              {"ms", {0, 1000}},
      {"microsecond", {0, 1}},                  {"microseconds", {0, 1}},
      {"us", {0, 1}},                           {"nanosecond", {0, 0.001}},
      {"nanoseconds", {0, 0.001}},              {"ns", {0, 0.001}},
  };
  auto it = units.find(lower(unit));
  if (it == units.end()) return std::nullopt;
  return it->second;
}

// PostgreSQL's interval field bits (utils/datetime.h): the largest field of a mask.
std::optional<std::string> mask_unit(int mask) {
  if (mask & (1 << 12)) return "second";
  if (mask & (1 << 11)) return "minute";
  if (mask & (1 << 10)) return "hour";
  if (mask & (1 << 3)) return "day";
  if (mask & (1 << 1)) return "month";
  if (mask & (1 << 2)) return "year";
  return std::nullopt;
}

int days_in_month(int64_t year, unsigned month) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2) {
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return leap ? 29 : 28;
  }
  return days[month - 1];
}

int64_t add_months_to_days(int64_t days, int64_t months) {
  CivilDate d = civil_from_days(days);
  int64_t total = d.year * 12 + (d.month - 1) + months;
  int64_t year = total >= 0 ? total / 12 : (total - 11) / 12;
  unsigned month = static_cast<unsigned>(total - year * 12) + 1;
  unsigned day = std::min<unsigned>(d.day, days_in_month(year, month));
  return days_from_civil(year, month, day);
}

}  // namespace

std::optional<double> parse_double(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  if (errno == ERANGE && std::isinf(value)) return std::nullopt;
  return value;
}

std::optional<Interval> parse_interval(const std::string& text, int unit_mask) {
  Interval out;
  size_t i = 0;
  const size_t n = text.size();
  auto skip_space = [&] {
    while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip_space();
  if (i == n) return std::nullopt;
  bool any = false;
  while (i < n) {
    skip_space();
    if (i == n) break;
    // [+-]number
    size_t start = i;
    if (text[i] == '+' || text[i] == '-') ++i;
    while (i < n && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    if (i == start || (i == start + 1 && (text[start] == '+' || text[start] == '-'))) return std::nullopt;
    // hh:mm[:ss[.f]]
    if (i < n && text[i] == ':') {
      const bool negative = text[start] == '-';
      size_t p = start + (negative || text[start] == '+' ? 1 : 0);
      double parts[3] = {0, 0, 0};
      int count = 0;
      size_t q = p;
      while (count < 3) {
        size_t s = q;
        while (q < n && (std::isdigit(static_cast<unsigned char>(text[q])) || text[q] == '.')) ++q;
        if (q == s) return std::nullopt;
        const auto part = parse_double(text.substr(s, q - s));
        if (!part) return std::nullopt;
        parts[count++] = *part;
        if (q < n && text[q] == ':') {
          ++q;
          continue;
        }
        break;
      }
      if (count < 2) return std::nullopt;
      double micros = (parts[0] * 3600 + parts[1] * 60 + parts[2]) * kMicrosPerSecond;
      out.micros += static_cast<int64_t>(std::llround(negative ? -micros : micros));
      i = q;
      any = true;
      continue;
    }
    const auto number = parse_double(text.substr(start, i - start));
    if (!number) return std::nullopt;
    const double value = *number;
    skip_space();
    size_t unit_start = i;
    while (i < n && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    std::string unit = text.substr(unit_start, i - unit_start);
    if (unit.empty()) {
      auto m = mask_unit(unit_mask);
      if (!m) {
        if (any) return std::nullopt;
        m = "second";  // PostgreSQL reads a bare number as seconds
      }
      unit = *m;
    }
    auto size = unit_size(unit);
    if (!size) return std::nullopt;
    if (size->first) {
      const double months = value * static_cast<double>(size->first);
      if (months != std::floor(months)) return std::nullopt;
      out.months += static_cast<int64_t>(months);
    } else {
      out.micros += static_cast<int64_t>(std::llround(value * size->second));
    }
    any = true;
    skip_space();
    if (i < n && text[i] == ',') ++i;
  }
  if (!any) return std::nullopt;
  return out;
}

std::optional<Scalar> parse_typed_literal(const std::string& text, const DataType& dtype) {
  switch (dtype.id()) {
    case TypeId::Date: {
      int32_t days = 0;
      if (!compute::parse_date(text, days)) {
        // A timestamp text also names a date (its day).
        int64_t us = 0;
        if (!compute::parse_datetime(text, TimeUnit::Microseconds, us)) return std::nullopt;
        days = static_cast<int32_t>(us >= 0 ? us / kMicrosPerDay : (us - kMicrosPerDay + 1) / kMicrosPerDay);
      }
      return Scalar(dtype, static_cast<int64_t>(days));
    }
    case TypeId::Datetime: {
      int64_t v = 0;
      if (!compute::parse_datetime(text, dtype.time_unit(), v)) return std::nullopt;
      return Scalar(dtype, v);
    }
    case TypeId::Time: {
      auto iv = parse_interval(text);
      if (!iv || iv->months != 0 || iv->micros < 0 || iv->micros >= kMicrosPerDay) return std::nullopt;
      return Scalar(dtype, iv->micros * 1000);
    }
    case TypeId::Duration: {
      auto iv = parse_interval(text);
      if (!iv || iv->months != 0) return std::nullopt;
      int64_t v = iv->micros;
      if (dtype.time_unit() == TimeUnit::Nanoseconds) v *= 1000;
      if (dtype.time_unit() == TimeUnit::Milliseconds) v /= 1000;
      return Scalar(dtype, v);
    }
    default: return std::nullopt;
  }
}

Scalar add_interval(const Scalar& value, const Interval& interval, int sign) {
  if (value.is_null()) return value;
  const DataType& t = value.dtype();
  if (t.id() == TypeId::Date) {
    int64_t days = add_months_to_days(value.as_int64(), sign * interval.months);
    const int64_t micros = sign * interval.micros;
    if (micros % kMicrosPerDay == 0) return Scalar(t, days + micros / kMicrosPerDay);
    // A date moved by hours is a datetime.
    return Scalar(DataType::datetime(TimeUnit::Microseconds), days * kMicrosPerDay + micros);
  }
  // Datetime
  const int64_t per_second = t.time_unit() == TimeUnit::Nanoseconds ? 1'000'000'000
                             : t.time_unit() == TimeUnit::Microseconds ? 1'000'000
                                                                      : 1'000;
  const int64_t per_day = per_second * 86'400;
  int64_t v = value.as_int64();
  int64_t days = v >= 0 ? v / per_day : (v - per_day + 1) / per_day;
  int64_t within = v - days * per_day;
  days = add_months_to_days(days, sign * interval.months);
  int64_t delta = sign * interval.micros;
  delta = per_second == 1'000'000 ? delta : per_second > 1'000'000 ? delta * 1000 : delta / 1000;
  return Scalar(t, days * per_day + within + delta);
}

std::optional<DataType> sql_type(const std::string& raw, const std::vector<int64_t>& mods) {
  const std::string name = lower(raw);
  static const std::map<std::string, DataType> simple = {
      {"bool", DataType::boolean()},     {"boolean", DataType::boolean()}, {"logical", DataType::boolean()},
      {"int1", DataType::int8()},        {"tinyint", DataType::int8()},    {"int2", DataType::int16()},
      {"smallint", DataType::int16()},   {"short", DataType::int16()},     {"int4", DataType::int32()},
      {"int", DataType::int32()},        {"integer", DataType::int32()},   {"signed", DataType::int32()},
      {"int8", DataType::int64()},       {"bigint", DataType::int64()},    {"long", DataType::int64()},
      {"int16", DataType::int16()},      {"int32", DataType::int32()},     {"int64", DataType::int64()},
      {"uint1", DataType::uint8()},      {"utinyint", DataType::uint8()},  {"uint2", DataType::uint16()},
      {"usmallint", DataType::uint16()}, {"uint4", DataType::uint32()},    {"uinteger", DataType::uint32()},
      {"uint8", DataType::uint64()},     {"ubigint", DataType::uint64()},  {"uint16", DataType::uint16()},
      {"uint32", DataType::uint32()},    {"uint64", DataType::uint64()},   {"float4", DataType::float32()},
      {"real", DataType::float32()},     {"float32", DataType::float32()}, {"float8", DataType::float64()},
      {"double", DataType::float64()},   {"float64", DataType::float64()},
      {"text", DataType::string()},      {"varchar", DataType::string()},  {"bpchar", DataType::string()},
      {"char", DataType::string()},      {"string", DataType::string()},   {"str", DataType::string()},
      {"utf8", DataType::string()},      {"character", DataType::string()}, {"nvarchar", DataType::string()},
      {"bytea", DataType::binary()},     {"blob", DataType::binary()},     {"binary", DataType::binary()},
      {"varbinary", DataType::binary()}, {"bytes", DataType::binary()},    {"date", DataType::date()},
      {"time", DataType::time()},        {"interval", DataType::duration(TimeUnit::Microseconds)},
  };
  auto it = simple.find(name);
  if (it != simple.end()) return it->second;
  if (name == "float") return mods.empty() || mods[0] > 24 ? DataType::float64() : DataType::float32();
  if (name == "decimal" || name == "dec" || name == "numeric") {
    if (mods.empty()) return DataType::decimal(38, 9);
    const int precision = static_cast<int>(mods[0]);
    const int scale = mods.size() > 1 ? static_cast<int>(mods[1]) : 0;
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) return std::nullopt;
    return DataType::decimal(precision, scale);
  }
  if (name == "timestamp" || name == "datetime" || name == "timestamptz" || name == "timestamp_ns" ||
      name == "timestamp_ms" || name == "timestamp_us" || name == "timestamp_s") {
    TimeUnit unit = TimeUnit::Microseconds;
    if (name == "timestamp_ns") unit = TimeUnit::Nanoseconds;
    if (name == "timestamp_ms" || name == "timestamp_s") unit = TimeUnit::Milliseconds;
    if (!mods.empty()) {
      if (mods[0] <= 3) unit = TimeUnit::Milliseconds;
      else if (mods[0] > 6) unit = TimeUnit::Nanoseconds;
    }
    if (name == "timestamptz") return DataType::datetime(unit, std::string("UTC"));
    return DataType::datetime(unit);
  }
  return std::nullopt;
}

std::vector<std::string> sql_type_names() {
  return {"boolean",  "tinyint", "smallint",  "integer", "bigint",    "utinyint", "usmallint", "uinteger",
          "ubigint",  "real",    "float",     "double",  "decimal",   "varchar",  "text",      "string",
          "bytea",    "blob",    "date",      "time",    "timestamp", "datetime", "interval",  "int1",
          "int2",     "int4",    "int8",      "uint1",   "uint2",     "uint4",    "uint8",     "float4",
          "float8",   "int64",   "uint64",    "float32", "float64",   "timestamptz"};
}

}  // namespace frazil::sql
