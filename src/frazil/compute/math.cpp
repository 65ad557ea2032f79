#include "frazil/compute/math.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <numbers>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/kernel_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// The values as Float32 or Float64, the dtype float functions compute in.
ArrayRef as_float(const Array& values) {
  const TypeId id = values.dtype().id();
  if (id == TypeId::Float32 || id == TypeId::Float64) return share(values);
  if (!(values.dtype().is_numeric() || values.dtype().is_boolean() || values.dtype().is_null()))
    throw InvalidOperationError(err_msg("expected a numeric dtype, got `", values.dtype().short_name(), "`"));
  return cast(values, DataType::float64());
}

template <typename T>
T apply_float_fn(FloatFn fn, T x) {
  constexpr T pi = std::numbers::pi_v<T>;
  switch (fn) {
    case FloatFn::Sin: return std::sin(x);
    case FloatFn::Cos: return std::cos(x);
    case FloatFn::Tan: return std::tan(x);
    case FloatFn::Cot: return T(1) / std::tan(x);
    case FloatFn::Arcsin: return std::asin(x);
    case FloatFn::Arccos: return std::acos(x);
    case FloatFn::Arctan: return std::atan(x);
    case FloatFn::Sinh: return std::sinh(x);
    case FloatFn::Cosh: return std::cosh(x);
    case FloatFn::Tanh: return std::tanh(x);
    case FloatFn::Arcsinh: return std::asinh(x);
    case FloatFn::Arccosh: return std::acosh(x);
    case FloatFn::Arctanh: return std::atanh(x);
    case FloatFn::Degrees: return x * (T(180) / pi);
    case FloatFn::Radians: return x * (pi / T(180));
    case FloatFn::Exp: return std::exp(x);
    case FloatFn::Log: return std::log(x);
    case FloatFn::Log1p: return std::log1p(x);
    case FloatFn::Log10: return std::log10(x);
    case FloatFn::Cbrt: return std::cbrt(x);
    case FloatFn::Erf: return std::erf(x);
    case FloatFn::Erfc: return std::erfc(x);
  }
  return x;
}

template <typename T, typename F>
ArrayRef map_fn(const Array& x, FloatFn fn, F) {
  return unary_kernel<T, T>(x, x.dtype(), [fn](T v) { return apply_float_fn(fn, v); });
}

// An integer's value for the bit counts: its bits, of its width.
template <typename T>
uint32_t count_bits(BitCount what, T v) {
  using U = std::make_unsigned_t<T>;
  const U u = static_cast<U>(v);
  switch (what) {
    case BitCount::CountOnes: return static_cast<uint32_t>(std::popcount(u));
    case BitCount::CountZeros: return static_cast<uint32_t>(sizeof(U) * 8 - std::popcount(u));
    case BitCount::LeadingOnes: return static_cast<uint32_t>(std::countl_one(u));
    case BitCount::LeadingZeros: return static_cast<uint32_t>(std::countl_zero(u));
    case BitCount::TrailingOnes: return static_cast<uint32_t>(std::countr_one(u));
    case BitCount::TrailingZeros: return static_cast<uint32_t>(std::countr_zero(u));
  }
  return 0;
}

// The same for Int128 and UInt128, from their two 64-bit halves.
uint32_t count_bits_128(BitCount what, unsigned __int128 u) {
  const uint64_t hi = static_cast<uint64_t>(u >> 64), lo = static_cast<uint64_t>(u);
  switch (what) {
    case BitCount::CountOnes: return static_cast<uint32_t>(std::popcount(hi) + std::popcount(lo));
    case BitCount::CountZeros: return static_cast<uint32_t>(128 - std::popcount(hi) - std::popcount(lo));
    case BitCount::LeadingOnes:
      return static_cast<uint32_t>(~hi ? std::countl_one(hi) : 64 + std::countl_one(lo));
    case BitCount::LeadingZeros: return static_cast<uint32_t>(hi ? std::countl_zero(hi) : 64 + std::countl_zero(lo));
    case BitCount::TrailingOnes:
      return static_cast<uint32_t>(~lo ? std::countr_one(lo) : 64 + std::countr_one(hi));
    case BitCount::TrailingZeros: return static_cast<uint32_t>(lo ? std::countr_zero(lo) : 64 + std::countr_zero(hi));
  }
  return 0;
}

}  // namespace

ArrayRef float_fn(FloatFn fn, const Array& values) {
  if (values.dtype().is_null()) return make_null_array(DataType::float64(), values.length());
  // Float16 computes in Float64 and keeps its dtype (Polars).
  if (values.dtype().id() == TypeId::Float16)
    return cast(*float_fn(fn, *cast(values, DataType::float64())), values.dtype());
  ArrayRef x = as_float(values);
  if (x->dtype().id() == TypeId::Float32) return map_fn<float>(*x, fn, 0);
  return map_fn<double>(*x, fn, 0);
}

ArrayRef log_base(const Array& values, const Array& base) {
  // The result's dtype: the root's float dtype, else the base's, else Float64 (Polars);
  // Float16 computes in Float64.
  const TypeId root = values.dtype().id(), by = base.dtype().id();
  const bool root_float = root == TypeId::Float16 || root == TypeId::Float32 || root == TypeId::Float64;
  const bool base_float = by == TypeId::Float16 || by == TypeId::Float32 || by == TypeId::Float64;
  const DataType out = root_float ? values.dtype() : base_float ? base.dtype() : DataType::float64();
  if (out.id() == TypeId::Float16 || (out.id() == TypeId::Float32 && root != TypeId::Float32)) {
    ArrayRef wide = log_base(*cast(values, DataType::float64()), *cast(base, DataType::float64()));
    return cast(*wide, out);
  }
  ArrayRef x = as_float(values);
  if (x->dtype().id() == TypeId::Float32) {
    ArrayRef b = cast(base, DataType::float32());
    return binary_kernel<float, float, float>(*x, *b, x->dtype(), "log",
                                              [](float v, float k) { return std::log(v) / std::log(k); });
  }
  ArrayRef b = cast(base, DataType::float64());
  return binary_kernel<double, double, double>(*x, *b, DataType::float64(), "log",
                                               [](double v, double k) { return std::log(v) / std::log(k); });
}

ArrayRef arctan2(const Array& y, const Array& x) {
  if (y.dtype().id() == TypeId::Float32 && x.dtype().id() == TypeId::Float32)
    return binary_kernel<float, float, float>(y, x, y.dtype(), "arctan2",
                                              [](float a, float b) { return std::atan2(a, b); });
  ArrayRef fy = cast(*as_float(y), DataType::float64()), fx = cast(*as_float(x), DataType::float64());
  return binary_kernel<double, double, double>(*fy, *fx, DataType::float64(), "arctan2",
                                               [](double a, double b) { return std::atan2(a, b); });
}

ArrayRef sign(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  if (t.id() == TypeId::Decimal) {
    __int128 one = 1;
    for (int i = 0; i < t.scale(); ++i) one *= 10;
    return unary_kernel<__int128, __int128>(values, t, [one](__int128 v) { return v > 0 ? one : v < 0 ? -one : 0; });
  }
  if (!t.is_primitive_numeric() && !t.is_128_bit_integer())
    throw InvalidOperationError(err_msg("`sign` operation not supported for dtype `", t.short_name(), "`"));
  return dispatch_numeric_wide(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>)
      return unary_kernel<T, T>(values, t, [](T v) { return v > 0 ? T(1) : v < 0 ? T(-1) : v; });
    else
      return unary_kernel<T, T>(values, t, [](T v) { return static_cast<T>((v > 0) - (v < 0)); });
  });
}

ArrayRef clip(const Array& values, const Array* lower, const Array* upper) {
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  if (!(t.is_numeric() || t.is_temporal()))
    throw InvalidOperationError(err_msg("`clip` operation not supported for dtype `", t.short_name(), "`"));
  const int64_t n = values.length();
  // Strict, as Polars: a bound the values' dtype cannot hold (1000 for Int8, NaN or inf for
  // an integer) is an error, a fraction is truncated.
  ArrayRef lo = lower ? cast(*lower, t, /*strict=*/true) : nullptr;
  ArrayRef hi = upper ? cast(*upper, t, /*strict=*/true) : nullptr;
  for (const ArrayRef& b : {lo, hi})
    if (b && b->length() != n && b->length() != 1)
      throw ShapeError(err_msg("`clip`: a bound of length ", b->length(), " for ", n, " values"));
  auto run = [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    Buffer out = alloc_values<T>(n);
    T* o = out.mutable_as<T>();
    const T* x = values.values<T>();
    std::copy(x, x + n, o);
    auto bound = [&](const ArrayRef& b, bool is_lower) {
      if (!b) return;
      const T* v = b->values<T>();
      const bool one = b->length() == 1 && n != 1;
      if (one && b->is_null(0)) return;
      const bool nulls = b->null_count() > 0;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t j = one ? 0 : i;
        if (nulls && b->is_null(j)) continue;
        const T w = v[j];
        // NaN stays NaN (a comparison with it is false).
        if (is_lower ? o[i] < w : o[i] > w) o[i] = w;
      }
    };
    // Polars clamps by the upper bound first: lower > upper gives the lower bound.
    bound(hi, false);
    bound(lo, true);
    return make_fixed(t, n, aligned_validity(values), std::move(out));
  };
  if (t.id() == TypeId::Decimal) return run(Tag<__int128>{});
  return dispatch_numeric_wide(t.physical().id(), run);
}

ArrayRef round_sig_figs(const Array& values, int digits) {
  const DataType& t = values.dtype();
  if (digits < 1) throw InvalidOperationError("digits must be an integer >= 1");
  if (t.is_null()) return share(values);
  if (t.id() == TypeId::Decimal) {
    const int scale = t.scale();
    return unary_kernel<__int128, __int128>(values, t, [digits, scale](__int128 v) -> __int128 {
      if (v == 0) return 0;
      const __int128 a = v < 0 ? -v : v;
      unsigned magnitude = 0;  // digits of |v| (ilog10 + 1 unless a power of ten)
      __int128 p = 1;
      while (p * 10 <= a) {
        p *= 10;
        ++magnitude;
      }
      if (a > p) ++magnitude;
      const unsigned decimals = magnitude > static_cast<unsigned>(digits) ? magnitude - digits : 0;
      if (decimals == 0) return v;  // no digit to drop
      __int128 m = 1;
      for (unsigned i = 0; i < decimals; ++i) m *= 10;
      const __int128 rem = v % m;
      const bool floor_even = static_cast<int>(decimals) <= scale && ((v - rem) / m) % 2 == 0;
      const __int128 threshold = m / 2 + (floor_even ? 1 : 0);
      __int128 off = (rem < 0 ? -rem : rem) >= threshold ? m : 0;
      if (v < 0) off = -off;
      return v - rem + off;
    });
  }
  if (!t.is_primitive_numeric())
    throw InvalidOperationError("round_sig_figs can only be used on numeric types");
  return dispatch_numeric(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return unary_kernel<T, T>(values, t, [digits](T raw) -> T {
      const double v = static_cast<double>(raw);
      if (v == 0.0) return raw;
      // 10^e split into 2^e (exact) and 5^e for very large or small values.
      const int e = digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(v))));
      const double pow5 = std::pow(5.0, e);
      const double scaled = std::scalbn(v, e) * pow5;
      const double back = std::scalbn(std::round(scaled) / pow5, -e);
      const double r = std::isfinite(back) ? back : v;
      if constexpr (std::is_integral_v<T>) {  // saturating, as Rust's `as`
        if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        if (r <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
      }
      return static_cast<T>(r);
    });
  });
}

ArrayRef truncate(const Array& values, int decimals) {
  const DataType& t = values.dtype();
  if (decimals < 0) throw InvalidOperationError(err_msg("truncate: decimals must be non-negative, got ", decimals));
  if (t.is_null() || t.is_integer()) return share(values);
  if (t.id() == TypeId::Decimal) {
    if (t.scale() <= decimals) return share(values);
    __int128 m = 1;
    for (int i = decimals; i < t.scale(); ++i) m *= 10;
    return unary_kernel<__int128, __int128>(values, t, [m](__int128 v) { return v - v % m; });
  }
  if (t.id() == TypeId::Float32) {
    if (decimals == 0) return unary_kernel<float, float>(values, t, [](float x) { return std::trunc(x); });
    const double m = std::pow(10.0, decimals);
    return unary_kernel<float, float>(values, t, [m](float x) {
      const float r = static_cast<float>(std::trunc(static_cast<double>(x) * m) / m);
      return std::isfinite(r) ? r : x;
    });
  }
  if (t.id() == TypeId::Float64) {
    if (decimals == 0) return unary_kernel<double, double>(values, t, [](double x) { return std::trunc(x); });
    const double m = std::pow(10.0, decimals);
    return unary_kernel<double, double>(values, t, [m](double x) {
      const double r = std::trunc(x * m) / m;
      return std::isfinite(r) ? r : x;
    });
  }
  throw InvalidOperationError("truncation ('to_zero') can only be used on numeric types");
}

ArrayRef bit_count(BitCount what, const Array& values) {
  const DataType& t = values.dtype();
  const int64_t n = values.length();
  if (t.is_null()) return make_null_array(DataType::uint32(), n);
  if (t.is_boolean()) {
    Buffer out = alloc_values<uint32_t>(n);
    uint32_t* o = out.mutable_as<uint32_t>();
    for (int64_t i = 0; i < n; ++i) {
      const bool b = values.bool_value(i);
      const bool ones = what == BitCount::CountOnes || what == BitCount::LeadingOnes || what == BitCount::TrailingOnes;
      o[i] = ones ? b : !b;
    }
    return make_fixed(DataType::uint32(), n, aligned_validity(values), std::move(out));
  }
  if (!t.is_integer())
    throw InvalidOperationError(err_msg("`bitwise_", [what] {
      switch (what) {
        case BitCount::CountOnes: return "count_ones";
        case BitCount::CountZeros: return "count_zeros";
        case BitCount::LeadingOnes: return "leading_ones";
        case BitCount::LeadingZeros: return "leading_zeros";
        case BitCount::TrailingOnes: return "trailing_ones";
        case BitCount::TrailingZeros: return "trailing_zeros";
      }
      return "?";
    }(), "` operation not supported for dtype `", t.short_name(), "`"));
  return dispatch_integer_wide(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 16) {
      return unary_kernel<T, uint32_t>(values, DataType::uint32(),
                                       [what](T v) { return count_bits_128(what, static_cast<unsigned __int128>(v)); });
    } else {
      return unary_kernel<T, uint32_t>(values, DataType::uint32(), [what](T v) { return count_bits(what, v); });
    }
  });
}

ArrayRef is_close(const Array& a, const Array& b, double abs_tol, double rel_tol, bool nans_equal) {
  if (abs_tol < 0) throw ComputeError(err_msg("`abs_tol` must be non-negative but got ", abs_tol));
  if (rel_tol < 0) throw ComputeError(err_msg("`rel_tol` must be non-negative but got ", rel_tol));
  for (const Array* x : {&a, &b})
    if (!(x->dtype().is_numeric() || x->dtype().is_null()))
      throw InvalidOperationError(err_msg("`is_close` operation not supported for dtype `", x->dtype().short_name(),
                                          "`"));
  ArrayRef fa = cast(a, DataType::float64()), fb = cast(b, DataType::float64());
  const int64_t n = broadcast_length(*fa, *fb, "is_close");
  bool all_null = false;
  Buffer validity = combine_validity(*fa, *fb, n, &all_null);
  if (all_null) return make_null_array(DataType::boolean(), n);
  const double* x = fa->values<double>();
  const double* y = fb->values<double>();
  const bool sa = is_broadcast(*fa, n), sb = is_broadcast(*fb, n);
  Buffer out = alloc_bits(n);
  pack_bits(n, out.mutable_data(), [&](int64_t i) {
    const double u = x[sa ? 0 : i], v = y[sb ? 0 : i];
    const bool cmp = std::fabs(u - v) <= std::max(rel_tol * std::max(std::fabs(u), std::fabs(v)), abs_tol);
    return (std::isfinite(u) && std::isfinite(v) && cmp) || (std::isnan(u) && std::isnan(v) && nans_equal) ||
           (std::isinf(u) && std::isinf(v) && std::signbit(u) == std::signbit(v));
  });
  return Array::make(DataType::boolean(), n, std::move(validity), {std::move(out)});
}

}  // namespace frazil::compute
