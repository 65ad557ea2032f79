#include "frazil/compute/cast.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "frazil/compute/cast_format.hpp"
#include "frazil/compute/categorical/categorical.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/calendar.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/tz.hpp"

namespace frazil::compute {

using namespace detail;
using int128 = __int128;

namespace {

[[noreturn]] void not_supported(const DataType& from, const DataType& to) {
  // Polars raises these as compute errors.
  if (from.is_categorical() && to.is_integer())
    throw ComputeError(err_msg("cannot cast categorical types to ", to.to_string(), ".\nInstead of `.cast(",
                                        to.to_string(), ")`, use `.cat.physical()`."));
  if (to.is_categorical() && from.is_integer()) {
    const char* d = to.id() == TypeId::Enum ? "Enum([...])" : "Categorical";
    throw ComputeError(err_msg("casting from ", from.short_name(), " to ", to.short_name(),
                                        " is not supported.\nInstead of `.cast(", d, ")`, use `.cat.to(", d, ")`."));
  }
  if (from.is_string() && (to.id() == TypeId::Date || to.id() == TypeId::Datetime || to.id() == TypeId::Time)) {
    // Polars 2 parses text only through str.to_date / to_datetime / to_time (strptime).
    const char* name = to.id() == TypeId::Date ? "date" : to.id() == TypeId::Time ? "time" : "datetime";
    std::string hint = std::string("str.to_") + name + "()";
    if (to.id() == TypeId::Datetime && to.time_zone())
      hint = "str.to_datetime(..., \"time_zone=" + *to.time_zone() + "\")";
    throw InvalidOperationError(err_msg("casting from string to ", name, " is not supported.\nIt was removed in Polars 2.0. Use `",
                                        hint, "` instead."));
  }
  if (from.id() == TypeId::Array || from.id() == TypeId::List)
    throw InvalidOperationError(err_msg("cannot cast ", from.id() == TypeId::Array ? "Array" : "List", " type (inner: '",
                                        from.inner(), "', to: '", to, "')"));
  throw InvalidOperationError(err_msg("casting from ", from.to_string(), " to ", to.to_string(), " not supported"));
}

// Runs ok = f(i, out[i]) over every row (nulls included, on whatever their slots hold) and
// returns validity = input validity & ok. The hot loop only counts failures; the bitmap of
// failures is built in a second pass when there were any.
template <typename R, typename F>
ArrayRef convert_fixed(const Array& a, const DataType& to, F f) {
  const int64_t n = a.length();
  Buffer values = alloc_values<R>(n);
  R* o = values.mutable_as<R>();
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) bad += !f(i, o[i]);
  Buffer validity = aligned_validity(a);
  if (bad > 0) {
    Buffer ok = alloc_bits(n);
    pack_bits(n, ok.mutable_data(), [&](int64_t i) {
      R tmp;
      const bool good = f(i, tmp);
      if (!good) o[i] = R{};
      return good;
    });
    if (!validity.empty())
      bitmap_binary(BitSource::of(ok.data(), 0), BitSource::of(validity.data(), 0), n, ok.mutable_data(),
                    [](uint64_t x, uint64_t y) { return x & y; });
    validity = std::move(ok);
  }
  return make_fixed(to, n, std::move(validity), std::move(values));
}

// Same for sources where null rows must not be looked at (strings): they become R{}.
template <typename R, typename F>
ArrayRef convert_valid_rows(const Array& a, const DataType& to, F f) {
  const int64_t n = a.length();
  Buffer values = alloc_values<R>(n);
  R* o = values.mutable_as<R>();
  const bool nulls = a.null_count() > 0;
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && a.is_null(i)) o[i] = R{};
    else if (!f(i, o[i])) {
      o[i] = R{};
      ++bad;
    }
  }
  Buffer validity = aligned_validity(a);
  if (bad > 0) {
    Buffer ok = alloc_bits(n);
    pack_bits(n, ok.mutable_data(), [&](int64_t i) {
      if (nulls && a.is_null(i)) return false;
      R tmp;
      return f(i, tmp);
    });
    validity = std::move(ok);
  }
  return make_fixed(to, n, std::move(validity), std::move(values));
}

// ---- numeric <-> numeric ----------------------------------------------------------------

template <typename F, typename T>
constexpr bool lossless_range() {
  if constexpr (std::is_floating_point_v<T>) return true;  // int -> float rounds, f64 -> f32 may give inf
  else if constexpr (std::is_floating_point_v<F>) return false;
  else
    return std::in_range<T>(std::numeric_limits<F>::min()) && std::in_range<T>(std::numeric_limits<F>::max());
}

// Whether float v truncates into integer type T.
template <typename T, typename F>
inline bool float_fits(F v) {
  // [min, 2^digits) with the exclusive upper bound exactly representable.
  constexpr long double lo = static_cast<long double>(std::numeric_limits<T>::min());
  constexpr long double hi = static_cast<long double>(std::numeric_limits<T>::max()) + 1.0L;
  const long double x = static_cast<long double>(v);
  return x > lo - 1.0L && x < hi;  // NaN fails both
}

template <typename F, typename T>
ArrayRef numeric_to_numeric(const Array& a, const DataType& to) {
  const F* p = a.values<F>();
  if constexpr (lossless_range<F, T>()) {
    return unary_kernel<F, T>(a, to, [](F v) { return static_cast<T>(v); });
  } else if constexpr (std::is_floating_point_v<F>) {
    return convert_fixed<T>(a, to, [p](int64_t i, T& out) {
      const F v = p[i];
      if (!float_fits<T>(v)) return false;
      out = static_cast<T>(v);
      return true;
    });
  } else {
    return convert_fixed<T>(a, to, [p](int64_t i, T& out) {
      const F v = p[i];
      if (!std::in_range<T>(v)) return false;
      out = static_cast<T>(v);
      return true;
    });
  }
}

ArrayRef numeric_cast(const Array& a, const DataType& to) {
  return dispatch_numeric(a.dtype().id(), [&](auto ft) {
    using F = typename decltype(ft)::type;
    return dispatch_numeric(to.id(), [&](auto tt) {
      using T = typename decltype(tt)::type;
      return numeric_to_numeric<F, T>(a, to);
    });
  });
}

ArrayRef bool_to_numeric(const Array& a, const DataType& to) {
  return dispatch_numeric(to.id(), [&](auto tt) {
    using T = typename decltype(tt)::type;
    const int64_t n = a.length();
    Buffer values = alloc_values<T>(n);
    T* o = values.mutable_as<T>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(a.bool_value(i));
    return make_fixed(to, n, aligned_validity(a), std::move(values));
  });
}

ArrayRef numeric_to_bool(const Array& a) {
  return dispatch_numeric(a.dtype().id(), [&](auto ft) {
    using F = typename decltype(ft)::type;
    const int64_t n = a.length();
    const F* p = a.values<F>();
    Buffer bits = alloc_bits(n);
    pack_bits(n, bits.mutable_data(), [p](int64_t i) { return p[i] != F{0}; });
    return Array::make(DataType::boolean(), n, aligned_validity(a), {std::move(bits)});
  });
}

// ---- string -> X --------------------------------------------------------------------------

template <typename T>
bool parse_int(std::string_view s, T& out) {
  const char* b = s.data();
  const char* e = b + s.size();
  if (b != e && *b == '+') ++b;
  if (b == e || *b == '+' || *b == ' ') return false;
  auto r = std::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

template <typename T>
bool parse_float(std::string_view s, T& out) {
  const char* b = s.data();
  const char* e = b + s.size();
  if (b != e && *b == '+') {
    ++b;
    if (b != e && *b == '-') return false;
  }
  if (b == e) return false;
  auto r = std::from_chars(b, e, out);
  if (r.ptr != e) return false;
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow -> ±inf, underflow -> ±0 (what strtod gives).
    const std::string copy(b, e);
    out = static_cast<T>(std::is_same_v<T, float> ? std::strtof(copy.c_str(), nullptr) : std::strtod(copy.c_str(), nullptr));
    return true;
  }
  return r.ec == std::errc();
}

bool parse_bool(std::string_view s, bool& out) {
  auto eq = [&](const char* w) {
    const size_t n = std::strlen(w);
    if (s.size() != n) return false;
    for (size_t i = 0; i < n; ++i)
      if (std::tolower(static_cast<unsigned char>(s[i])) != w[i]) return false;
    return true;
  };
  if (eq("true")) return out = true, true;
  if (eq("false")) return out = false, true;
  return false;
}

ArrayRef string_to_numeric(const Array& a, const DataType& to) {
  return dispatch_numeric(to.id(), [&](auto tt) {
    using T = typename decltype(tt)::type;
    return convert_valid_rows<T>(a, to, [&a](int64_t i, T& out) {
      if constexpr (std::is_floating_point_v<T>) return parse_float<T>(a.str_value(i), out);
      else return parse_int<T>(a.str_value(i), out);
    });
  });
}

ArrayRef string_to_bool(const Array& a) {
  const int64_t n = a.length();
  Buffer bits = alloc_bits(n);
  std::memset(bits.mutable_data(), 0, static_cast<size_t>(bitmap_bytes(n)));
  Buffer ok = alloc_bits(n);
  int64_t bad = 0;
  pack_bits(n, ok.mutable_data(), [&](int64_t i) {
    if (a.is_null(i)) return false;
    bool v = false;
    if (!parse_bool(a.str_value(i), v)) {
      ++bad;
      return false;
    }
    if (v) set_bit(bits.mutable_data(), i);
    return true;
  });
  Buffer validity = (bad > 0 || a.null_count() > 0) ? std::move(ok) : Buffer();
  return Array::make(DataType::boolean(), n, std::move(validity), {std::move(bits)});
}

ArrayRef string_to_decimal(const Array& a, const DataType& to) {
  const int p = to.precision(), s = to.scale();
  return convert_valid_rows<int128>(a, to, [&a, p, s](int64_t i, int128& out) {
    return parse_decimal(a.str_value(i), p, s, out);
  });
}

// ---- X -> string --------------------------------------------------------------------------

template <typename F>
ArrayRef to_string_array(const Array& a, F format) {
  const int64_t n = a.length();
  ViewBuilder b(DataType::string(), n);
  std::string buf;
  const bool nulls = a.null_count() > 0;
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && a.is_null(i)) {
      b.push_null();
      continue;
    }
    buf.clear();
    format(i, buf);
    b.push(buf);
  }
  return b.finish();
}

ArrayRef cast_to_string(const Array& a) {
  const DataType& t = a.dtype();
  switch (t.id()) {
    case TypeId::Boolean:
      return to_string_array(a, [&a](int64_t i, std::string& s) { s = a.bool_value(i) ? "true" : "false"; });
    case TypeId::Float32:
      return to_string_array(a, [&a](int64_t i, std::string& s) { s = format_float(a.values<float>()[i]); });
    case TypeId::Float64:
      return to_string_array(a, [&a](int64_t i, std::string& s) { s = format_float(a.values<double>()[i]); });
    case TypeId::Date:
      return to_string_array(a, [&a](int64_t i, std::string& s) { s = format_date(a.values<int32_t>()[i]); });
    case TypeId::Datetime: {
      const TimeUnit u = t.time_unit();
      if (!t.time_zone())
        return to_string_array(a, [&a, u](int64_t i, std::string& s) { s = format_datetime_fixed(a.values<int64_t>()[i], u); });
      // Zoned values print their local time and UTC offset, as Polars does.
      tz::ZoneCursor cursor(tz::TimeZone::get(*t.time_zone()));
      const int64_t ups = units_per_second(u);
      return to_string_array(a, [&](int64_t i, std::string& s) {
        const int64_t v = a.values<int64_t>()[i];
        const int32_t off = cursor.offset(floor_div(v, ups));
        s = format_datetime_fixed(v + static_cast<int64_t>(off) * ups, u) + tz::format_offset(off);
      });
    }
    case TypeId::Time:
      return to_string_array(a, [&a](int64_t i, std::string& s) { s = format_time_seconds(a.values<int64_t>()[i]); });
    case TypeId::Decimal: {
      const int scale = t.scale();
      return to_string_array(a, [&a, scale](int64_t i, std::string& s) {
        s = format_decimal(a.values<int128>()[i], scale);
      });
    }
    case TypeId::Binary: {
      // Valid UTF-8 keeps its bytes (views and buffers shared); invalid rows fail.
      Buffer ok = alloc_bits(a.length());
      int64_t bad = 0;
      pack_bits(a.length(), ok.mutable_data(), [&](int64_t i) {
        if (a.is_null(i)) return false;
        const bool good = is_valid_utf8(a.str_value(i));
        bad += !good;
        return good;
      });
      ArrayRef s = a.with_dtype(DataType::string());
      if (bad == 0) return s;
      return s->with_validity(std::move(ok));
    }
    default:
      if (t.is_integer())
        return dispatch_integer(t.id(), [&](auto ft) {
          using F = typename decltype(ft)::type;
          const F* p = a.values<F>();
          return to_string_array(a, [p](int64_t i, std::string& s) {
            char buf[24];
            auto r = std::to_chars(buf, buf + sizeof buf, p[i]);
            s.assign(buf, r.ptr);
          });
        });
      not_supported(t, DataType::string());
  }
}

// ---- temporal -----------------------------------------------------------------------------

inline bool mul_fits(int64_t v, int64_t m, int64_t& out) { return !__builtin_mul_overflow(v, m, &out); }

// Rescales int64 values by a power-of-ten factor between time units.
ArrayRef rescale_time(const Array& a, const DataType& to, TimeUnit from_u, TimeUnit to_u, bool floor) {
  const int64_t f = units_per_second(from_u), t = units_per_second(to_u);
  if (f == t) return a.with_dtype(to);
  const int64_t* p = a.values<int64_t>();
  if (t > f) {
    const int64_t m = t / f;
    return convert_fixed<int64_t>(a, to, [p, m](int64_t i, int64_t& out) { return mul_fits(p[i], m, out); });
  }
  const int64_t d = f / t;
  if (floor) return unary_kernel<int64_t, int64_t>(a, to, [d](int64_t v) { return floor_div(v, d); });
  return unary_kernel<int64_t, int64_t>(a, to, [d](int64_t v) { return v / d; });
}

ArrayRef date_to_datetime(const Array& a, const DataType& to) {
  const int64_t upd = units_per_second(to.time_unit()) * 86'400;
  const int32_t* p = a.values<int32_t>();
  return convert_fixed<int64_t>(a, to, [p, upd](int64_t i, int64_t& out) { return mul_fits(p[i], upd, out); });
}

ArrayRef datetime_to_date(const Array& a) {
  const int64_t upd = units_per_second(a.dtype().time_unit()) * 86'400;
  return unary_kernel<int64_t, int32_t>(a, DataType::date(),
                                        [upd](int64_t v) { return static_cast<int32_t>(floor_div(v, upd)); });
}

ArrayRef datetime_to_time(const Array& a) {
  const int64_t ups = units_per_second(a.dtype().time_unit());
  const int64_t upd = ups * 86'400, to_ns = 1'000'000'000 / ups;
  return unary_kernel<int64_t, int64_t>(a, DataType::time(), [upd, to_ns](int64_t v) {
    return (v - floor_div(v, upd) * upd) * to_ns;
  });
}

// ---- decimal ------------------------------------------------------------------------------

int128 pow10_128(int k) {
  int128 r = 1;
  for (int i = 0; i < k; ++i) r *= 10;
  return r;
}

inline bool fits_precision(int128 v, int precision) {
  const int128 bound = pow10_128(precision);
  return v < bound && v > -bound;
}

// v / 10^k rounded half to even (Polars' rescaling rule).
inline int128 div_round_even(int128 v, int128 d) {
  int128 q = v / d, r = v % d;
  const int128 twice = (r < 0 ? -r : r) * 2;
  if (twice > d || (twice == d && (q & 1) != 0)) q += v < 0 ? -1 : 1;
  return q;
}

ArrayRef decimal_to_decimal(const Array& a, const DataType& to) {
  const int from_s = a.dtype().scale(), to_s = to.scale(), p = to.precision();
  const int128* v = a.values<int128>();
  if (to_s >= from_s) {
    const int128 m = pow10_128(to_s - from_s);
    return convert_fixed<int128>(a, to, [v, m, p](int64_t i, int128& out) {
      if (__builtin_mul_overflow(v[i], m, &out)) return false;
      return fits_precision(out, p);
    });
  }
  const int128 d = pow10_128(from_s - to_s);
  return convert_fixed<int128>(a, to, [v, d, p](int64_t i, int128& out) {
    out = div_round_even(v[i], d);
    return fits_precision(out, p);
  });
}

ArrayRef decimal_to_numeric(const Array& a, const DataType& to) {
  const int128 d = pow10_128(a.dtype().scale());
  const int128* v = a.values<int128>();
  return dispatch_numeric(to.id(), [&](auto tt) {
    using T = typename decltype(tt)::type;
    if constexpr (std::is_floating_point_v<T>) {
      const long double dd = static_cast<long double>(d);
      return unary_kernel<int128, T>(a, to, [dd](int128 x) { return static_cast<T>(static_cast<long double>(x) / dd); });
    } else {
      return convert_fixed<T>(a, to, [v, d](int64_t i, T& out) {
        const int128 q = v[i] / d;  // truncation
        if (q < static_cast<int128>(std::numeric_limits<T>::min()) || q > static_cast<int128>(std::numeric_limits<T>::max()))
          return false;
        out = static_cast<T>(q);
        return true;
      });
    }
  });
}

ArrayRef numeric_to_decimal(const Array& a, const DataType& to) {
  const int p = to.precision();
  const int128 m = pow10_128(to.scale());
  return dispatch_numeric(a.dtype().id(), [&](auto ft) {
    using F = typename decltype(ft)::type;
    const F* v = a.values<F>();
    if constexpr (std::is_floating_point_v<F>) {
      // x * 10^scale in double (not long double: Polars rounds the double product, so 2.675
      // gives 2.68 and 1.005 gives 1.00), then half to even.
      const double mm = static_cast<double>(m);
      return convert_fixed<int128>(a, to, [v, mm, p](int64_t i, int128& out) {
        const double x = std::nearbyint(static_cast<double>(v[i]) * mm);
        if (!std::isfinite(x) || std::fabs(x) >= 1e38) return false;
        out = static_cast<int128>(x);
        return fits_precision(out, p);
      });
    } else {
      return convert_fixed<int128>(a, to, [v, m, p](int64_t i, int128& out) {
        if (__builtin_mul_overflow(static_cast<int128>(v[i]), m, &out)) return false;
        return fits_precision(out, p);
      });
    }
  });
}

// ---- strict-mode error --------------------------------------------------------------------

std::string failing_value(const Array& a, int64_t i) {
  const DataType& t = a.dtype();
  if (t.is_string()) return "\"" + std::string(a.str_value(i)) + "\"";
  if (t.is_categorical()) return "\"" + t.categories().get(a.values<uint32_t>()[i]) + "\"";
  if (t.id() == TypeId::Float32) return format_float_short(a.values<float>()[i]);
  if (t.id() == TypeId::Float64) return format_float_short(a.values<double>()[i]);
  if (t.id() == TypeId::Datetime) return format_datetime(a.values<int64_t>()[i], t.time_unit());
  return array_get(a, i).to_string();
}

[[noreturn]] void strict_failure(const Array& in, const Array& out, const DataType& to, const std::string& column) {
  // Polars lists up to 10 failing values and prints the first two and the last of those.
  std::vector<int64_t> rows;
  int64_t count = 0;
  for (int64_t i = 0; i < in.length(); ++i) {
    if (in.is_valid(i) && !out.is_valid(i)) {
      if (rows.size() < 10) rows.push_back(i);
      ++count;
    }
  }
  // Polars reports bytes that are not UTF-8 as a compute error, not a failed conversion.
  if (in.dtype().id() == TypeId::Binary && to.is_string()) throw ComputeError("invalid utf8");
  std::string list;
  if (rows.size() <= 3) {
    for (size_t k = 0; k < rows.size(); ++k) list += (k ? ", " : "") + failing_value(in, rows[k]);
  } else {
    list = failing_value(in, rows[0]) + ", " + failing_value(in, rows[1]) + ", … " + failing_value(in, rows.back());
  }
  throw InvalidOperationError(err_msg("conversion from `", in.dtype().short_name(), "` to `", to.short_name(),
                                      "` failed in column '", column, "' for ", count, " out of ", in.length(),
                                      " values: [", list, "]",
                                      to.id() == TypeId::Enum ? "\n\nEnsure that all values in the input column are "
                                                                "present in the categories of the enum datatype."
                                                              : ""));
}

// The cast itself: values that do not convert become null.
ArrayRef cast_lenient(const Array& a, const DataType& to) {
  const DataType& from = a.dtype();
  if (from == to) return share(a);
  if (from.is_null()) return make_null_array(to, a.length());
  if (to.is_null()) return make_null_array(to, a.length());
  const TypeId f = from.id(), t = to.id();

  if (from.is_categorical() || to.is_categorical()) {
    if (from.is_categorical() && to.is_categorical()) return recode_categorical(a, to);
    if (from.is_categorical()) return cast_lenient(*categorical_to_string(a), to);
    if (from.is_string()) return string_to_categorical(a, to);
    not_supported(from, to);
  }
  if (is_wide_numeric(from) || is_wide_numeric(to)) {
    // Int128/UInt128/Float16 have their own kernels (compute/wide_int/).
    const DataType& other = is_wide_numeric(from) ? to : from;
    if (other.is_primitive_numeric() || other.is_boolean() || other.is_string() || other.id() == TypeId::Decimal)
      return wide_cast(a, to);
  }
  if (from.is_primitive_numeric() && to.is_primitive_numeric()) return numeric_cast(a, to);
  if (f == TypeId::Boolean && to.is_primitive_numeric()) return bool_to_numeric(a, to);
  if (from.is_primitive_numeric() && t == TypeId::Boolean) return numeric_to_bool(a);
  if (t == TypeId::String) return cast_to_string(a);
  if (f == TypeId::String) {
    if (to.is_primitive_numeric()) return string_to_numeric(a, to);
    if (t == TypeId::Boolean) return string_to_bool(a);
    if (t == TypeId::Decimal) return string_to_decimal(a, to);
    if (t == TypeId::Binary) return a.with_dtype(to);
  }
  if (f == TypeId::Date && t == TypeId::Datetime) return date_to_datetime(a, to);
  if (f == TypeId::Datetime) {
    if (t == TypeId::Date) return datetime_to_date(a);
    if (t == TypeId::Time) return datetime_to_time(a);
    if (t == TypeId::Datetime) return rescale_time(a, to, from.time_unit(), to.time_unit(), true);
  }
  if (f == TypeId::Duration && t == TypeId::Duration)
    return rescale_time(a, to, from.time_unit(), to.time_unit(), false);
  // Temporal -> number: through the physical integers.
  if (from.is_temporal() && (to.is_primitive_numeric() || t == TypeId::Boolean))
    return cast_lenient(*a.with_dtype(from.physical()), to);
  // Number -> temporal: to the physical integers, then relabel (Time must be within a day).
  if (to.is_temporal() && from.is_primitive_numeric()) {
    ArrayRef phys = cast_lenient(a, to.physical());
    if (t == TypeId::Time) {
      const int64_t* p = phys->values<int64_t>();
      return convert_fixed<int64_t>(*phys, to, [p](int64_t i, int64_t& out) {
        out = p[i];
        return p[i] >= 0 && p[i] < 86'400'000'000'000LL;
      });
    }
    return phys->with_dtype(to);
  }
  if (f == TypeId::Decimal) {
    if (t == TypeId::Decimal) return decimal_to_decimal(a, to);
    if (to.is_primitive_numeric()) return decimal_to_numeric(a, to);
  }
  if (t == TypeId::Decimal && from.is_primitive_numeric()) return numeric_to_decimal(a, to);
  if (f == TypeId::List && t == TypeId::List) {
    ArrayRef child = cast_lenient(*a.child(0), to.inner());
    return Array::make(to, a.length(), a.validity_buffer(), a.buffers(), {std::move(child)}, a.offset());
  }
  // List and Array share a layout: relabel after casting the values; a List becomes an Array
  // only when every valid row holds exactly the width.
  if (from.is_list_like() && to.is_list_like()) {
    if (f == TypeId::List && t == TypeId::Array) {
      const int64_t* o = a.list_offsets();
      for (int64_t i = 0; i < a.length(); ++i)
        if (a.is_valid(i) && o[i + 1] - o[i] != to.width())
          throw ComputeError(err_msg("not all elements have the specified width ", to.width()));
    }
    ArrayRef child = cast_lenient(*a.child(0), to.inner());
    return Array::make(to, a.length(), a.validity_buffer(), a.buffers(), {std::move(child)}, a.offset());
  }
  if (f == TypeId::Struct && t == TypeId::Struct && from.fields().size() == to.fields().size()) {
    std::vector<ArrayRef> children;
    for (size_t k = 0; k < to.fields().size(); ++k) children.push_back(cast_lenient(*a.child(k), to.fields()[k].dtype));
    return Array::make(to, a.length(), a.validity_buffer(), {}, std::move(children), a.offset());
  }
  not_supported(from, to);
}

}  // namespace

void check_cast(const DataType& from, const DataType& to) {
  if (from.id() == TypeId::Array && to.id() == TypeId::Array && from.width() != to.width())
    throw InvalidOperationError(
        err_msg("cannot cast Array to a different width (from ", from.width(), " to ", to.width(), ")"));
  if (!can_cast(from, to)) not_supported(from, to);
  if (to.id() == TypeId::Datetime && to.time_zone() && from != to) tz::TimeZone::get(*to.time_zone());
}

bool can_cast(const DataType& from, const DataType& to) {
  if (from == to || from.is_null() || to.is_null()) return true;
  const TypeId f = from.id(), t = to.id();
  const bool fnum = from.is_primitive_numeric(), tnum = to.is_primitive_numeric();
  // Categorical/Enum <-> String and between categories; to anything else through String
  // (as Polars: a Categorical of "1.5" casts to Float64).
  if (from.is_categorical() || to.is_categorical()) {
    if (from.is_categorical() && to.is_categorical()) return true;
    if (to.is_categorical()) return from.is_string();
    return t == TypeId::String || (!to.is_integer() && can_cast(DataType::string(), to));
  }
  if (fnum && tnum) return true;
  if ((f == TypeId::Boolean && tnum) || (fnum && t == TypeId::Boolean)) return true;
  if (t == TypeId::String)
    return fnum || f == TypeId::Boolean || f == TypeId::Date || f == TypeId::Datetime || f == TypeId::Time ||
           f == TypeId::Decimal || f == TypeId::Binary;
  if (f == TypeId::String)
    return tnum || t == TypeId::Boolean || t == TypeId::Decimal || t == TypeId::Binary;
  if (f == TypeId::Date && t == TypeId::Datetime) return true;
  if (f == TypeId::Datetime && (t == TypeId::Date || t == TypeId::Time || t == TypeId::Datetime)) return true;
  if (f == TypeId::Duration && t == TypeId::Duration) return true;
  if (from.is_temporal() && (tnum || t == TypeId::Boolean)) return true;
  if (to.is_temporal() && fnum) return true;
  if (f == TypeId::Decimal && (t == TypeId::Decimal || tnum)) return true;
  if (t == TypeId::Decimal && fnum) return true;
  if (f == TypeId::List && t == TypeId::List) return can_cast(from.inner(), to.inner());
  if (from.is_list_like() && to.is_list_like()) return can_cast(from.inner(), to.inner());
  if (f == TypeId::Struct && t == TypeId::Struct && from.fields().size() == to.fields().size()) {
    for (size_t k = 0; k < to.fields().size(); ++k)
      if (!can_cast(from.fields()[k].dtype, to.fields()[k].dtype)) return false;
    return true;
  }
  return false;
}

ArrayRef cast(const Array& values, const DataType& to, bool strict, const std::string& column) {
  check_cast(values.dtype(), to);
  ArrayRef out = cast_lenient(values, to);
  if (!strict) return out;
  if (out->null_count() > values.null_count()) strict_failure(values, *out, to, column);
  // List casts report the element values that failed.
  if (values.dtype().is_list_like() && out->child(0)->null_count() > values.child(0)->null_count())
    strict_failure(*values.child(0), *out->child(0), to.inner(), column);
  return out;
}

}  // namespace frazil::compute
