#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// Wrapping arithmetic through the unsigned word (no signed overflow).
template <typename T>
inline T add_w(T a, T b) { return static_cast<T>(static_cast<u128>(a) + static_cast<u128>(b)); }
template <typename T>
inline T sub_w(T a, T b) { return static_cast<T>(static_cast<u128>(a) - static_cast<u128>(b)); }
template <typename T>
inline T mul_w(T a, T b) { return static_cast<T>(static_cast<u128>(a) * static_cast<u128>(b)); }

template <typename T>
inline T pow_w(T base, u128 exp) {
  u128 result = 1, b = static_cast<u128>(base);
  while (exp) {
    if (exp & 1) result *= b;
    b *= b;
    exp >>= 1;
  }
  return static_cast<T>(result);
}

// Floor division / modulo on a non-zero divisor (Python semantics; MIN // -1 wraps).
template <typename T>
inline T floordiv(T a, T d) {
  if constexpr (std::is_same_v<T, i128>) {
    if (d == -1) return sub_w<T>(0, a);
    const T q = a / d, r = a % d;
    return (r != 0 && ((r < 0) != (d < 0))) ? q - 1 : q;
  } else {
    return a / d;
  }
}
template <typename T>
inline T mod(T a, T d) {
  if constexpr (std::is_same_v<T, i128>) {
    if (d == -1) return 0;
    const T r = a % d;
    return (r != 0 && ((r < 0) != (d < 0))) ? r + d : r;
  } else {
    return a % d;
  }
}

// // and %: a zero divisor gives null.
template <typename T, bool kMod>
ArrayRef div_kernel(const Array& a, const Array& b, const DataType& out) {
  const int64_t n = broadcast_length(a, b, kMod ? "%" : "//");
  bool all_null = false;
  Buffer validity = combine_validity(a, b, n, &all_null);
  if (all_null) return make_null_array(out, n);
  const bool sa = is_broadcast(a, n), sb = is_broadcast(b, n);
  Buffer values = alloc_values<T>(n);
  T* o = values.mutable_as<T>();
  const T* pa = a.values<T>();
  const T* pb = b.values<T>();
  int64_t zeros = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T d = pb[sb ? 0 : i];
    zeros += d == 0;
    const T safe = d == 0 ? T{1} : d;
    o[i] = kMod ? mod<T>(pa[sa ? 0 : i], safe) : floordiv<T>(pa[sa ? 0 : i], safe);
  }
  if (zeros > 0) {
    Buffer ok = alloc_bits(n);
    pack_bits(n, ok.mutable_data(), [&](int64_t i) {
      return pb[sb ? 0 : i] != 0 && (validity.empty() || get_bit(validity.data(), i));
    });
    validity = std::move(ok);
  }
  return make_fixed(out, n, std::move(validity), std::move(values));
}

template <typename T>
ArrayRef arith_128(ArithOp op, const Array& a, const Array& b) {
  const DataType& dt = a.dtype();
  const char* sym = arith_op_symbol(op);
  switch (op) {
    case ArithOp::Add: return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return add_w(x, y); });
    case ArithOp::Sub: return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return sub_w(x, y); });
    case ArithOp::Mul: return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return mul_w(x, y); });
    case ArithOp::TrueDiv:
      return binary_kernel<T, T, double>(a, b, DataType::float64(), sym, [](T x, T y) {
        return static_cast<double>(x) / static_cast<double>(y);
      });
    case ArithOp::FloorDiv: return div_kernel<T, false>(a, b, dt);
    case ArithOp::Mod: return div_kernel<T, true>(a, b, dt);
    case ArithOp::Pow:
      if constexpr (std::is_same_v<T, i128>) {
        const T* pb = b.values<T>();
        for (int64_t i = 0; i < b.length(); ++i)
          if (b.is_valid(i) && pb[i] < 0)
            throw InvalidOperationError(err_msg(
                "conversion from `", b.dtype().short_name(), "` to `u32` failed for a negative exponent "
                "(", format_i128(pb[i]), "); to raise an integer to a negative integer power, cast the base or "
                "exponent to float first"));
      }
      return binary_kernel<T, T, T>(a, b, dt, sym, [](T x, T y) { return pow_w<T>(x, static_cast<u128>(y)); });
  }
  throw InternalError("unknown arithmetic operator");
}

}  // namespace

ArrayRef int128_arith(ArithOp op, const Array& left, const Array& right) {
  if (left.dtype().id() == TypeId::UInt128) return arith_128<u128>(op, left, right);
  return arith_128<i128>(op, left, right);
}

ArrayRef int128_negate(const Array& a) {
  return unary_kernel<i128, i128>(a, a.dtype(), [](i128 x) { return sub_w<i128>(0, x); });
}

ArrayRef int128_abs(const Array& a) {
  if (a.dtype().id() == TypeId::UInt128) return share(a);
  return unary_kernel<i128, i128>(a, a.dtype(), [](i128 x) { return x < 0 ? sub_w<i128>(0, x) : x; });
}

}  // namespace frazil::compute
