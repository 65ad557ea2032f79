#include "frazil/compute/inspect.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/compute/segments.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/half.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::compute {

using namespace detail;

bool is_sorted(const Array& values, bool descending, bool nulls_last) {
  const int64_t n = values.length();
  const DataType& t = values.dtype();
  // Nulls must all be at the chosen end.
  int64_t b = 0, e = n;
  if (values.null_count() > 0) {
    if (nulls_last) {
      while (e > 0 && values.is_null(e - 1)) --e;
    } else {
      while (b < n && values.is_null(b)) ++b;
    }
    for (int64_t i = b; i < e; ++i)
      if (values.is_null(i)) return false;
  }
  auto ordered = [&](int c) { return descending ? c >= 0 : c <= 0; };  // c compares row i-1 with row i
  if (t.is_view()) {
    for (int64_t i = b + 1; i < e; ++i) {
      const auto x = values.str_value(i - 1), y = values.str_value(i);
      if (!ordered(x < y ? -1 : y < x ? 1 : 0)) return false;
    }
    return true;
  }
  if (t.is_null()) return true;
  ArrayRef v = t.is_boolean() ? cast(values, DataType::uint8()) : share(values);
  if (!(v->dtype().is_numeric() || v->dtype().is_temporal()))
    throw InvalidOperationError(err_msg("`is_sorted` operation not supported for dtype `", t.short_name(), "`"));
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = v->values<T>();
    for (int64_t i = b + 1; i < e; ++i) {
      const int c = total_lt(p[i - 1], p[i]) ? -1 : total_lt(p[i], p[i - 1]) ? 1 : 0;
      if (!ordered(c)) return false;
    }
    return true;
  };
  if (v->dtype().id() == TypeId::Decimal) return run(Tag<__int128>{});
  return dispatch_numeric(v->dtype().physical().id(), run);
}

std::optional<int64_t> index_of(const Array& values, const Array& element) {
  if (element.length() != 1)
    throw InvalidOperationError(err_msg("`index_of` needs one element, got ", element.length()));
  if (element.is_null(0)) {
    for (int64_t i = 0; i < values.length(); ++i)
      if (values.is_null(i)) return i;
    return std::nullopt;
  }
  ArrayRef el = element.dtype() == values.dtype() ? share(element) : cast(element, values.dtype(), /*strict=*/false);
  if (el->is_null(0)) return std::nullopt;  // not representable in the values' dtype
  for (int64_t i = 0; i < values.length(); ++i)
    if (values.is_valid(i) && values_equal(values, i, *el, 0)) return i;
  return std::nullopt;
}

ArrayRef dtype_bound(const DataType& dtype, bool upper) {
  const DataType phys = dtype.physical();
  if (!phys.is_primitive_numeric())
    throw ComputeError(err_msg("cannot determine ", upper ? "upper" : "lower", " bound for dtype `",
                               dtype.short_name(), "`"));
  return dispatch_numeric(phys.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    if constexpr (std::is_floating_point_v<T>) v = upper ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    else v = upper ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    Buffer b = alloc_values<T>(1);
    b.mutable_as<T>()[0] = v;
    return make_fixed(phys, 1, Buffer(), std::move(b));
  });
}

ArrayRef reinterpret_sign(const Array& values, bool as_signed) {
  const DataType& t = values.dtype();
  if (!t.is_integer())
    throw InvalidOperationError(err_msg("reinterpret is only allowed for 64-bit integers and of the same width, got `",
                                        t.short_name(), "`"));
  static constexpr TypeId sig[] = {TypeId::Int8, TypeId::Int16, TypeId::Int32, TypeId::Int64};
  static constexpr TypeId uns[] = {TypeId::UInt8, TypeId::UInt16, TypeId::UInt32, TypeId::UInt64};
  const int w = t.byte_width();
  const int k = w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;
  return values.with_dtype(DataType(as_signed ? sig[k] : uns[k]));
}

ArrayRef truncdiv(const Array& a, const Array& b) {
  const DataType& t = a.dtype();
  if (t != b.dtype()) throw InternalError("truncdiv on operands of different dtypes");
  if (t.is_float()) {
    return dispatch_numeric(t.id(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return binary_kernel<T, T, T>(a, b, t, "truncdiv", [](T x, T y) { return std::trunc(x / y); });
    });
  }
  if (!t.is_integer())
    throw InvalidOperationError(err_msg("`truncdiv` operation not supported for dtype `", t.short_name(), "`"));
  return dispatch_integer(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ArrayRef q = binary_kernel<T, T, T>(a, b, t, "truncdiv", [](T x, T y) -> T {
      if (y == 0) return 0;
      if constexpr (std::is_signed_v<T>)
        if (y == -1) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(0) - static_cast<std::make_unsigned_t<T>>(x));
      return static_cast<T>(x / y);
    });
    // A zero divisor gives null.
    const int64_t n = q->length();
    const bool sb = b.length() == 1 && n != 1;
    bool any_zero = false;
    for (int64_t i = 0; i < (sb ? 1 : n) && !any_zero; ++i) any_zero = b.is_valid(i) && b.values<T>()[i] == 0;
    if (!any_zero) return q;
    OutValidity valid(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = sb ? 0 : i;
      valid.set(i, q->is_valid(i) && b.values<T>()[j] != 0);
    }
    return q->with_validity(valid.finish());
  });
}

ArrayRef drop_nans(const Array& values) {
  const DataType& t = values.dtype();
  if (!t.is_float()) return share(values);
  const int64_t n = values.length();
  std::vector<IdxSize> keep;
  if (t.id() == TypeId::Float16) {
    const uint16_t* p = values.values<uint16_t>();
    for (int64_t i = 0; i < n; ++i)
      if (values.is_null(i) || !std::isnan(half_to_float(p[i]))) keep.push_back(static_cast<IdxSize>(i));
    return take(values, keep);
  }
  dispatch_numeric(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = values.values<T>();
    for (int64_t i = 0; i < n; ++i)
      if (values.is_null(i) || !std::isnan(static_cast<double>(p[i]))) keep.push_back(static_cast<IdxSize>(i));
    return 0;
  });
  return take(values, keep);
}

ArrayRef hist(const Array& values, std::span<const double> bins_in, std::optional<int64_t> bin_count,
              bool include_breakpoint) {
  if (!(values.dtype().is_numeric() || values.dtype().is_null()))
    throw InvalidOperationError(err_msg("`hist` operation not supported for dtype `", values.dtype().short_name(), "`"));
  if (!bins_in.empty() && bin_count) throw ComputeError("can only provide one of `bin_count` or `bins`");
  ArrayRef f = cast(values, DataType::float64());
  const double* x = f->values<double>();
  const int64_t n = f->length();
  std::vector<double> breaks;
  if (!bins_in.empty()) {
    for (size_t i = 1; i < bins_in.size(); ++i)
      if (bins_in[i] - bins_in[i - 1] <= 0) throw ComputeError("bins must increase monotonically");
    if (bins_in.size() > 1) breaks.assign(bins_in.begin(), bins_in.end());
  } else {
    const int64_t bc = bin_count.value_or(10);
    int64_t valid = 0;
    double lo = 0, hi = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (f->is_null(i)) continue;
      if (valid == 0) lo = hi = x[i];
      lo = std::min(lo, x[i]);
      hi = std::max(hi, x[i]);
      ++valid;
    }
    double offset = 0, width = 1.0 / static_cast<double>(bc), upper = 1.0;
    if (valid >= 1 && lo == hi) {
      offset = lo - 0.5;
      upper = hi + 0.5;
    } else if (valid > 1) {
      offset = lo;
      width = (hi - lo) / static_cast<double>(bc);
      upper = hi;
    }
    for (int64_t k = 0; k < bc; ++k) breaks.push_back(static_cast<double>(k) * width + offset);
    breaks.push_back(upper);
  }
  const size_t nb = breaks.empty() ? 0 : breaks.size() - 1;
  std::vector<uint32_t> counts(nb, 0);
  for (int64_t i = 0; i < n && nb; ++i) {
    if (f->is_null(i) || std::isnan(x[i])) continue;
    const double v = x[i];
    if (v < breaks.front() || v > breaks.back()) continue;
    // The first bin includes its lower edge; the others are (lo, hi].
    size_t k = static_cast<size_t>(std::lower_bound(breaks.begin(), breaks.end(), v) - breaks.begin());
    k = k == 0 ? 0 : k - 1;
    ++counts[std::min(k, nb - 1)];
  }
  Buffer cb = alloc_values<uint32_t>(static_cast<int64_t>(nb));
  std::copy(counts.begin(), counts.end(), cb.mutable_as<uint32_t>());
  ArrayRef count = make_fixed(DataType::uint32(), static_cast<int64_t>(nb), Buffer(), std::move(cb));
  if (!include_breakpoint) return count;
  Buffer bb = alloc_values<double>(static_cast<int64_t>(nb));
  for (size_t k = 0; k < nb; ++k) bb.mutable_as<double>()[k] = breaks[k + 1];
  ArrayRef bp = make_fixed(DataType::float64(), static_cast<int64_t>(nb), Buffer(), std::move(bb));
  return Array::make(DataType::struct_({{"breakpoint", DataType::float64()}, {"count", DataType::uint32()}}),
                     static_cast<int64_t>(nb), Buffer(), {}, {bp, count});
}

}  // namespace frazil::compute
