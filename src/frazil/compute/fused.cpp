#include "frazil/compute/fused.hpp"

#include "frazil/compute/kernel_util.hpp"

namespace frazil::compute {

namespace {

using namespace detail;

template <typename T>
ArrayRef run(FusedOp op, const Array& a, const Array& b, const Array& c, int64_t n) {
  const Array* in[3] = {&a, &b, &c};
  bool nulls = false;
  for (const Array* x : in) {
    if (x->dtype().is_null() || (is_broadcast(*x, n) && x->is_null(0))) return make_null_array(a.dtype(), n);
    nulls |= !is_broadcast(*x, n) && x->null_count() > 0;
  }
  Buffer validity;
  if (nulls) {
    validity = alloc_bits(n);
    pack_bits(n, validity.mutable_data(), [&](int64_t i) {
      for (const Array* x : in)
        if (!is_broadcast(*x, n) && x->is_null(i)) return false;
      return true;
    });
  }
  Buffer values = alloc_values<T>(n);
  T* o = values.mutable_as<T>();
  const T* pa = a.values<T>();
  const T* pb = b.values<T>();
  const T* pc = c.values<T>();
  const int64_t sa = is_broadcast(a, n) ? 0 : 1, sb = is_broadcast(b, n) ? 0 : 1, sc = is_broadcast(c, n) ? 0 : 1;
  // The build compiles without floating-point contraction (-ffp-contract=off): the
  // product is rounded before the sum, as in the unfused expression.
  switch (op) {
    case FusedOp::MultiplyAdd:
      for (int64_t i = 0; i < n; ++i) o[i] = pa[i * sa] * pb[i * sb] + pc[i * sc];
      break;
    case FusedOp::MultiplySub:
      for (int64_t i = 0; i < n; ++i) o[i] = pa[i * sa] * pb[i * sb] - pc[i * sc];
      break;
    case FusedOp::SubMultiply:
      for (int64_t i = 0; i < n; ++i) o[i] = pa[i * sa] - pb[i * sb] * pc[i * sc];
      break;
  }
  return make_fixed(a.dtype(), n, std::move(validity), std::move(values));
}

}  // namespace

ArrayRef fused_arith(FusedOp op, const Array& a, const Array& b, const Array& c) {
  const DataType& t = a.dtype();
  if (!(b.dtype() == t) || !(c.dtype() == t) || (t.id() != TypeId::Float32 && t.id() != TypeId::Float64))
    throw InvalidOperationError(err_msg("fused arithmetic needs three operands of one float dtype, got ", t, ", ",
                                        b.dtype(), " and ", c.dtype()));
  // The length of the inputs that do not broadcast (0 rows against a literal is 0 rows).
  int64_t n = 1;
  for (const Array* x : {&a, &b, &c})
    if (x->length() != 1) n = x->length();
  for (const Array* x : {&a, &b, &c})
    if (x->length() != n && x->length() != 1)
      throw ShapeError(err_msg("cannot evaluate fused arithmetic on arrays of lengths ", a.length(), ", ",
                               b.length(), " and ", c.length()));
  return t.id() == TypeId::Float32 ? run<float>(op, a, b, c, n) : run<double>(op, a, b, c, n);
}

}  // namespace frazil::compute
