#include "frazil/compute/boolean.hpp"

#include <cmath>

#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/half.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

void require_boolean(const Array& a, const char* what) {
  if (!a.dtype().is_boolean() && !a.dtype().is_null())
    throw InvalidOperationError(err_msg("`", what, "` operation not supported for dtype `", a.dtype().short_name(),
                                        "` (expected a boolean)"));
}

// Value bits of a Boolean operand in the broadcast shape (a Null-typed operand reads 0).
BitSource value_source(const Array& x, int64_t n) {
  if (x.dtype().is_null()) return BitSource::all(false);
  if (is_broadcast(x, n)) return BitSource::all(x.is_valid(0) && x.bool_value(0));
  return BitSource::of(x.buffer(0).data(), x.offset());
}

BitSource valid_source(const Array& x, int64_t n) {
  if (x.dtype().is_null()) return BitSource::all(false);
  if (is_broadcast(x, n)) return BitSource::all(x.is_valid(0));
  return validity_source(x);
}

bool has_nulls(const Array& x) { return x.dtype().is_null() || x.null_count() > 0; }

// Kleene AND (is_and) or OR. Result bits = a op b; a row is valid when both are valid or
// the valid side alone decides (false for AND, true for OR).
ArrayRef kleene(const Array& a, const Array& b, bool is_and) {
  require_boolean(a, is_and ? "and" : "or");
  require_boolean(b, is_and ? "and" : "or");
  const int64_t n = broadcast_length(a, b, is_and ? "&" : "|");
  const BitSource xa = value_source(a, n), xb = value_source(b, n);
  Buffer values = alloc_bits(n);
  if (is_and) bitmap_binary(xa, xb, n, values.mutable_data(), [](uint64_t x, uint64_t y) { return x & y; });
  else bitmap_binary(xa, xb, n, values.mutable_data(), [](uint64_t x, uint64_t y) { return x | y; });
  if (!has_nulls(a) && !has_nulls(b))
    return Array::make(DataType::boolean(), n, Buffer(), {std::move(values)});
  const BitSource va = valid_source(a, n), vb = valid_source(b, n);
  // Deciding bits of each side: valid & (AND: ~value, OR: value).
  Buffer da = alloc_bits(n), db = alloc_bits(n), validity = alloc_bits(n);
  auto decide = [is_and](uint64_t v, uint64_t x) { return v & (is_and ? ~x : x); };
  bitmap_binary(va, xa, n, da.mutable_data(), decide);
  bitmap_binary(vb, xb, n, db.mutable_data(), decide);
  bitmap_binary(va, vb, n, validity.mutable_data(), [](uint64_t x, uint64_t y) { return x & y; });
  bitmap_binary(BitSource::of(validity.data(), 0), BitSource::of(da.data(), 0), n, validity.mutable_data(),
                [](uint64_t x, uint64_t y) { return x | y; });
  bitmap_binary(BitSource::of(validity.data(), 0), BitSource::of(db.data(), 0), n, validity.mutable_data(),
                [](uint64_t x, uint64_t y) { return x | y; });
  return Array::make(DataType::boolean(), n, std::move(validity), {std::move(values)});
}

}  // namespace

ArrayRef and_kleene(const Array& left, const Array& right) { return kleene(left, right, true); }
ArrayRef or_kleene(const Array& left, const Array& right) { return kleene(left, right, false); }

ArrayRef xor_(const Array& a, const Array& b) {
  require_boolean(a, "xor");
  require_boolean(b, "xor");
  const int64_t n = broadcast_length(a, b, "^");
  bool all_null = false;
  Buffer validity = combine_validity(a, b, n, &all_null);
  if (all_null) return make_null_array(DataType::boolean(), n);
  Buffer values = alloc_bits(n);
  bitmap_binary(value_source(a, n), value_source(b, n), n, values.mutable_data(),
                [](uint64_t x, uint64_t y) { return x ^ y; });
  return Array::make(DataType::boolean(), n, std::move(validity), {std::move(values)});
}

ArrayRef not_(const Array& a) {
  if (a.dtype().is_integer()) return bit_not(a);
  require_boolean(a, "not");
  const int64_t n = a.length();
  if (a.dtype().is_null()) return make_null_array(DataType::boolean(), n);
  Buffer values = alloc_bits(n);
  bitmap_unary(BitSource::of(a.buffer(0).data(), a.offset()), n, values.mutable_data(),
               [](uint64_t x) { return ~x; });
  return Array::make(DataType::boolean(), n, aligned_validity(a), {std::move(values)});
}

// ---- bitwise on integers ----------------------------------------------------------------

namespace {

template <typename F>
ArrayRef bitwise(const Array& a, const Array& b, const char* sym, F f) {
  const DataType& t = a.dtype();
  if (!t.is_integer() || t != b.dtype())
    throw InvalidOperationError(err_msg("bitwise `", sym, "` is not supported for dtypes `", t.short_name(), "` and `",
                                        b.dtype().short_name(), "`"));
  return dispatch_integer_wide(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return binary_kernel<T, T, T>(a, b, t, sym, [f](T x, T y) { return static_cast<T>(f(x, y)); });
  });
}

}  // namespace

ArrayRef bit_and(const Array& a, const Array& b) {
  if (a.dtype().is_boolean()) return and_kleene(a, b);
  return bitwise(a, b, "&", [](auto x, auto y) { return x & y; });
}
ArrayRef bit_or(const Array& a, const Array& b) {
  if (a.dtype().is_boolean()) return or_kleene(a, b);
  return bitwise(a, b, "|", [](auto x, auto y) { return x | y; });
}
ArrayRef bit_xor(const Array& a, const Array& b) {
  if (a.dtype().is_boolean()) return xor_(a, b);
  return bitwise(a, b, "^", [](auto x, auto y) { return x ^ y; });
}
ArrayRef bit_not(const Array& a) {
  const DataType& t = a.dtype();
  if (t.is_boolean()) return not_(a);
  if (!t.is_integer())
    throw InvalidOperationError(err_msg("bitwise `~` is not supported for dtype `", t.short_name(), "`"));
  return dispatch_integer_wide(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return unary_kernel<T, T>(a, t, [](T x) { return static_cast<T>(~x); });
  });
}

// ---- null and float inspection ------------------------------------------------------------

namespace {

ArrayRef null_mask(const Array& a, bool want_valid) {
  const int64_t n = a.length();
  Buffer bits = alloc_bits(n);
  if (a.dtype().is_null() || a.null_count() == 0) {
    const bool all_valid = !a.dtype().is_null();
    std::memset(bits.mutable_data(), all_valid == want_valid ? 0xff : 0, static_cast<size_t>(bitmap_bytes(n)));
  } else {
    bitmap_unary(BitSource::of(a.validity_bits(), a.offset()), n, bits.mutable_data(),
                 [want_valid](uint64_t v) { return want_valid ? v : ~v; });
  }
  return Array::make(DataType::boolean(), n, Buffer(), {std::move(bits)});
}

// A float predicate per row (integers: a constant), nulls kept.
template <typename P>
ArrayRef float_pred(const Array& a, const char* name, bool int_value, P pred) {
  const DataType& t = a.dtype();
  const int64_t n = a.length();
  if (t.is_null()) return make_null_array(DataType::boolean(), n);
  Buffer bits = alloc_bits(n);
  if (t.is_integer() || t.is_temporal()) {
    std::memset(bits.mutable_data(), int_value ? 0xff : 0, static_cast<size_t>(bitmap_bytes(n)));
  } else if (t.id() == TypeId::Float32) {
    const float* p = a.values<float>();
    pack_bits(n, bits.mutable_data(), [&](int64_t i) { return pred(static_cast<double>(p[i])); });
  } else if (t.id() == TypeId::Float64) {
    const double* p = a.values<double>();
    pack_bits(n, bits.mutable_data(), [&](int64_t i) { return pred(p[i]); });
  } else if (t.id() == TypeId::Float16) {
    const uint16_t* p = a.values<uint16_t>();
    pack_bits(n, bits.mutable_data(), [&](int64_t i) { return pred(static_cast<double>(half_to_float(p[i]))); });
  } else {
    throw InvalidOperationError(err_msg("`", name, "` operation not supported for dtype `", t.short_name(), "`"));
  }
  return Array::make(DataType::boolean(), n, aligned_validity(a), {std::move(bits)});
}

}  // namespace

ArrayRef is_null(const Array& a) { return null_mask(a, false); }
ArrayRef is_not_null(const Array& a) { return null_mask(a, true); }
ArrayRef is_nan(const Array& a) {
  return float_pred(a, "is_nan", false, [](double x) { return std::isnan(x); });
}
ArrayRef is_not_nan(const Array& a) {
  return float_pred(a, "is_not_nan", true, [](double x) { return !std::isnan(x); });
}
ArrayRef is_finite(const Array& a) {
  return float_pred(a, "is_finite", true, [](double x) { return std::isfinite(x); });
}
ArrayRef is_infinite(const Array& a) {
  return float_pred(a, "is_infinite", false, [](double x) { return std::isinf(x); });
}

// ---- selection: if_then_else, fill_null, fill_nan -------------------------------------------

namespace {

// out[i] = take_a[i] ? a[i] : b[i] where take_a is an offset-0 bitmap of n bits; a and b
// have one dtype (or Null) and broadcast from length 1.
ArrayRef select(const uint8_t* take_a, int64_t n, const Array& a_in, const Array& b_in) {
  // A Null-typed side is a column of nulls of the other side's dtype.
  DataType dt = a_in.dtype().is_null() ? b_in.dtype() : a_in.dtype();
  ArrayRef a_conv, b_conv;
  const Array* ap = &a_in;
  const Array* bp = &b_in;
  if (a_in.dtype().is_null() && !dt.is_null()) ap = (a_conv = make_null_array(dt, a_in.length())).get();
  if (b_in.dtype().is_null() && !dt.is_null()) bp = (b_conv = make_null_array(dt, b_in.length())).get();
  const Array& a = *ap;
  const Array& b = *bp;
  if (!dt.is_null() && a.dtype() != b.dtype())
    throw InvalidOperationError(err_msg("cannot select between dtypes `", a.dtype().short_name(), "` and `",
                                        b.dtype().short_name(), "`"));
  if (dt.is_null()) return make_null_array(dt, n);
  const bool sa = is_broadcast(a, n), sb = is_broadcast(b, n);
  const BitSource m = BitSource::of(take_a, 0);

  Buffer validity;
  if (has_nulls(a) || has_nulls(b)) {
    validity = alloc_bits(n);
    Buffer tmp = alloc_bits(n);
    bitmap_binary(m, valid_source(a, n), n, validity.mutable_data(), [](uint64_t x, uint64_t v) { return x & v; });
    bitmap_binary(m, valid_source(b, n), n, tmp.mutable_data(), [](uint64_t x, uint64_t v) { return ~x & v; });
    bitmap_binary(BitSource::of(validity.data(), 0), BitSource::of(tmp.data(), 0), n, validity.mutable_data(),
                  [](uint64_t x, uint64_t y) { return x | y; });
  }

  if (dt.is_boolean()) {
    Buffer values = alloc_bits(n), tmp = alloc_bits(n);
    bitmap_binary(m, value_source(a, n), n, values.mutable_data(), [](uint64_t x, uint64_t v) { return x & v; });
    bitmap_binary(m, value_source(b, n), n, tmp.mutable_data(), [](uint64_t x, uint64_t v) { return ~x & v; });
    bitmap_binary(BitSource::of(values.data(), 0), BitSource::of(tmp.data(), 0), n, values.mutable_data(),
                  [](uint64_t x, uint64_t y) { return x | y; });
    return Array::make(dt, n, std::move(validity), {std::move(values)});
  }
  if (dt.is_fixed_width()) {
    return dispatch_width(dt.byte_width(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      Buffer values = alloc_values<T>(n);
      T* o = values.mutable_as<T>();
      const T* pa = a.values<T>();
      const T* pb = b.values<T>();
      with_broadcast(sa, sb, [&](auto SA, auto SB) {
        constexpr bool ka = decltype(SA)::value, kb = decltype(SB)::value;
        for (int64_t i = 0; i < n; ++i) o[i] = get_bit(take_a, i) ? pa[ka ? 0 : i] : pb[kb ? 0 : i];
      });
      return Array::make(dt, n, std::move(validity), {std::move(values)});
    });
  }
  if (dt.is_view()) {
    // Views are copied; b's data buffers follow a's, so its buffer indices are rebased.
    const uint32_t base = static_cast<uint32_t>(a.buffers().size() - 1);
    Buffer views = alloc_values<View>(n);
    View* o = views.mutable_as<View>();
    const View* pa = a.views();
    const View* pb = b.views();
    for (int64_t i = 0; i < n; ++i) {
      if (get_bit(take_a, i)) {
        o[i] = pa[sa ? 0 : i];
      } else {
        View v = pb[sb ? 0 : i];
        if (!v.is_inline()) {
          const uint32_t idx = v.buffer_index() + base;
          std::memcpy(v.data + 4, &idx, 4);
        }
        o[i] = v;
      }
    }
    std::vector<Buffer> buffers{std::move(views)};
    for (size_t k = 1; k < a.buffers().size(); ++k) buffers.push_back(a.buffer(k));
    for (size_t k = 1; k < b.buffers().size(); ++k) buffers.push_back(b.buffer(k));
    return Array::make(dt, n, std::move(validity), std::move(buffers));
  }
  // Nested dtypes: gather from the two operands laid end to end.
  std::vector<IdxSize> idx(static_cast<size_t>(n));
  const IdxSize la = static_cast<IdxSize>(a.length());
  for (int64_t i = 0; i < n; ++i)
    idx[i] = get_bit(take_a, i) ? static_cast<IdxSize>(sa ? 0 : i) : la + static_cast<IdxSize>(sb ? 0 : i);
  ArrayRef both = concat_arrays({a.slice(0, a.length()), b.slice(0, b.length())});
  return take(*both, idx);
}

int64_t length3(const Array& m, const Array& a, const Array& b) {
  int64_t n = m.length();
  for (const Array* x : {&a, &b})
    if (x->length() != 1 && n == 1) n = x->length();
  for (const Array* x : {&m, &a, &b})
    if (x->length() != n && x->length() != 1)
      throw ShapeError(err_msg("when/then/otherwise: shapes do not match: lengths ", m.length(), ", ", a.length(),
                               " and ", b.length()));
  return n;
}

}  // namespace

ArrayRef if_then_else(const Array& mask, const Array& a, const Array& b) {
  require_boolean(mask, "when");
  const int64_t n = length3(mask, a, b);
  // Rows taking `a`: mask true and valid.
  Buffer take_a = alloc_bits(n);
  bitmap_binary(value_source(mask, n), valid_source(mask, n), n, take_a.mutable_data(),
                [](uint64_t v, uint64_t valid) { return v & valid; });
  return select(take_a.data(), n, a, b);
}

ArrayRef fill_null(const Array& values, const Array& fill) {
  const int64_t n = values.length();
  if (fill.length() != 1 && fill.length() != n)
    throw ShapeError(err_msg("fill_null: fill value of length ", fill.length(), " for ", n, " rows"));
  if (!values.dtype().is_null() && values.null_count() == 0) return share(values);
  if (fill.length() == 1 && fill.dtype().is_null() == false && fill.is_null(0) && !values.dtype().is_null())
    return share(values);
  Buffer take_a = alloc_bits(n);
  if (values.dtype().is_null())
    std::memset(take_a.mutable_data(), 0, static_cast<size_t>(bitmap_bytes(n)));
  else
    bitmap_unary(BitSource::of(values.validity_bits(), values.offset()), n, take_a.mutable_data(),
                 [](uint64_t v) { return v; });
  return select(take_a.data(), n, values, fill);
}

ArrayRef fill_nan(const Array& values, const Array& fill) {
  const DataType& t = values.dtype();
  if (!t.is_float()) {
    if (t.is_null() || t.is_integer()) return share(values);
    throw InvalidOperationError(err_msg("`fill_nan` operation not supported for dtype `", t.short_name(), "`"));
  }
  const int64_t n = values.length();
  if (fill.length() != 1 && fill.length() != n)
    throw ShapeError(err_msg("fill_nan: fill value of length ", fill.length(), " for ", n, " rows"));
  // Keep a row unless it is a valid NaN.
  ArrayRef keep = is_not_nan(values);
  Buffer take_a = alloc_bits(n);
  bitmap_binary(BitSource::of(keep->buffer(0).data(), 0), validity_source(values), n, take_a.mutable_data(),
                [](uint64_t k, uint64_t valid) { return k | ~valid; });
  return select(take_a.data(), n, values, fill);
}

}  // namespace frazil::compute
