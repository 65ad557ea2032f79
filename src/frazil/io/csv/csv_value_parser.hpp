// Parsing of one CSV field's text into a typed value, and the classification used by
// schema inference. Header-only: these run once per field and must inline.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fast_float/fast_float.h>

#include "frazil/core/calendar.hpp"
#include "frazil/core/dtype.hpp"

namespace frazil::io::csv_detail {

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

// Strips spaces around a value that is to be parsed as a number, bool or temporal.
inline void trim_spaces(const char*& b, const char*& e) {
  while (b < e && *b == ' ') ++b;
  while (e > b && e[-1] == ' ') --e;
}

// Integers: optional sign, decimal digits, nothing else; false on overflow or bad input.
template <typename T>
inline bool parse_int(const char* b, const char* e, T& out) {
  trim_spaces(b, e);
  if (b == e) return false;
  bool neg = false;
  if (*b == '-' || *b == '+') {
    neg = *b == '-';
    if (++b == e) return false;
  }
  if constexpr (std::is_unsigned_v<T>) {
    if (neg) {
      // "-0" is still zero.
      for (const char* p = b; p < e; ++p)
        if (*p != '0') return false;
      out = 0;
      return true;
    }
  }
  // Accumulate in uint64 (negated at the end) and check the range once.
  uint64_t v = 0;
  const ptrdiff_t n = e - b;
  if (n <= 19) {
    // 19 digits always fit in uint64.
    for (const char* p = b; p < e; ++p) {
      unsigned d = static_cast<unsigned char>(*p - '0');
      if (d > 9) return false;
      v = v * 10 + d;
    }
  } else {
    for (const char* p = b; p < e; ++p) {
      unsigned d = static_cast<unsigned char>(*p - '0');
      if (d > 9) return false;
      if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v)) {
        // Keep validating so that "123...x" is a syntax error, then report overflow.
        for (++p; p < e; ++p)
          if (!is_digit(*p)) return false;
        return false;
      }
    }
  }
  if constexpr (std::is_signed_v<T>) {
    const uint64_t max_pos = static_cast<uint64_t>(std::numeric_limits<T>::max());
    if (neg) {
      if (v > max_pos + 1) return false;
      out = static_cast<T>(0 - v);
    } else {
      if (v > max_pos) return false;
      out = static_cast<T>(v);
    }
  } else {
    if (v > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    out = static_cast<T>(v);
  }
  return true;
}

// true/false, case-insensitive.
inline bool parse_bool(const char* b, const char* e, bool& out) {
  trim_spaces(b, e);
  auto eq = [&](const char* word, size_t n) {
    if (static_cast<size_t>(e - b) != n) return false;
    for (size_t i = 0; i < n; ++i)
      if ((b[i] | 0x20) != word[i]) return false;
    return true;
  };
  if (eq("true", 4)) return out = true, true;
  if (eq("false", 5)) return out = false, true;
  return false;
}

// Floats through fast_float; accepts a leading '+', inf/nan spellings, and with
// decimal_comma a ',' as the decimal point.
template <typename T>
inline bool parse_float(const char* b, const char* e, T& out, bool decimal_comma) {
  trim_spaces(b, e);
  if (b == e) return false;
  if (*b == '+') {
    ++b;
    if (b == e || *b == '-' || *b == '+') return false;
  }
  if (decimal_comma) {
    char buf[64];
    size_t n = static_cast<size_t>(e - b);
    if (n > sizeof buf) return false;
    for (size_t i = 0; i < n; ++i) {
      char c = b[i];
      if (c == '.') return false;
      buf[i] = c == ',' ? '.' : c;
    }
    auto r = fast_float::from_chars(buf, buf + n, out);
    return r.ec == std::errc() && r.ptr == buf + n;
  }
  if constexpr (std::is_same_v<T, double>) {
    // Fast path for plain decimals ("-123.45"): with at most 15 digits the mantissa and
    // the power of ten are exact doubles, so one division is correctly rounded.
    static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = b;
    const bool neg = *p == '-';
    p += neg;
    uint64_t m = 0;
    int digits = 0, frac = 0;
    while (p < e && is_digit(*p) && digits < 16) {
      m = m * 10 + static_cast<unsigned>(*p++ - '0');
      ++digits;
    }
    if (p < e && *p == '.' && digits > 0) {
      ++p;
      while (p < e && is_digit(*p) && digits < 16) {
        m = m * 10 + static_cast<unsigned>(*p++ - '0');
        ++digits;
        ++frac;
      }
    }
    if (p == e && digits > 0 && digits <= 15) {
      double v = static_cast<double>(m) / kPow10[frac];
      out = neg ? -v : v;
      return true;
    }
  }
  auto r = fast_float::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

inline bool read_digits(const char*& p, const char* e, int min_n, int max_n, int64_t& out) {
  int64_t v = 0;
  int n = 0;
  while (p < e && n < max_n && is_digit(*p)) {
    v = v * 10 + (*p - '0');
    ++p;
    ++n;
  }
  out = v;
  return n >= min_n;
}

inline bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
inline bool valid_ymd(int64_t y, int64_t m, int64_t d) {
  static constexpr uint8_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  int64_t dim = kDays[m - 1] + (m == 2 && is_leap(y));
  return d <= dim;
}

// The date part: YYYY-MM-DD (also '/' or '.', 1- or 2-digit month and day) or DD-MM-YYYY.
// Advances p past it.
inline bool parse_date_part(const char*& p, const char* e, int32_t& days) {
  const char* s = p;
  int64_t a, m, c;
  if (!read_digits(p, e, 1, 4, a)) return false;
  if (p >= e || (*p != '-' && *p != '/' && *p != '.')) return false;
  const char sep = *p++;
  const bool year_first = p - s == 5;
  if (!year_first && p - s > 3) return false;
  if (!read_digits(p, e, 1, 2, m)) return false;
  if (p >= e || *p != sep) return false;
  ++p;
  int64_t y, d;
  if (year_first) {
    if (!read_digits(p, e, 1, 2, c)) return false;
    y = a;
    d = c;
  } else {
    const char* ys = p;
    if (!read_digits(p, e, 4, 4, c)) return false;
    (void)ys;
    y = c;
    d = a;
  }
  if (!valid_ymd(y, m, d)) return false;
  days = static_cast<int32_t>(days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)));
  return true;
}

inline bool parse_date(const char* b, const char* e, int32_t& out) {
  // Fast path for ISO dates.
  if (e - b == 10 && b[4] == '-' && b[7] == '-') {
    int64_t y = 0, m = 0, d = 0;
    for (int i = 0; i < 4; ++i) {
      if (!is_digit(b[i])) return false;
      y = y * 10 + (b[i] - '0');
    }
    if (!is_digit(b[5]) || !is_digit(b[6]) || !is_digit(b[8]) || !is_digit(b[9])) return false;
    m = (b[5] - '0') * 10 + (b[6] - '0');
    d = (b[8] - '0') * 10 + (b[9] - '0');
    if (!valid_ymd(y, m, d)) return false;
    out = static_cast<int32_t>(days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)));
    return true;
  }
  trim_spaces(b, e);
  const char* p = b;
  return parse_date_part(p, e, out) && p == e;
}

// HH:MM[:SS[.fraction]] as nanoseconds since midnight (seconds required unless
// `seconds_optional`).
inline bool parse_time_part(const char*& p, const char* e, bool seconds_optional, int64_t& nanos) {
  int64_t h, mi, s = 0, frac = 0;
  if (!read_digits(p, e, 1, 2, h) || p >= e || *p != ':') return false;
  ++p;
  if (!read_digits(p, e, 2, 2, mi)) return false;
  if (p < e && *p == ':') {
    ++p;
    if (!read_digits(p, e, 2, 2, s)) return false;
    if (p < e && *p == '.') {
      ++p;
      int n = 0;
      while (p < e && is_digit(*p)) {
        if (n < 9) frac = frac * 10 + (*p - '0');
        ++n;
        ++p;
      }
      if (n == 0) return false;
      for (int i = n; i < 9; ++i) frac *= 10;
    }
  } else if (!seconds_optional) {
    return false;
  }
  if (h > 23 || mi > 59 || s > 60) return false;
  nanos = ((h * 60 + mi) * 60 + s) * 1'000'000'000 + frac;
  return true;
}

inline bool parse_time(const char* b, const char* e, int64_t& nanos) {
  trim_spaces(b, e);
  const char* p = b;
  return parse_time_part(p, e, true, nanos) && p == e;
}

// A date, optionally followed by 'T' or ' ' and a time, optionally followed by 'Z' or an
// offset (+HH, +HHMM, +HH:MM); the result is in `unit` since the epoch, in UTC when an
// offset was given (has_offset tells).
inline bool parse_datetime(const char* b, const char* e, TimeUnit unit, int64_t& out,
                           bool& has_offset) {
  trim_spaces(b, e);
  const char* p = b;
  int32_t days;
  if (!parse_date_part(p, e, days)) return false;
  int64_t nanos = 0;
  has_offset = false;
  int64_t offset_secs = 0;
  if (p < e) {
    if (*p != 'T' && *p != ' ') return false;
    ++p;
    if (!parse_time_part(p, e, true, nanos)) return false;
    if (p < e) {
      if (*p == 'Z') {
        ++p;
        has_offset = true;
      } else if (*p == '+' || *p == '-') {
        const bool neg = *p == '-';
        ++p;
        int64_t oh, om = 0;
        if (!read_digits(p, e, 2, 2, oh)) return false;
        if (p < e && *p == ':') ++p;
        if (p < e && !read_digits(p, e, 2, 2, om)) return false;
        if (oh > 23 || om > 59) return false;
        offset_secs = (oh * 60 + om) * 60 * (neg ? -1 : 1);
        has_offset = true;
      }
    }
    if (p != e) return false;
  }
  const int64_t secs = int64_t(days) * 86400 - offset_secs;
  switch (unit) {
    case TimeUnit::Nanoseconds:
      // Out of int64 range for years far from 1970.
      if (__builtin_mul_overflow(secs, int64_t(1'000'000'000), &out) ||
          __builtin_add_overflow(out, nanos, &out))
        return false;
      return true;
    case TimeUnit::Microseconds: out = secs * 1'000'000 + nanos / 1000; return true;
    case TimeUnit::Milliseconds: out = secs * 1'000 + nanos / 1'000'000; return true;
  }
  return false;
}

// What a field could be, for schema inference (Polars' rules: "+1" and " 1" are strings,
// booleans are true/false in any case, dates only with try_parse_dates).
enum class ValueKind : uint8_t { Int, BigInt, Float, Bool, Date, Datetime, DatetimeTz, Time, String };

// Polars' float pattern: [-+]?(\d*\.\d+([eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+\.|inf|NaN)
inline bool looks_like_float(const char* b, const char* e, char point) {
  const char* p = b;
  if (p < e && (*p == '-' || *p == '+')) ++p;
  const size_t rest = static_cast<size_t>(e - p);
  if (rest == 3 && (std::memcmp(p, "inf", 3) == 0 || std::memcmp(p, "NaN", 3) == 0)) return true;
  const char* d0 = p;
  while (p < e && is_digit(*p)) ++p;
  const ptrdiff_t int_digits = p - d0;
  if (p < e && *p == point) {
    ++p;
    const char* f0 = p;
    while (p < e && is_digit(*p)) ++p;
    if (p == f0) return int_digits > 0 && p == e;  // "5."
  } else if (int_digits == 0 || p >= e) {
    return false;  // no digits, or a plain integer
  }
  if (p == e) return true;
  if (*p != 'e' && *p != 'E') return false;
  ++p;
  if (p < e && (*p == '+' || *p == '-')) ++p;
  const char* x0 = p;
  while (p < e && is_digit(*p)) ++p;
  return p > x0 && p == e;
}

inline ValueKind classify_value(const char* b, const char* e, bool try_parse_dates, bool decimal_comma) {
  if (b == e) return ValueKind::String;
  // Integers: -?\d+
  {
    const char* p = b;
    if (*p == '-') ++p;
    if (p < e) {
      const char* d = p;
      while (p < e && is_digit(*p)) ++p;
      if (p == e) {
        int64_t v;
        return parse_int(b, e, v) ? ValueKind::Int : ValueKind::BigInt;
      }
      (void)d;
    }
  }
  if (looks_like_float(b, e, decimal_comma ? ',' : '.')) return ValueKind::Float;
  bool bv;
  if (*b != ' ' && e[-1] != ' ' && parse_bool(b, e, bv)) return ValueKind::Bool;
  if (try_parse_dates && *b != ' ' && e[-1] != ' ') {
    int32_t days;
    if (parse_date(b, e, days)) return ValueKind::Date;
    int64_t v;
    bool tz;
    if (parse_datetime(b, e, TimeUnit::Microseconds, v, tz)) return tz ? ValueKind::DatetimeTz : ValueKind::Datetime;
    if (parse_time(b, e, v)) return ValueKind::Time;
  }
  return ValueKind::String;
}

}  // namespace frazil::io::csv_detail
