#include "frazil/compute/cast_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "frazil/core/calendar.hpp"

namespace frazil::compute {

namespace {

// Shortest round-trip digits of a finite non-zero float and its decimal exponent k such
// that value = 0.d1d2d3... * 10^k.
template <typename T>
void shortest_digits(T v, std::string& digits, int& k, bool& neg) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view s(buf, static_cast<size_t>(r.ptr - buf));
  neg = s[0] == '-';
  if (neg) s.remove_prefix(1);
  const size_t e = s.find('e');
  digits.clear();
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') digits.push_back(s[i]);
  int exp = 0;
  std::from_chars(s.data() + e + 1 + (s[e + 1] == '+'), s.data() + s.size(), exp);
  k = exp + 1;
}

template <typename T>
std::string format_float_impl(T v, int max_k, int min_k) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  std::string digits;
  int k;
  bool neg;
  shortest_digits(v, digits, k, neg);
  std::string out = neg ? "-" : "";
  const int n = static_cast<int>(digits.size());
  if (k > max_k || k <= min_k) {
    out += digits[0];
    if (n > 1) {
      out.push_back('.');
      out.append(digits, 1, std::string::npos);
    }
    const int e = k - 1;
    out += e < 0 ? "e-" : "e+";
    out += std::to_string(e < 0 ? -e : e);
    return out;
  }
  if (k <= 0) return out + "0." + std::string(static_cast<size_t>(-k), '0') + digits;
  if (n <= k) return out + digits + std::string(static_cast<size_t>(k - n), '0') + ".0";
  return out + digits.substr(0, static_cast<size_t>(k)) + "." + digits.substr(static_cast<size_t>(k));
}

inline bool digit(char c) { return c >= '0' && c <= '9'; }

// Reads 1..max_len digits at s[p].
bool read_num(std::string_view s, size_t& p, int min_len, int max_len, int64_t& v) {
  v = 0;
  int len = 0;
  while (p < s.size() && digit(s[p]) && len < max_len) {
    v = v * 10 + (s[p] - '0');
    ++p;
    ++len;
  }
  return len >= min_len;
}

unsigned days_in_month(int64_t y, unsigned m) {
  static const unsigned d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : d[m - 1];
}

// Parses the date part at s[p], leaving p after it.
bool parse_date_at(std::string_view s, size_t& p, int64_t& days) {
  while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
  bool neg = false;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) neg = s[p++] == '-';
  int64_t y, m, d;
  if (!read_num(s, p, 4, 6, y)) return false;
  if (p >= s.size() || (s[p] != '-' && s[p] != '/')) return false;
  const char sep = s[p++];
  if (!read_num(s, p, 1, 2, m)) return false;
  if (p >= s.size() || s[p] != sep) return false;
  ++p;
  if (!read_num(s, p, 1, 2, d)) return false;
  if (neg) y = -y;
  if (m < 1 || m > 12 || d < 1 || d > days_in_month(y, static_cast<unsigned>(m))) return false;
  days = days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  return true;
}

}  // namespace

std::string format_float(double v) { return format_float_impl(v, 16, -5); }
std::string format_float(float v) { return format_float_impl(v, 13, -6); }

std::string format_float_short(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e10 || a < 1e-5)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.4e", v);
    // "1.0000e+10" -> "1.0000e10", "1.0000e-07" -> "1.0000e-7"
    std::string s(buf);
    const size_t e = s.find('e');
    std::string mant = s.substr(0, e);
    const int exp = std::atoi(s.c_str() + e + 1);
    return mant + "e" + std::to_string(exp);
  }
  return format_float_impl(v, 16, -5);
}

std::string format_datetime_fixed(int64_t value, TimeUnit unit) {
  const int64_t ups = units_per_second(unit);
  const int64_t secs = floor_div(value, ups);
  const int64_t frac = value - secs * ups;
  const int64_t days = floor_div(secs, 86'400);
  const int64_t sod = secs - days * 86'400;
  const int digits = unit == TimeUnit::Nanoseconds ? 9 : unit == TimeUnit::Microseconds ? 6 : 3;
  char buf[80];
  std::snprintf(buf, sizeof buf, "%s %02lld:%02lld:%02lld.%0*lld", format_date(static_cast<int32_t>(days)).c_str(),
                static_cast<long long>(sod / 3600), static_cast<long long>(sod / 60 % 60),
                static_cast<long long>(sod % 60), digits, static_cast<long long>(frac));
  return buf;
}

std::string format_time_seconds(int64_t nanos) {
  const int64_t secs = nanos / 1'000'000'000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(secs / 3600),
                static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  return buf;
}

std::string format_decimal(__int128 value, int scale) {
  const bool neg = value < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
  // Digits right to left into a fixed buffer (at most 39 digits, a point and a sign).
  char buf[96];
  char* end = buf + sizeof buf;
  char* p = end;
  int written = 0;
  do {
    if (scale > 0 && written == scale) *--p = '.';
    *--p = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
    ++written;
  } while (u || written <= scale);
  if (neg) *--p = '-';
  return std::string(p, end);
}

bool parse_date(std::string_view s, int32_t& out) {
  size_t p = 0;
  int64_t days;
  if (!parse_date_at(s, p, days) || p != s.size()) return false;
  if (days < INT32_MIN || days > INT32_MAX) return false;
  out = static_cast<int32_t>(days);
  return true;
}

bool parse_datetime(std::string_view s, TimeUnit unit, int64_t& out) {
  size_t p = 0;
  int64_t days;
  if (!parse_date_at(s, p, days)) return false;
  int64_t h = 0, mi = 0, sec = 0, frac_units = 0;
  const int64_t ups = units_per_second(unit);
  if (p < s.size()) {
    if (s[p] != ' ' && s[p] != 'T') return false;
    ++p;
    if (!read_num(s, p, 1, 2, h) || p >= s.size() || s[p] != ':') return false;
    ++p;
    if (!read_num(s, p, 2, 2, mi)) return false;
    if (p < s.size() && s[p] == ':') {
      ++p;
      if (!read_num(s, p, 2, 2, sec)) return false;
      if (p < s.size() && s[p] == '.') {
        ++p;
        // Up to 9 digits, scaled to the unit (extra digits truncated).
        int64_t ns = 0;
        int nd = 0;
        while (p < s.size() && digit(s[p])) {
          if (nd < 9) ns = ns * 10 + (s[p] - '0'), ++nd;
          ++p;
        }
        if (nd == 0) return false;
        for (int k = nd; k < 9; ++k) ns *= 10;
        frac_units = ns / (1'000'000'000 / ups);
      }
    }
    if (h > 23 || mi > 59 || sec > 60) return false;
  }
  int64_t offset_secs = 0;
  if (p < s.size()) {
    if (s[p] == 'Z') {
      ++p;
    } else if (s[p] == '+' || s[p] == '-') {
      const bool neg = s[p++] == '-';
      int64_t oh, om = 0;
      if (!read_num(s, p, 2, 2, oh)) return false;
      if (p < s.size() && s[p] == ':') ++p;
      if (p < s.size() && !read_num(s, p, 2, 2, om)) return false;
      offset_secs = (oh * 3600 + om * 60) * (neg ? -1 : 1);
    }
    if (p != s.size()) return false;
  }
  const int64_t secs = days * 86'400 + h * 3600 + mi * 60 + sec - offset_secs;
  int64_t v;
  if (__builtin_mul_overflow(secs, ups, &v) || __builtin_add_overflow(v, frac_units, &v)) return false;
  out = v;
  return true;
}

bool parse_decimal(std::string_view s, int precision, int scale, __int128& out) {
  size_t p = 0;
  bool neg = false;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) neg = s[p++] == '-';
  std::string digits;  // all significant digits, integer and fraction
  int frac_digits = 0;
  bool any = false, dot = false;
  for (; p < s.size(); ++p) {
    if (digit(s[p])) {
      any = true;
      if (!(digits.empty() && s[p] == '0')) digits.push_back(s[p]);
      if (dot) ++frac_digits;
    } else if (s[p] == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any) return false;
  int64_t exp = 0;
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    bool eneg = false;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) eneg = s[p++] == '-';
    if (!read_num(s, p, 1, 4, exp)) return false;
    if (eneg) exp = -exp;
  }
  if (p != s.size()) return false;
  // value = digits * 10^(exp - frac_digits); we want round(value * 10^scale).
  int64_t shift = exp - frac_digits + scale;
  // Leading zeros of the fraction were dropped from `digits`, which does not change value.
  if (static_cast<int64_t>(digits.size()) + shift > 38) return false;
  __int128 v = 0;
  if (shift >= 0) {
    for (char c : digits) v = v * 10 + (c - '0');
    for (int64_t k = 0; k < shift; ++k) v *= 10;
  } else {
    const int64_t keep = static_cast<int64_t>(digits.size()) + shift;  // digits kept before rounding
    if (keep < 0) {
      v = 0;  // far below the last place: rounds to zero
    } else {
      for (int64_t k = 0; k < keep; ++k) v = v * 10 + (digits[static_cast<size_t>(k)] - '0');
      // Half to even on the dropped digits.
      const char first = static_cast<size_t>(keep) < digits.size() ? digits[static_cast<size_t>(keep)] : '0';
      bool rest_nonzero = false;
      for (size_t k = static_cast<size_t>(keep) + 1; k < digits.size(); ++k) rest_nonzero |= digits[k] != '0';
      if (first > '5' || (first == '5' && (rest_nonzero || (v & 1)))) v += 1;
    }
  }
  __int128 bound = 1;
  for (int k = 0; k < precision; ++k) bound *= 10;
  if (v >= bound) return false;
  out = neg ? -v : v;
  return true;
}

}  // namespace frazil::compute
