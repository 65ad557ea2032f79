#include "frazil/compute/arithmetic.hpp"

#include <cmath>
#include <limits>

#include "frazil/compute/array/layout.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/decimal/decimal_arith.hpp"
#include "frazil/compute/list/list_arith.hpp"
#include "frazil/compute/struct/struct_arith.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/string/concat.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/calendar.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::compute {

using namespace detail;

const char* arith_op_symbol(ArithOp op) {
  switch (op) {
    case ArithOp::Add: return "+";
    case ArithOp::Sub: return "-";
    case ArithOp::Mul: return "*";
    case ArithOp::TrueDiv: return "/";
    case ArithOp::FloorDiv: return "//";
    case ArithOp::Mod: return "%";
    case ArithOp::Pow: return "**";
  }
  return "?";
}

namespace {

// Unsigned type wide enough that T's arithmetic wraps without promotion to signed int.
template <typename T>
using WrapT = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

template <typename T>
inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<WrapT<T>>(a) + static_cast<WrapT<T>>(b));
  else return a + b;
}
template <typename T>
inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<WrapT<T>>(a) - static_cast<WrapT<T>>(b));
  else return a - b;
}
template <typename T>
inline T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<WrapT<T>>(a) * static_cast<WrapT<T>>(b));
  else return a * b;
}
template <typename T>
inline T wrap_neg(T a) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(WrapT<T>{0} - static_cast<WrapT<T>>(a));
  else return -a;
}

// Python-style floor division and modulo on a non-zero divisor; MIN // -1 wraps to MIN.
template <typename T>
inline T int_floordiv(T a, T d) {
  if constexpr (std::is_signed_v<T>) {
    if (d == -1) return wrap_neg(a);
    T q = static_cast<T>(a / d);
    T r = static_cast<T>(a % d);
    return static_cast<T>(q - ((r != 0) & ((r < 0) != (d < 0))));
  } else {
    return static_cast<T>(a / d);
  }
}
template <typename T>
inline T int_mod(T a, T d) {
  if constexpr (std::is_signed_v<T>) {
    if (d == -1) return 0;
    T r = static_cast<T>(a % d);
    return static_cast<T>(((r != 0) & ((r < 0) != (d < 0))) ? r + d : r);
  } else {
    return static_cast<T>(a % d);
  }
}

// Integer floor division / modulo: a zero divisor gives null. The loop uses a safe divisor
// and counts zeros; only when there are some is a second pass made over the validity.
template <typename T, bool kMod>
ArrayRef int_div_kernel(const Array& a, const Array& b, const DataType& out) {
  const int64_t n = broadcast_length(a, b, kMod ? "%" : "//");
  bool all_null = false;
  Buffer validity = combine_validity(a, b, n, &all_null);
  if (all_null) return make_null_array(out, n);
  const bool sb = is_broadcast(b, n);
  if (sb && b.values<T>()[0] == 0) return make_null_array(out, n);
  Buffer values = alloc_values<T>(n);
  T* o = values.mutable_as<T>();
  const T* pa = a.values<T>();
  const T* pb = b.values<T>();
  int64_t zeros = 0;
  with_broadcast(is_broadcast(a, n), sb, [&](auto SA, auto SB) {
    constexpr bool sa = decltype(SA)::value, sbb = decltype(SB)::value;
    for (int64_t i = 0; i < n; ++i) {
      const T d = pb[sbb ? 0 : i];
      zeros += d == 0;
      const T safe = d == 0 ? T{1} : d;
      o[i] = kMod ? int_mod<T>(pa[sa ? 0 : i], safe) : int_floordiv<T>(pa[sa ? 0 : i], safe);
    }
  });
  if (zeros > 0) {
    Buffer nonzero = alloc_bits(n);
    pack_bits(n, nonzero.mutable_data(), [&](int64_t i) { return pb[i] != 0; });
    if (!validity.empty()) {
      Buffer both = alloc_bits(n);
      bitmap_binary(BitSource::of(validity.data(), 0), BitSource::of(nonzero.data(), 0), n,
                    both.mutable_data(), [](uint64_t x, uint64_t y) { return x & y; });
      validity = std::move(both);
    } else {
      validity = std::move(nonzero);
    }
  }
  return make_fixed(out, n, std::move(validity), std::move(values));
}

// Wrapping integer power by squaring.
template <typename T>
inline T int_pow(T base, uint64_t exp) {
  using W = WrapT<T>;
  W result = 1, b = static_cast<W>(base);
  while (exp) {
    if (exp & 1) result = static_cast<W>(result * b);
    b = static_cast<W>(b * b);
    exp >>= 1;
  }
  return static_cast<T>(result);
}

template <typename T>
ArrayRef numeric_arith(ArithOp op, const Array& a, const Array& b, const DataType& dt) {
  const char* sym = arith_op_symbol(op);
  switch (op) {
    case ArithOp::Add: return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return wrap_add(x, y); });
    case ArithOp::Sub: return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return wrap_sub(x, y); });
    case ArithOp::Mul: return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return wrap_mul(x, y); });
    case ArithOp::TrueDiv:
      if constexpr (std::is_same_v<T, float>)
        return binary_kernel<T, T, float>(a, b, dt.id() == TypeId::Float32 ? dt : DataType::float32(), sym,
                                          [](float x, float y) { return x / y; });
      else
        return binary_kernel<T, T, double>(a, b, DataType::float64(), sym, [](T x, T y) {
          return static_cast<double>(x) / static_cast<double>(y);
        });
    case ArithOp::FloorDiv:
      if constexpr (std::is_floating_point_v<T>)
        return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return std::floor(x / y); });
      else
        return int_div_kernel<T, false>(a, b, dt);
    case ArithOp::Mod:
      if constexpr (std::is_floating_point_v<T>)
        // Polars computes a - b * floor(a / b) (so 5 % inf is NaN, 5 % 0 is NaN).
        return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return x - y * std::floor(x / y); });
      else
        return int_div_kernel<T, true>(a, b, dt);
    case ArithOp::Pow:
      if constexpr (std::is_floating_point_v<T>) {
        // Polars takes x ** 0.5 as sqrt(x): NaN for -inf and -0.0 for -0.0, where pow gives inf / 0.0.
        return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) {
          return y == static_cast<T>(0.5) ? std::sqrt(x) : static_cast<T>(std::pow(x, y));
        });
      } else {
        if constexpr (std::is_signed_v<T>) {
          // Polars casts the exponent to u32: negative exponents are an error.
          std::vector<std::string> bad;
          int64_t count = 0;
          const T* pb = b.values<T>();
          for (int64_t i = 0; i < b.length(); ++i) {
            if (pb[i] < 0 && b.is_valid(i)) {
              if (bad.size() < 3) bad.push_back(std::to_string(static_cast<int64_t>(pb[i])));
              ++count;
            }
          }
          if (count > 0) {
            std::string list;
            for (size_t k = 0; k < bad.size(); ++k) list += (k ? ", " : "") + bad[k];
            throw InvalidOperationError(err_msg(
                "conversion from `", b.dtype().short_name(), "` to `u32` failed for ", count,
                " out of ", b.length(), " values: [", list, count > 3 ? ", …" : "",
                "]; to raise an integer to a negative integer power, cast the base or exponent "
                "to float first"));
          }
        }
        return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) {
          // Exponents >= 2^32 saturate like the u32 cast would fail in Polars; treat as huge.
          return int_pow<T>(x, static_cast<uint64_t>(y));
        });
      }
  }
  throw InternalError("unknown arithmetic operator");
}

[[noreturn]] void unsupported(ArithOp op, const DataType& l, const DataType& r) {
  throw InvalidOperationError(err_msg("arithmetic `", arith_op_symbol(op), "` is not supported for dtypes `",
                                      l.short_name(), "` and `", r.short_name(), "`"));
}

constexpr int64_t kMicrosPerDay = 86'400'000'000LL;

int64_t units_per_day(TimeUnit u) { return units_per_second(u) * 86'400; }

// Polars' coarser time unit of two (ms over us over ns).
TimeUnit coarser(TimeUnit a, TimeUnit b) {
  if (a == TimeUnit::Milliseconds || b == TimeUnit::Milliseconds) return TimeUnit::Milliseconds;
  if (a == TimeUnit::Microseconds || b == TimeUnit::Microseconds) return TimeUnit::Microseconds;
  return TimeUnit::Nanoseconds;
}

bool has_unit(const DataType& t) { return t.id() == TypeId::Datetime || t.id() == TypeId::Duration; }

DataType in_unit(const DataType& t, TimeUnit u) {
  return t.id() == TypeId::Datetime ? DataType::datetime(u, t.time_zone()) : DataType::duration(u);
}

// A Duration scaled by a float: computed in floating point and truncated, as Polars.
ArrayRef duration_by_float(const Array& d, const Array& f, const DataType& out, bool divide) {
  return binary_kernel<int64_t, double, int64_t>(d, f, out, divide ? "/" : "*", [divide](int64_t v, double x) {
    const double r = divide ? static_cast<double>(v) / x : static_cast<double>(v) * x;
    if (!(r > -9.2e18 && r < 9.2e18)) return int64_t{0};  // (NaN or out of range: no value to give)
    return static_cast<int64_t>(r);
  });
}

ArrayRef temporal_arith(ArithOp op, const Array& a, const Array& b, const DataType& out) {
  const DataType& l = a.dtype();
  const DataType& r = b.dtype();
  const char* sym = arith_op_symbol(op);
  const bool add = op == ArithOp::Add;
  // Operands with time units meet in the coarser one (type coercion usually did this).
  if (has_unit(l) && has_unit(r) && l.time_unit() != r.time_unit()) {
    const TimeUnit u = coarser(l.time_unit(), r.time_unit());
    return temporal_arith(op, *cast(a, in_unit(l, u)), *cast(b, in_unit(r, u)), out);
  }
  // A Date next to a Datetime is that Datetime.
  if (l.id() == TypeId::Date && r.id() == TypeId::Datetime) return temporal_arith(op, *cast(a, r), b, out);
  if (l.id() == TypeId::Datetime && r.id() == TypeId::Date) return temporal_arith(op, a, *cast(b, l), out);
  // Date - Date -> Duration(us) (Polars 2.1).
  if (l.id() == TypeId::Date && r.id() == TypeId::Date)
    return binary_kernel<int32_t, int32_t, int64_t>(a, b, out, sym, [](int32_t x, int32_t y) {
      return (static_cast<int64_t>(x) - y) * kMicrosPerDay;
    });
  // Date ± Duration -> Date: move to the duration's unit, add, floor back to days.
  if (l.id() == TypeId::Date && r.id() == TypeId::Duration) {
    const int64_t upd = units_per_day(r.time_unit());
    return binary_kernel<int32_t, int64_t, int32_t>(a, b, out, sym, [upd, add](int32_t d, int64_t v) {
      int64_t t = static_cast<int64_t>(d) * upd;
      t = add ? wrap_add(t, v) : wrap_sub(t, v);
      return static_cast<int32_t>(floor_div(t, upd));
    });
  }
  if (l.id() == TypeId::Duration && r.id() == TypeId::Date && add)
    return temporal_arith(op, b, a, out);
  // A Duration scaled by a number: integers exactly (division floors), floats truncated.
  if (l.id() == TypeId::Duration && (r.is_primitive_numeric() || r.is_boolean())) {
    if (r.is_float()) return duration_by_float(a, *cast(b, DataType::float64()), out, op == ArithOp::TrueDiv);
    ArrayRef k = r.id() == TypeId::Int64 ? share(b) : cast(b, DataType::int64());
    if (op == ArithOp::Mul)
      return binary_kernel<int64_t, int64_t, int64_t>(a, *k, out, sym, [](int64_t x, int64_t y) { return wrap_mul(x, y); });
    return int_div_kernel<int64_t, false>(a, *k, out);
  }
  if ((l.is_primitive_numeric() || l.is_boolean()) && r.id() == TypeId::Duration && op == ArithOp::Mul)
    return temporal_arith(op, b, a, out);
  // Duration / Duration -> Float64 ratio.
  if (l.id() == TypeId::Duration && r.id() == TypeId::Duration && op == ArithOp::TrueDiv)
    return binary_kernel<int64_t, int64_t, double>(a, b, out, sym, [](int64_t x, int64_t y) {
      return static_cast<double>(x) / static_cast<double>(y);
    });
  // The remaining cases are plain int64 add/sub on the physical values.
  if (add)
    return binary_kernel<int64_t, int64_t, int64_t>(a, b, out, sym, [](int64_t x, int64_t y) { return wrap_add(x, y); });
  return binary_kernel<int64_t, int64_t, int64_t>(a, b, out, sym, [](int64_t x, int64_t y) { return wrap_sub(x, y); });
}

}  // namespace

DataType arith_result_dtype(ArithOp op, const DataType& l, const DataType& r) {
  if (is_struct_arith(l, r)) return struct_arith_dtype(op, l, r);
  if (is_list_arith(l, r)) return list_arith_dtype(op, l, r);
  const bool add = op == ArithOp::Add, sub = op == ArithOp::Sub;
  // Arrays of one width: value by value.
  if (l.id() == TypeId::Array && r.id() == TypeId::Array) {
    if (l.width() != r.width())
      throw ShapeError(err_msg("arithmetic '", arith_op_symbol(op), "' on arrays of widths ", l.width(), " and ",
                               r.width()));
    return DataType::array(arith_result_dtype(op, l.inner(), r.inner()), l.width());
  }
  if (l.is_null() || r.is_null()) {
    const DataType& other = l.is_null() ? r : l;
    if (other.is_null()) return DataType::null();
    if (op == ArithOp::TrueDiv && other.is_primitive_numeric())
      return other.id() == TypeId::Float32 ? DataType::float32() : DataType::float64();
    return other;
  }
  if (l.is_primitive_numeric() && l == r) {
    if (op == ArithOp::TrueDiv && (l.id() == TypeId::Float32 || l.id() == TypeId::Float16)) return l;
    if (op == ArithOp::TrueDiv) return DataType::float64();
    return l;
  }
  if (l.is_string() && r.is_string() && add) return l;
  if (l.id() == TypeId::Decimal && r.id() == TypeId::Decimal && op != ArithOp::Pow) return decimal_arith_dtype(l, r);
  const TypeId li = l.id(), ri = r.id();
  auto unit = [&] { return coarser(l.time_unit(), r.time_unit()); };
  const bool number_r = r.is_primitive_numeric() || r.is_boolean(), number_l = l.is_primitive_numeric() || l.is_boolean();
  if (li == TypeId::Date && ri == TypeId::Date && sub) return DataType::duration(TimeUnit::Microseconds);
  if (li == TypeId::Date && ri == TypeId::Duration && (add || sub)) return l;
  if (li == TypeId::Duration && ri == TypeId::Date && add) return r;
  if (li == TypeId::Date && ri == TypeId::Datetime && sub) return DataType::duration(r.time_unit());
  if (li == TypeId::Datetime && ri == TypeId::Date && sub) return DataType::duration(l.time_unit());
  if (li == TypeId::Datetime && ri == TypeId::Datetime && sub && l.time_zone() == r.time_zone())
    return DataType::duration(unit());
  if (li == TypeId::Datetime && ri == TypeId::Duration && (add || sub)) return DataType::datetime(unit(), l.time_zone());
  if (li == TypeId::Duration && ri == TypeId::Datetime && add) return DataType::datetime(unit(), r.time_zone());
  if (li == TypeId::Duration && ri == TypeId::Duration) {
    if (add || sub) return DataType::duration(unit());
    if (op == ArithOp::TrueDiv) return DataType::float64();
  }
  if (li == TypeId::Time && ri == TypeId::Time && sub) return DataType::duration(TimeUnit::Nanoseconds);
  if (li == TypeId::Duration && number_r && (op == ArithOp::Mul || op == ArithOp::TrueDiv)) return l;
  if (number_l && ri == TypeId::Duration && op == ArithOp::Mul) return r;
  unsupported(op, l, r);
}

// Two Arrays of one width, value by value (a one-row side for every row); a null array on
// either side gives a null row.
ArrayRef array_arith(ArithOp op, const Array& left, const Array& right, const DataType& out) {
  const int64_t n = broadcast_length(left, right, arith_op_symbol(op)), w = out.width();
  auto rows = [n](const Array& a) {
    if (a.length() == n) return regular_array(a);
    std::vector<IdxSize> idx(static_cast<size_t>(n), 0);
    return regular_array(*take(a, idx));
  };
  ArrayRef l = rows(left), r = rows(right);
  ArrayRef values = arith(op, *l->child(0), *r->child(0));
  ValidityBuilder valid;
  for (int64_t i = 0; i < n; ++i) valid.push(l->is_valid(i) && r->is_valid(i));
  const int64_t nulls = valid.null_count();
  Buffer offsets = Buffer::allocate((n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i <= n; ++i) offsets.mutable_as<int64_t>()[i] = i * w;
  return Array::make(out, n, valid.finish(), {std::move(offsets)}, {std::move(values)}, 0, nulls);
}

ArrayRef arith(ArithOp op, const Array& left, const Array& right) {
  if (is_struct_arith(left.dtype(), right.dtype())) return struct_arith(op, left, right);
  if (is_list_arith(left.dtype(), right.dtype())) return list_arith(op, left, right);
  const DataType out = arith_result_dtype(op, left.dtype(), right.dtype());
  if (left.dtype().is_null() || right.dtype().is_null())
    return make_null_array(out, broadcast_length(left, right, arith_op_symbol(op)));
  if (out.id() == TypeId::Array) return array_arith(op, left, right, out);
  const DataType& dt = left.dtype();
  if (dt.is_128_bit_integer() && dt == right.dtype()) return int128_arith(op, left, right);
  if (dt.id() == TypeId::Decimal && right.dtype().id() == TypeId::Decimal) return decimal_arith(op, left, right);
  if (dt.id() == TypeId::Float16 && dt == right.dtype()) {
    // Computed in Float32 and rounded back, as Polars does.
    ArrayRef r = arith(op, *float16_to_float32(left), *float16_to_float32(right));
    return float32_to_float16(*r);
  }
  if (dt.is_primitive_numeric() && dt == right.dtype())
    return dispatch_numeric(dt.id(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return numeric_arith<T>(op, left, right, dt);
    });
  if (dt.is_string()) return str_concat(left, right);
  return temporal_arith(op, left, right, out);
}

ArrayRef integer_pow(const Array& base, const Array& exponent) {
  const DataType& dt = base.dtype();
  if (dt.is_128_bit_integer()) return int128_arith(ArithOp::Pow, base, *cast(exponent, dt));
  if (!dt.is_integer() || exponent.dtype().id() != TypeId::UInt32)
    throw InternalError(err_msg("integer_pow needs an integer base and a UInt32 exponent, got ", dt, " and ",
                                exponent.dtype()));
  return dispatch_numeric(dt.id(), [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>)
      return binary_kernel<T, uint32_t, T>(base, exponent, dt, "**", [](T x, uint32_t y) { return int_pow<T>(x, y); });
    else
      throw InternalError("integer_pow on a float");
  });
}

// ---- unary ----------------------------------------------------------------------------

namespace {

[[noreturn]] void unary_unsupported(const char* name, const DataType& t) {
  throw InvalidOperationError(err_msg("`", name, "` operation not supported for dtype `", t.short_name(), "`"));
}

}  // namespace

ArrayRef negate(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  if (t.id() == TypeId::Duration)
    return unary_kernel<int64_t, int64_t>(values, t, [](int64_t x) { return wrap_neg(x); });
  if (!t.is_primitive_numeric() || t.is_unsigned_integer() || t.is_128_bit_integer()) unary_unsupported("neg", t);
  if (t.id() == TypeId::Float16) return float32_to_float16(*negate(*float16_to_float32(values)));
  return dispatch_numeric(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return unary_kernel<T, T>(values, t, [](T x) { return wrap_neg(x); });
  });
}

ArrayRef abs(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null() || t.is_unsigned_integer()) return share(values);
  if (t.id() == TypeId::Duration)
    return unary_kernel<int64_t, int64_t>(values, t, [](int64_t x) { return x < 0 ? wrap_neg(x) : x; });
  if (!t.is_primitive_numeric()) unary_unsupported("abs", t);
  if (t.is_128_bit_integer()) return int128_abs(values);
  if (t.id() == TypeId::Float16) return float32_to_float16(*abs(*float16_to_float32(values)));
  return dispatch_numeric(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>)
      return unary_kernel<T, T>(values, t, [](T x) { return std::fabs(x); });
    else
      return unary_kernel<T, T>(values, t, [](T x) { return x < 0 ? wrap_neg(x) : x; });
  });
}

ArrayRef round(const Array& values, int64_t decimals, RoundMode mode) {
  const DataType& t = values.dtype();
  if (decimals < 0) throw InvalidOperationError(err_msg("round: decimals must be non-negative, got ", decimals));
  if (t.is_null() || t.is_integer()) return share(values);
  if (t.id() == TypeId::Decimal) return decimal_round(values, decimals, mode == RoundMode::HalfToEven);
  if (!t.is_float()) unary_unsupported("round", t);
  if (t.id() == TypeId::Float16) return float32_to_float16(*round(*float16_to_float32(values), decimals, mode));
  const bool even = mode == RoundMode::HalfToEven;
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (decimals == 0)
      return unary_kernel<T, T>(values, t, [even](T x) { return even ? std::nearbyint(x) : std::round(x); });
    // Scale, round, scale back (Polars does the same); a product that overflows keeps x
    // (past 10^400 every scale is infinite).
    const T m = static_cast<T>(std::pow(10.0, static_cast<double>(std::min<int64_t>(decimals, 400))));
    return unary_kernel<T, T>(values, t, [even, m](T x) {
      const T s = x * m;
      if (!std::isfinite(s)) return x;
      return (even ? std::nearbyint(s) : std::round(s)) / m;
    });
  };
  if (t.id() == TypeId::Float32) return run(Tag<float>{});
  return run(Tag<double>{});
}

ArrayRef floor(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null() || t.is_integer()) return share(values);
  if (t.id() == TypeId::Float16) return float32_to_float16(*floor(*float16_to_float32(values)));
  if (t.id() == TypeId::Decimal) return decimal_floor(values);
  if (t.id() == TypeId::Float32) return unary_kernel<float, float>(values, t, [](float x) { return std::floor(x); });
  if (t.id() == TypeId::Float64) return unary_kernel<double, double>(values, t, [](double x) { return std::floor(x); });
  unary_unsupported("floor", t);
}

ArrayRef ceil(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null() || t.is_integer()) return share(values);
  if (t.id() == TypeId::Float16) return float32_to_float16(*ceil(*float16_to_float32(values)));
  if (t.id() == TypeId::Decimal) return decimal_ceil(values);
  if (t.id() == TypeId::Float32) return unary_kernel<float, float>(values, t, [](float x) { return std::ceil(x); });
  if (t.id() == TypeId::Float64) return unary_kernel<double, double>(values, t, [](double x) { return std::ceil(x); });
  unary_unsupported("ceil", t);
}

ArrayRef sqrt(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null()) return make_null_array(DataType::float64(), values.length());
  if (!t.is_primitive_numeric()) unary_unsupported("sqrt", t);
  if (t.id() == TypeId::Float16) return float32_to_float16(*sqrt(*float16_to_float32(values)));
  if (t.is_128_bit_integer()) return sqrt(*cast(values, DataType::float64()));
  if (t.id() == TypeId::Float32)
    return unary_kernel<float, float>(values, t, [](float x) { return std::sqrt(x); });
  return dispatch_numeric(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return unary_kernel<T, double>(values, DataType::float64(),
                                   [](T x) { return std::sqrt(static_cast<double>(x)); });
  });
}

}  // namespace frazil::compute
