#include "frazil/compute/decimal/decimal_arith.hpp"

#include <algorithm>

#include "frazil/compute/kernel_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

using i128 = __int128;

constexpr int kMaxPrecision = 38;

i128 pow10(int k) {
  i128 r = 1;
  for (int i = 0; i < k; ++i) r *= 10;
  return r;
}

[[noreturn]] void overflow(const char* what, int scale) {
  throw ComputeError(err_msg("overflow in decimal ", what, ": result doesn't fit Decimal(38, ", scale, ")"));
}

// n / d rounded half to even (d != 0).
i128 div_round_even(i128 n, i128 d) {
  i128 q = n / d, r = n % d;
  if (r == 0) return q;
  const i128 ar = r < 0 ? -r : r, ad = d < 0 ? -d : d;
  const i128 twice = ar * 2;  // ar < ad < 10^38 < 2^127 / 2: no overflow
  if (twice > ad || (twice == ad && (q % 2 != 0))) q += ((n < 0) != (d < 0)) ? -1 : 1;
  return q;
}

i128 floor_div(i128 n, i128 d) {
  const i128 q = n / d, r = n % d;
  return (r != 0 && ((r < 0) != (d < 0))) ? q - 1 : q;
}

const char* op_name(ArithOp op) {
  switch (op) {
    case ArithOp::Add: return "addition";
    case ArithOp::Sub: return "subtraction";
    case ArithOp::Mul: return "multiplication";
    case ArithOp::TrueDiv:
    case ArithOp::FloorDiv: return "division";
    case ArithOp::Mod: return "modulo";
    case ArithOp::Pow: return "power";
  }
  return "arithmetic";
}

}  // namespace

DataType decimal_arith_dtype(const DataType& l, const DataType& r) {
  return DataType::decimal(kMaxPrecision, std::max(l.scale(), r.scale()));
}

ArrayRef decimal_arith(ArithOp op, const Array& a, const Array& b) {
  if (op == ArithOp::Pow)
    throw InvalidOperationError(err_msg("arithmetic `**` is not supported for dtypes `", a.dtype().short_name(),
                                        "` and `", b.dtype().short_name(), "`"));
  const DataType out = decimal_arith_dtype(a.dtype(), b.dtype());
  const int s = out.scale();
  const int64_t n = broadcast_length(a, b, arith_op_symbol(op));
  bool all_null = false;
  Buffer validity = combine_validity(a, b, n, &all_null);
  if (all_null) return make_null_array(out, n);
  const bool sa = is_broadcast(a, n), sb = is_broadcast(b, n);
  const i128* pa = a.values<i128>();
  const i128* pb = b.values<i128>();
  const i128 ma = pow10(s - a.dtype().scale()), mb = pow10(s - b.dtype().scale());
  const i128 unit = pow10(s), bound = pow10(kMaxPrecision);
  const char* what = op_name(op);
  Buffer values = alloc_values<i128>(n);
  i128* o = values.mutable_as<i128>();
  auto valid = [&](int64_t i) { return validity.empty() || get_bit(validity.data(), i); };
  for (int64_t i = 0; i < n; ++i) {
    if (!valid(i)) {
      o[i] = 0;
      continue;
    }
    i128 x, y, r;
    if (__builtin_mul_overflow(pa[sa ? 0 : i], ma, &x) || __builtin_mul_overflow(pb[sb ? 0 : i], mb, &y))
      overflow(what, s);
    switch (op) {
      case ArithOp::Add:
        if (__builtin_add_overflow(x, y, &r)) overflow(what, s);
        break;
      case ArithOp::Sub:
        if (__builtin_sub_overflow(x, y, &r)) overflow(what, s);
        break;
      case ArithOp::Mul: {
        // (An exact product past 128 bits is reported as an overflow even when the rounded
        // result would fit: no 256-bit intermediate here.)
        i128 p;
        if (__builtin_mul_overflow(x, y, &p)) overflow(what, s);
        r = div_round_even(p, unit);
        break;
      }
      case ArithOp::TrueDiv: {
        if (y == 0) throw ComputeError("division by zero Decimal");
        i128 num;
        if (__builtin_mul_overflow(x, unit, &num)) overflow(what, s);
        r = div_round_even(num, y);
        break;
      }
      case ArithOp::FloorDiv:
        if (y == 0) throw ComputeError("division by zero Decimal");
        if (__builtin_mul_overflow(floor_div(x, y), unit, &r)) overflow(what, s);
        break;
      case ArithOp::Mod: {
        if (y == 0) throw ComputeError("division by zero Decimal");
        r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        break;
      }
      default: r = 0;
    }
    if (r <= -bound || r >= bound) overflow(what, s);
    o[i] = r;
  }
  return make_fixed(out, n, std::move(validity), std::move(values));
}

namespace {

// v rounded to a multiple of m (m > 0) by `mode`: 0 half to even, 1 half away, 2 floor, 3 ceil.
i128 to_multiple(i128 v, i128 m, int mode) {
  const i128 q = floor_div(v, m), r = v - q * m;  // 0 <= r < m
  if (r == 0) return v;
  i128 k = q;
  switch (mode) {
    case 2: break;
    case 3: k = q + 1; break;
    default: {
      const i128 twice = r * 2;
      if (twice > m) k = q + 1;
      else if (twice == m) k = mode == 0 ? (q % 2 == 0 ? q : q + 1) : (v < 0 ? q : q + 1);
    }
  }
  return k * m;
}

ArrayRef round_to(const Array& a, int places, int mode) {
  const int s = a.dtype().scale();
  if (places >= s) return share(a);  // nothing to round: the dtype stays
  const DataType out = decimal_rounded_dtype(a.dtype());
  const i128 m = pow10(s - places);
  const i128 bound = pow10(out.precision());
  const int64_t n = a.length();
  const i128* p = a.values<i128>();
  Buffer values = alloc_values<i128>(n);
  i128* o = values.mutable_as<i128>();
  for (int64_t i = 0; i < n; ++i) {
    o[i] = a.is_valid(i) ? to_multiple(p[i], m, mode) : 0;
    if (o[i] >= bound || o[i] <= -bound)
      throw ComputeError(err_msg("decimal rounding overflows ", out.to_string()));
  }
  return make_fixed(out, n, aligned_validity(a), std::move(values));
}

}  // namespace

DataType decimal_rounded_dtype(const DataType& t) {
  return DataType::decimal(std::min(kMaxPrecision, t.precision() + 1), t.scale());
}

ArrayRef decimal_round(const Array& values, int64_t decimals, bool half_to_even) {
  return round_to(values, static_cast<int>(std::min<int64_t>(decimals, 38)), half_to_even ? 0 : 1);
}
ArrayRef decimal_floor(const Array& values) { return round_to(values, 0, 2); }
ArrayRef decimal_ceil(const Array& values) { return round_to(values, 0, 3); }

}  // namespace frazil::compute
