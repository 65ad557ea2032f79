#include <cmath>
#include <limits>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/half.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

constexpr i128 kI128Max = static_cast<i128>(~u128{0} >> 1);

// out[i] = f(i, ok) over every row; validity = input validity & ok. Null rows are not
// looked at (their slot is zero), so strings and garbage slots are safe.
template <typename R, typename F>
ArrayRef convert_rows(const Array& a, const DataType& to, F f) {
  const int64_t n = a.length();
  Buffer values = alloc_values<R>(n);
  R* o = values.mutable_as<R>();
  const bool nulls = a.null_count() > 0;
  Buffer ok = alloc_bits(n);
  int64_t bad = 0;
  pack_bits(n, ok.mutable_data(), [&](int64_t i) {
    if (nulls && a.is_null(i)) {
      o[i] = R{};
      return false;
    }
    if (!f(i, o[i])) {
      o[i] = R{};
      ++bad;
      return false;
    }
    return true;
  });
  if (!nulls && bad == 0) ok = Buffer();
  return make_fixed(to, n, std::move(ok), std::move(values));
}

i128 pow10_i128(int k) {
  i128 r = 1;
  for (int i = 0; i < k; ++i) r *= 10;
  return r;
}

// Whether a float truncates into [lo, hi] of the 128-bit target (NaN and inf fail).
template <typename T>
bool float_to_128(double v, T& out) {
  if (!std::isfinite(v)) return false;
  const double t = std::trunc(v);
  if constexpr (std::is_same_v<T, u128>) {
    if (t < 0 || t >= 0x1p128) return false;
  } else {
    if (t < -0x1p127 || t >= 0x1p127) return false;
  }
  out = static_cast<T>(t);
  return true;
}

// Any supported source -> Int128/UInt128 (T).
template <typename T>
ArrayRef to_128(const Array& a, const DataType& to) {
  const DataType& from = a.dtype();
  constexpr bool kUnsigned = std::is_same_v<T, u128>;
  switch (from.id()) {
    case TypeId::Int128: {
      const i128* p = a.values<i128>();
      return convert_rows<T>(a, to, [p](int64_t i, T& out) {
        if (kUnsigned && p[i] < 0) return false;
        out = static_cast<T>(p[i]);
        return true;
      });
    }
    case TypeId::UInt128: {
      const u128* p = a.values<u128>();
      return convert_rows<T>(a, to, [p](int64_t i, T& out) {
        if (!kUnsigned && p[i] > static_cast<u128>(kI128Max)) return false;
        out = static_cast<T>(p[i]);
        return true;
      });
    }
    case TypeId::Float32: {
      const float* p = a.values<float>();
      return convert_rows<T>(a, to, [p](int64_t i, T& out) { return float_to_128<T>(p[i], out); });
    }
    case TypeId::Float64: {
      const double* p = a.values<double>();
      return convert_rows<T>(a, to, [p](int64_t i, T& out) { return float_to_128<T>(p[i], out); });
    }
    case TypeId::Boolean:
      return convert_rows<T>(a, to, [&a](int64_t i, T& out) { return out = a.bool_value(i) ? 1 : 0, true; });
    case TypeId::String:
      return convert_rows<T>(a, to, [&a](int64_t i, T& out) {
        if constexpr (kUnsigned) return parse_u128(a.str_value(i), out);
        else return parse_i128(a.str_value(i), out);
      });
    case TypeId::Decimal: {
      const i128 d = pow10_i128(from.scale());
      const i128* p = a.values<i128>();
      return convert_rows<T>(a, to, [p, d](int64_t i, T& out) {
        const i128 q = p[i] / d;  // truncation, as Polars
        if (kUnsigned && q < 0) return false;
        out = static_cast<T>(q);
        return true;
      });
    }
    default:
      if (from.is_integer())
        return dispatch_integer(from.id(), [&](auto ft) {
          using F = typename decltype(ft)::type;
          const F* p = a.values<F>();
          return convert_rows<T>(a, to, [p](int64_t i, T& out) {
            if constexpr (kUnsigned && std::is_signed_v<F>)
              if (p[i] < 0) return false;
            out = static_cast<T>(static_cast<std::conditional_t<std::is_signed_v<F>, i128, u128>>(p[i]));
            return true;
          });
        });
  }
  throw InvalidOperationError(err_msg("casting from ", from.to_string(), " to ", to.to_string(), " not supported"));
}

// Int128/UInt128 (F) -> any supported target.
template <typename F>
ArrayRef from_128(const Array& a, const DataType& to) {
  const F* p = a.values<F>();
  const int64_t n = a.length();
  switch (to.id()) {
    case TypeId::Float32:
      return unary_kernel<F, float>(a, to, [](F v) { return static_cast<float>(v); });
    case TypeId::Float64:
      return unary_kernel<F, double>(a, to, [](F v) { return static_cast<double>(v); });
    case TypeId::Boolean: {
      Buffer bits = alloc_bits(n);
      pack_bits(n, bits.mutable_data(), [p](int64_t i) { return p[i] != 0; });
      return Array::make(to, n, aligned_validity(a), {std::move(bits)});
    }
    case TypeId::String: {
      ViewBuilder b(DataType::string(), n);
      const bool nulls = a.null_count() > 0;
      for (int64_t i = 0; i < n; ++i) {
        if (nulls && a.is_null(i)) {
          b.push_null();
          continue;
        }
        if constexpr (std::is_same_v<F, u128>) b.push(format_u128(p[i]));
        else b.push(format_i128(p[i]));
      }
      return b.finish();
    }
    case TypeId::Decimal: {
      const i128 m = pow10_i128(to.scale()), bound = pow10_i128(to.precision());
      return convert_rows<i128>(a, to, [p, m, bound](int64_t i, i128& out) {
        if constexpr (std::is_same_v<F, u128>)
          if (p[i] > static_cast<u128>(kI128Max)) return false;
        if (__builtin_mul_overflow(static_cast<i128>(p[i]), m, &out)) return false;
        return out > -bound && out < bound;
      });
    }
    default:
      if (to.is_integer() && !to.is_128_bit_integer())
        return dispatch_integer(to.id(), [&](auto tt) {
          using T = typename decltype(tt)::type;
          return convert_rows<T>(a, to, [p](int64_t i, T& out) {
            const F v = p[i];
            if constexpr (std::is_same_v<F, u128>) {
              if (v > static_cast<u128>(std::numeric_limits<T>::max())) return false;
            } else {
              if (v < static_cast<i128>(std::numeric_limits<T>::min()) ||
                  v > static_cast<i128>(std::numeric_limits<T>::max()))
                return false;
            }
            out = static_cast<T>(v);
            return true;
          });
        });
  }
  throw InvalidOperationError(err_msg("casting from ", a.dtype().to_string(), " to ", to.to_string(), " not supported"));
}

}  // namespace

ArrayRef float16_to_float32(const Array& a) {
  return unary_kernel<uint16_t, float>(a, DataType::float32(), [](uint16_t h) { return half_to_float(h); });
}

ArrayRef float32_to_float16(const Array& a) {
  return unary_kernel<float, uint16_t>(a, DataType::float16(), [](float f) { return float_to_half(f); });
}

ArrayRef widen_float16(const Array& a) {
  if (a.dtype().id() == TypeId::Float16) return float16_to_float32(a);
  return share(a);
}

ArrayRef wide_cast(const Array& a, const DataType& to) {
  const DataType& from = a.dtype();
  if (from == to) return share(a);
  if (from.id() == TypeId::Float16) {
    ArrayRef f = float16_to_float32(a);
    if (to.id() == TypeId::Float32) return f;
    return cast(*f, to, false, "");
  }
  if (to.id() == TypeId::Float16) {
    if (from.id() == TypeId::Float32) return float32_to_float16(a);
    ArrayRef d = from.id() == TypeId::Float64 ? share(a) : cast(a, DataType::float64(), false, "");
    return unary_kernel<double, uint16_t>(*d, to, [](double v) { return double_to_half(v); });
  }
  if (to.id() == TypeId::Int128) return to_128<i128>(a, to);
  if (to.id() == TypeId::UInt128) return to_128<u128>(a, to);
  if (from.id() == TypeId::Int128) return from_128<i128>(a, to);
  if (from.id() == TypeId::UInt128) return from_128<u128>(a, to);
  throw InternalError("wide_cast without a wide dtype");
}

// ---- text -----------------------------------------------------------------------------

std::string format_u128(u128 v) {
  char buf[48];
  int k = 48;
  do {
    buf[--k] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  return std::string(buf + k, buf + 48);
}

std::string format_i128(i128 v) {
  if (v >= 0) return format_u128(static_cast<u128>(v));
  return "-" + format_u128(u128{0} - static_cast<u128>(v));
}

namespace {

// Digits after an optional sign into a magnitude; false on no digits, a non-digit or
// a magnitude past `limit`.
bool parse_magnitude(std::string_view s, u128 limit, u128& out) {
  if (s.empty()) return false;
  u128 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const unsigned d = static_cast<unsigned>(c - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

}  // namespace

bool parse_u128(std::string_view s, u128& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  return parse_magnitude(s, ~u128{0}, out);
}

bool parse_i128(std::string_view s, i128& out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  u128 m;
  const u128 limit = static_cast<u128>(kI128Max) + (neg ? 1 : 0);
  if (!parse_magnitude(s, limit, m)) return false;
  out = neg ? static_cast<i128>(u128{0} - m) : static_cast<i128>(m);
  return true;
}

}  // namespace frazil::compute
