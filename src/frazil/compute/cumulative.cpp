#include "frazil/compute/cumulative.hpp"

#include <algorithm>
#include <cmath>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

template <typename T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_same_v<T, __int128> || std::is_same_v<T, unsigned __int128>) {
    using U = unsigned __int128;  // (not std::is_integral without GNU extensions)
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename T>
T wrapping_mul(T a, T b) {
  if constexpr (std::is_same_v<T, __int128> || std::is_same_v<T, unsigned __int128>) {
    using U = unsigned __int128;  // (not std::is_integral without GNU extensions)
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <typename T>
T wrapping_sub(T a, T b) {
  if constexpr (std::is_same_v<T, __int128> || std::is_same_v<T, unsigned __int128>) {
    using U = unsigned __int128;  // (not std::is_integral without GNU extensions)
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

// Calls f(Tag<T>) for the storage type of a numeric, temporal or Decimal dtype.
template <typename F>
decltype(auto) dispatch_fixed(const DataType& t, F&& f) {
  if (t.id() == TypeId::Decimal || t.id() == TypeId::Int128) return f(Tag<__int128>{});
  if (t.id() == TypeId::UInt128) return f(Tag<unsigned __int128>{});
  return dispatch_numeric(t.physical().id(), std::forward<F>(f));
}

// Runs body(begin, end, step) over each segment, forward or backward.
template <typename F>
void each_segment(Segments seg, F&& body) {
  for (size_t k = 0; k + 1 < seg.size(); ++k) body(seg[k], seg[k + 1]);
}

// A running fold over the non-null values of each segment: out[i] = acc after row i; null
// rows stay null (their output slot holds the accumulator, unread).
template <typename T, typename Init, typename Step>
ArrayRef running(const Array& x, const DataType& out_type, Segments seg, bool reverse, Init init, Step step) {
  const int64_t n = x.length();
  Buffer out = alloc_values<T>(n);
  T* o = out.mutable_as<T>();
  const T* v = x.values<T>();
  const bool nulls = x.null_count() > 0;
  each_segment(seg, [&](int64_t b, int64_t e) {
    bool started = false;
    T acc = init();
    auto visit = [&](int64_t i) {
      if (nulls && x.is_null(i)) {
        o[i] = acc;
        return;
      }
      acc = started ? step(acc, v[i]) : v[i];
      started = true;
      o[i] = acc;
    };
    if (reverse)
      for (int64_t i = e; i-- > b;) visit(i);
    else
      for (int64_t i = b; i < e; ++i) visit(i);
  });
  return make_fixed(out_type, n, aligned_validity(x), std::move(out));
}

// The index of the running best (min or max) non-null row of each segment up to each row,
// kIdx for none yet: for dtypes without a typed path (strings, Boolean).
ArrayRef running_best_by_index(const Array& x, Segments seg, bool reverse, bool want_max) {
  const int64_t n = x.length();
  std::vector<IdxSize> best(static_cast<size_t>(n), kNullIdx);
  SortOptions so;
  so.stable = true;
  // Ranks of the values in total order (equal values equal ranks) keep the comparison cheap.
  std::vector<IdxSize> order = arg_sort({share(x)}, so);
  std::vector<uint32_t> rank(static_cast<size_t>(n));
  for (size_t i = 0; i < order.size(); ++i) {
    const bool same = i > 0 && values_equal(x, order[i], x, order[i - 1]);
    rank[order[i]] = i == 0 ? 0 : rank[order[i - 1]] + (same ? 0 : 1);
  }
  each_segment(seg, [&](int64_t b, int64_t e) {
    IdxSize cur = kNullIdx;
    auto visit = [&](int64_t i) {
      if (x.is_valid(i) && (cur == kNullIdx || (want_max ? rank[i] > rank[cur] : rank[i] < rank[cur])))
        cur = static_cast<IdxSize>(i);
      best[i] = x.is_valid(i) ? cur : kNullIdx;
    };
    if (reverse)
      for (int64_t i = e; i-- > b;) visit(i);
    else
      for (int64_t i = b; i < e; ++i) visit(i);
  });
  return take(x, best);
}

}  // namespace

DataType cum_sum_dtype(const DataType& t) {
  switch (t.id()) {
    case TypeId::Int8:
    case TypeId::Int16:
    case TypeId::UInt8:
    case TypeId::UInt16: return DataType::int64();
    case TypeId::Boolean: return DataType::uint32();
    case TypeId::Decimal: return DataType::decimal(38, t.scale());
    case TypeId::Null: return DataType::null();
    default: break;
  }
  if (t.is_primitive_numeric() || t.is_128_bit_integer() || t.id() == TypeId::Duration) return t;
  throw InvalidOperationError(err_msg("`cum_sum` operation not supported for dtype `", t.short_name(), "`"));
}

DataType cum_prod_dtype(const DataType& t) {
  switch (t.id()) {
    case TypeId::Int64:
    case TypeId::UInt64:
    case TypeId::Int128:
    case TypeId::UInt128:
    case TypeId::Float32:
    case TypeId::Float64: return t;
    case TypeId::Null: return DataType::null();
    default: break;
  }
  if (t.is_integer() || t.is_boolean()) return DataType::int64();
  throw InvalidOperationError(err_msg("`cum_prod` operation not supported for dtype `", t.short_name(), "`"));
}

ArrayRef cum_sum(const Array& values, Segments seg, bool reverse) {
  check_segments(seg, values.length(), "cum_sum");
  const DataType out = cum_sum_dtype(values.dtype());
  if (out.is_null()) return share(values);
  ArrayRef x = values.dtype() == out ? share(values) : cast(values, out);
  return dispatch_fixed(out, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return running<T>(*x, out, seg, reverse, [] { return T{}; }, [](T a, T b) { return wrapping_add(a, b); });
  });
}

ArrayRef cum_prod(const Array& values, Segments seg, bool reverse) {
  check_segments(seg, values.length(), "cum_prod");
  const DataType out = cum_prod_dtype(values.dtype());
  if (out.is_null()) return share(values);
  ArrayRef x = values.dtype() == out ? share(values) : cast(values, out);
  return dispatch_numeric_wide(out.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return running<T>(*x, out, seg, reverse, [] { return T{1}; }, [](T a, T b) { return wrapping_mul(a, b); });
  });
}

static ArrayRef cum_extreme(const Array& values, Segments seg, bool reverse, bool want_max) {
  const DataType& t = values.dtype();
  check_segments(seg, values.length(), want_max ? "cum_max" : "cum_min");
  if (t.is_null()) return share(values);
  if (t.is_nested())
    throw InvalidOperationError(err_msg("`cum_", want_max ? "max" : "min", "` operation not supported for dtype `",
                                        t.short_name(), "`"));
  if (!(t.is_numeric() || t.is_temporal())) return running_best_by_index(values, seg, reverse, want_max);
  return dispatch_fixed(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // NaN is skipped: a number replaces a NaN accumulator, a NaN never replaces a number.
    return running<T>(values, t, seg, reverse, [] { return T{}; }, [want_max](T a, T b) {
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(b)) return a;
        if (std::isnan(a)) return b;
      }
      return want_max ? (b > a ? b : a) : (b < a ? b : a);
    });
  });
}

ArrayRef cum_min(const Array& values, Segments seg, bool reverse) {
  if (values.dtype().id() == TypeId::Float16) return float32_to_float16(*cum_min(*float16_to_float32(values), seg, reverse));
  return cum_extreme(values, seg, reverse, false);
}
ArrayRef cum_max(const Array& values, Segments seg, bool reverse) {
  if (values.dtype().id() == TypeId::Float16) return float32_to_float16(*cum_max(*float16_to_float32(values), seg, reverse));
  return cum_extreme(values, seg, reverse, true);
}

ArrayRef cum_count(const Array& values, Segments seg, bool reverse) {
  const int64_t n = values.length();
  check_segments(seg, n, "cum_count");
  Buffer out = alloc_values<uint32_t>(n);
  uint32_t* o = out.mutable_as<uint32_t>();
  const bool nulls = values.null_count() > 0;
  each_segment(seg, [&](int64_t b, int64_t e) {
    uint32_t c = 0;
    if (reverse)
      for (int64_t i = e; i-- > b;) o[i] = c += !nulls || values.is_valid(i);
    else
      for (int64_t i = b; i < e; ++i) o[i] = c += !nulls || values.is_valid(i);
  });
  return make_fixed(DataType::uint32(), n, Buffer(), std::move(out));
}

DataType diff_dtype(const DataType& t) {
  switch (t.id()) {
    case TypeId::UInt8: return DataType::int16();
    case TypeId::UInt16: return DataType::int32();
    case TypeId::UInt32:
    case TypeId::UInt64: return DataType::int64();
    case TypeId::Date: return DataType::duration(TimeUnit::Microseconds);
    case TypeId::Datetime: return DataType::duration(t.time_unit());
    case TypeId::Time: return DataType::duration(TimeUnit::Nanoseconds);
    case TypeId::Decimal: return DataType::decimal(38, t.scale());
    case TypeId::Null: return DataType::null();
    default: break;
  }
  if (t.is_primitive_numeric() || t.is_128_bit_integer() || t.id() == TypeId::Duration) return t;
  throw InvalidOperationError(err_msg("`diff` operation not supported for dtype `", t.short_name(), "`"));
}

// out[i] = f(x[i], x[i - n]) inside each segment; null where either is null or missing.
template <typename T, typename R, typename F>
static ArrayRef lagged(const Array& x, const DataType& out_type, Segments seg, int64_t n, F f) {
  const int64_t len = x.length();
  Buffer out = alloc_values<R>(len);
  R* o = out.mutable_as<R>();
  const T* v = x.values<T>();
  OutValidity valid(len);
  each_segment(seg, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t j = i - n;
      const bool ok = j >= b && j < e && x.is_valid(i) && x.is_valid(j);
      valid.set(i, ok);
      o[i] = ok ? f(v[i], v[j]) : R{};
    }
  });
  return make_fixed(out_type, len, valid.finish(), std::move(out));
}

ArrayRef diff(const Array& values, Segments seg, int64_t n) {
  check_segments(seg, values.length(), "diff");
  const DataType out = diff_dtype(values.dtype());
  if (out.is_null()) return share(values);
  // Dates count microseconds, as their difference does.
  ArrayRef x = values.dtype().id() == TypeId::Date ? cast(values, DataType::datetime(TimeUnit::Microseconds))
                                                  : share(values);
  if (!values.dtype().is_temporal() && x->dtype() != out) x = cast(*x, out);
  return dispatch_fixed(out, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return lagged<T, T>(*x, out, seg, n, [](T a, T b) { return wrapping_sub(a, b); });
  });
}

ArrayRef pct_change(const Array& values, Segments seg, int64_t n) {
  check_segments(seg, values.length(), "pct_change");
  const DataType& t = values.dtype();
  const DataType out = t.id() == TypeId::Float32 ? t : DataType::float64();
  if (t.is_null()) return make_null_array(out, values.length());
  if (!(t.is_numeric() || t.is_boolean()))
    throw InvalidOperationError(err_msg("`pct_change` operation not supported for dtype `", t.short_name(), "`"));
  ArrayRef x = t == out ? share(values) : cast(values, out);
  return dispatch_numeric(out.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return lagged<T, T>(*x, out, seg, n, [](T a, T b) { return (a - b) / b; });
  });
}

ArrayRef rle_id(const Array& values, Segments seg) {
  const int64_t n = values.length();
  check_segments(seg, n, "rle_id");
  Buffer out = alloc_values<uint32_t>(n);
  uint32_t* o = out.mutable_as<uint32_t>();
  each_segment(seg, [&](int64_t b, int64_t e) {
    uint32_t id = 0;
    for (int64_t i = b; i < e; ++i) {
      if (i > b && !values_equal(values, i, values, i - 1)) ++id;
      o[i] = id;
    }
  });
  return make_fixed(DataType::uint32(), n, Buffer(), std::move(out));
}

ArrayRef rle(const Array& values) {
  const int64_t n = values.length();
  std::vector<IdxSize> starts;
  PrimitiveBuilder<uint32_t> lens(DataType::uint32());
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0 && values_equal(values, i, values, i - 1)) continue;
    if (!starts.empty()) lens.push(static_cast<uint32_t>(i - starts.back()));
    starts.push_back(static_cast<IdxSize>(i));
  }
  if (!starts.empty()) lens.push(static_cast<uint32_t>(n - starts.back()));
  ArrayRef len = lens.finish();
  ArrayRef vals = take(values, starts);
  return Array::make(DataType::struct_({{"len", DataType::uint32()}, {"value", values.dtype()}}),
                     static_cast<int64_t>(starts.size()), Buffer(), {}, {len, vals});
}

ArrayRef peaks(const Array& values, Segments seg, bool maxima) {
  const int64_t n = values.length();
  check_segments(seg, n, "peak");
  const DataType& t = values.dtype();
  if (t.is_null()) return make_null_array(DataType::boolean(), n);
  ArrayRef x = t.is_boolean() ? cast(values, DataType::int8()) : share(values);
  if (!(x->dtype().is_numeric() || x->dtype().is_temporal()))
    throw InvalidOperationError(err_msg("`peak_", maxima ? "max" : "min", "` operation not supported for dtype `",
                                        t.short_name(), "`"));
  return dispatch_fixed(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* v = x->values<T>();
    // A neighbour strictly beyond x (floats in total order: NaN above every number).
    auto beyond = [maxima](T nb, T me) { return maxima ? total_lt(nb, me) : total_lt(me, nb); };
    Buffer bits = alloc_bits(n);
    OutValidity valid(n);
    each_segment(seg, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if (x->is_null(i)) {
          valid.set(i, false);
          continue;
        }
        // Kleene AND of the two sides: false wins over null.
        auto side = [&](int64_t j) -> int {  // 1 true, 0 false, -1 null
          if (j < b || j >= e) return beyond(T{}, v[i]) ? 1 : 0;
          if (x->is_null(j)) return -1;
          return beyond(v[j], v[i]) ? 1 : 0;
        };
        const int l = side(i - 1), r = side(i + 1);
        const bool is_false = l == 0 || r == 0;
        valid.set(i, is_false || (l == 1 && r == 1));
        set_bit_to(bits.mutable_data(), i, !is_false && l == 1 && r == 1);
      }
    });
    return Array::make(DataType::boolean(), n, valid.finish(), {std::move(bits)});
  });
}

// The row each null takes its value from (kNullIdx: stays null).
static ArrayRef fill_from(const Array& values, Segments seg, std::optional<int64_t> limit, bool backward) {
  const int64_t n = values.length();
  check_segments(seg, n, backward ? "backward_fill" : "forward_fill");
  if (values.null_count() == 0) return share(values);
  const int64_t max_run = limit ? *limit : n;
  std::vector<IdxSize> src(static_cast<size_t>(n));
  each_segment(seg, [&](int64_t b, int64_t e) {
    IdxSize last = kNullIdx;
    int64_t run = 0;
    auto visit = [&](int64_t i) {
      if (values.is_valid(i)) {
        last = static_cast<IdxSize>(i);
        run = 0;
        src[i] = last;
      } else {
        src[i] = last != kNullIdx && ++run <= max_run ? last : kNullIdx;
      }
    };
    if (backward)
      for (int64_t i = e; i-- > b;) visit(i);
    else
      for (int64_t i = b; i < e; ++i) visit(i);
  });
  return take(values, src);
}

ArrayRef fill_forward(const Array& values, Segments seg, std::optional<int64_t> limit) {
  return fill_from(values, seg, limit, false);
}
ArrayRef fill_backward(const Array& values, Segments seg, std::optional<int64_t> limit) {
  return fill_from(values, seg, limit, true);
}

ArrayRef interpolate(const Array& values, Segments seg, bool nearest) {
  const int64_t n = values.length();
  check_segments(seg, n, "interpolate");
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  if (!(t.is_numeric() || t.is_temporal()))
    throw InvalidOperationError(err_msg("`interpolate` operation not supported for dtype `", t.short_name(), "`"));
  if (nearest) {
    // Each null between two values takes the nearer one (the later on a tie).
    std::vector<IdxSize> src(static_cast<size_t>(n));
    each_segment(seg, [&](int64_t b, int64_t e) {
      int64_t prev = -1;
      for (int64_t i = b; i < e; ++i) {
        if (values.is_valid(i)) {
          src[i] = static_cast<IdxSize>(i);
          if (prev >= 0)
            for (int64_t j = prev + 1; j < i; ++j) src[j] = static_cast<IdxSize>(j - prev < i - j ? prev : i);
          prev = i;
        } else {
          src[i] = kNullIdx;
        }
      }
    });
    return take(values, src);
  }
  // Linear: floats interpolate as floats; integers give Float64; Decimal and temporals stay
  // in their dtype (interpolated as integers, truncated).
  const bool as_float = t.is_float() || t.is_integer();
  const DataType out = t.is_integer() ? DataType::float64() : t;
  ArrayRef x = out == t ? share(values) : cast(values, out);
  return dispatch_fixed(out, [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    const T* v = x->values<T>();
    Buffer buf = alloc_values<T>(n);
    T* o = buf.mutable_as<T>();
    OutValidity valid(n);
    each_segment(seg, [&](int64_t b, int64_t e) {
      int64_t prev = -1;
      for (int64_t i = b; i < e; ++i) {
        if (!x->is_valid(i)) {
          valid.set(i, false);
          o[i] = T{};
          continue;
        }
        valid.set(i, true);
        o[i] = v[i];
        if (prev >= 0 && i - prev > 1) {
          const int64_t span = i - prev;
          for (int64_t j = prev + 1; j < i; ++j) {
            if constexpr (std::is_floating_point_v<T>) {
              o[j] = v[prev] + (v[i] - v[prev]) * static_cast<T>(j - prev) / static_cast<T>(span);
            } else {
              const __int128 d = static_cast<__int128>(v[i]) - static_cast<__int128>(v[prev]);
              o[j] = static_cast<T>(static_cast<__int128>(v[prev]) + d * (j - prev) / span);
            }
            valid.set(j, true);
          }
        }
        prev = i;
      }
    });
    (void)as_float;
    return make_fixed(out, n, valid.finish(), std::move(buf));
  });
}

ArrayRef interpolate_by(const Array& values, const Array& by, Segments seg) {
  const int64_t n = values.length();
  check_segments(seg, n, "interpolate_by");
  const DataType& t = values.dtype();
  const TypeId bt = by.dtype().id();
  const bool values_ok = t.is_null() || t.id() == TypeId::Float64 || t.id() == TypeId::Float32 ||
                         t.id() == TypeId::Int64 || t.id() == TypeId::Int32 || t.id() == TypeId::UInt64 ||
                         t.id() == TypeId::UInt32;
  const bool by_ok = bt == TypeId::Date || bt == TypeId::Datetime || bt == TypeId::Int64 || bt == TypeId::Int32 ||
                     bt == TypeId::UInt64 || bt == TypeId::UInt32 || bt == TypeId::Float64 || bt == TypeId::Float32;
  if (!values_ok || !by_ok)
    throw InvalidOperationError(
        "expected series to be Float64, Float32, Int64, Int32, UInt64, UInt32, and `by` to be Date, Datetime, "
        "Int64, Int32, UInt64, or UInt32");
  // (InvalidOperationError, as Polars.)
  if (by.length() != n)
    throw InvalidOperationError(err_msg("`by` column must be the same length as Series (", n, "), got ", by.length()));
  const DataType out = t.id() == TypeId::Float32 ? t : DataType::float64();
  if (t.is_null()) return make_null_array(out, n);
  // Nothing to fill: the values as they are, whatever `by` holds (Polars checks it only then).
  if (values.null_count() == 0) return t == out ? share(values) : cast(values, out);
  if (by.null_count() > 0)
    throw InvalidOperationError("null values in `by` column are not yet supported in 'interpolate_by' expression");
  ArrayRef x = cast(values, out);
  ArrayRef key = cast(by, DataType::float64());
  const double* k = key->values<double>();
  return dispatch_numeric(out.id(), [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    const T* v = x->values<T>();
    Buffer buf = alloc_values<T>(n);
    T* o = buf.mutable_as<T>();
    OutValidity valid(n);
    std::vector<int64_t> order;
    each_segment(seg, [&](int64_t b, int64_t e) {
      // The segment's rows in `by` order (stable), then linear interpolation along it.
      order.resize(static_cast<size_t>(e - b));
      for (int64_t i = b; i < e; ++i) order[i - b] = i;
      std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return k[p] < k[q]; });
      int64_t prev = -1;
      for (size_t pos = 0; pos < order.size(); ++pos) {
        const int64_t i = order[pos];
        if (!x->is_valid(i)) {
          valid.set(i, false);
          o[i] = T{};
          continue;
        }
        valid.set(i, true);
        o[i] = v[i];
        if (prev >= 0) {
          const int64_t pi = order[prev];
          for (size_t q = prev + 1; q < pos; ++q) {
            const int64_t j = order[q];
            const double w = (k[j] - k[pi]) / (k[i] - k[pi]);
            o[j] = static_cast<T>(static_cast<double>(v[pi]) + (static_cast<double>(v[i]) - v[pi]) * w);
            valid.set(j, true);
          }
        }
        prev = static_cast<int64_t>(pos);
      }
    });
    return make_fixed(out, n, valid.finish(), std::move(buf));
  });
}

}  // namespace frazil::compute
