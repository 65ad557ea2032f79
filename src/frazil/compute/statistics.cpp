#include "frazil/compute/statistics.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/compute/rolling/window_states.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

using namespace detail;

const char* stat_name(StatKind kind) {
  switch (kind) {
    case StatKind::Product: return "product";
    case StatKind::Skew: return "skew";
    case StatKind::Kurtosis: return "kurtosis";
    case StatKind::NanMin: return "nan_min";
    case StatKind::NanMax: return "nan_max";
    case StatKind::ArgMin: return "arg_min";
    case StatKind::ArgMax: return "arg_max";
    case StatKind::BitAnd: return "bitwise_and";
    case StatKind::BitOr: return "bitwise_or";
    case StatKind::BitXor: return "bitwise_xor";
    case StatKind::Entropy: return "entropy";
  }
  return "?";
}

namespace {

[[noreturn]] void unsupported(StatKind kind, const DataType& t) {
  throw InvalidOperationError(err_msg("`", stat_name(kind), "` operation not supported for dtype `", t.short_name(), "`"));
}

// Rows grouped: group(i) for every row, `ng` groups (a whole array is one group).
struct WholeArray {
  size_t operator()(int64_t) const { return 0; }
};
struct ByGroups {
  const IdxSize* ids;
  size_t operator()(int64_t i) const { return ids[i]; }
};

template <typename R>
ArrayRef from_values(const DataType& t, const std::vector<R>& v, const std::vector<uint8_t>& valid) {
  const int64_t n = static_cast<int64_t>(v.size());
  Buffer buf = alloc_values<R>(n);
  std::copy(v.begin(), v.end(), buf.mutable_as<R>());
  OutValidity ov(n);
  for (int64_t i = 0; i < n; ++i) ov.set(i, valid[i]);
  return make_fixed(t, n, ov.finish(), std::move(buf));
}

// "a is a better extreme than b" in Polars' order for arg_min/arg_max and min_by/max_by:
// NaN only wins over nothing (every number beats it).
template <typename T>
bool better(T a, T b, bool largest) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return largest ? a > b : a < b;
}

// The row of each group's extreme of `x` (-1 for none).
template <typename G>
std::vector<int64_t> extreme_rows(const Array& x, size_t ng, G group, bool largest) {
  std::vector<int64_t> best(ng, -1);
  const int64_t n = x.length();
  const bool nulls = x.null_count() > 0;
  const DataType& t = x.dtype();
  if (t.is_view()) {
    for (int64_t i = 0; i < n; ++i) {
      if (nulls && x.is_null(i)) continue;
      int64_t& b = best[group(i)];
      if (b < 0 || (largest ? x.str_value(i) > x.str_value(b) : x.str_value(i) < x.str_value(b))) b = i;
    }
    return best;
  }
  ArrayRef v = t.is_boolean() ? cast(x, DataType::uint8()) : widen_float16(x);
  if (!(v->dtype().is_numeric() || v->dtype().is_temporal())) throw InvalidOperationError(err_msg("cannot order dtype `", t.short_name(), "`"));
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = v->values<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (nulls && x.is_null(i)) continue;
      int64_t& b = best[group(i)];
      if (b < 0 || better(p[i], p[b], largest)) b = i;
    }
  };
  if (v->dtype().id() == TypeId::Decimal || v->dtype().id() == TypeId::Int128) run(Tag<__int128>{});
  else if (v->dtype().id() == TypeId::UInt128) run(Tag<unsigned __int128>{});
  else dispatch_numeric(v->dtype().physical().id(), run);
  return best;
}

template <typename G>
ArrayRef reduce_impl(StatKind kind, const Array& values, size_t ng, G group, const StatOptions& o) {
  const DataType out = stat_dtype(kind, values.dtype());
  const int64_t n = values.length();
  if (values.dtype().is_null()) {
    if (kind == StatKind::Product) return cast(*scalar_to_array(Scalar::int64(1), 1), out);
    return make_null_array(out, static_cast<int64_t>(ng));
  }
  const bool nulls = values.null_count() > 0;
  std::vector<uint8_t> valid(ng, 0);
  switch (kind) {
    case StatKind::ArgMin:
    case StatKind::ArgMax: {
      const std::vector<int64_t> best = extreme_rows(values, ng, group, kind == StatKind::ArgMax);
      // The position within the group: rows of a group come in row order.
      std::vector<uint32_t> pos(ng, 0), res(ng, 0);
      for (int64_t i = 0; i < n; ++i) {
        const size_t g = group(i);
        if (best[g] == i) {
          res[g] = pos[g];
          valid[g] = 1;
        }
        ++pos[g];
      }
      return from_values<uint32_t>(out, res, valid);
    }
    case StatKind::Product: {
      ArrayRef x = values.dtype() == out ? share(values) : cast(values, out);
      return dispatch_numeric(out.id(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::vector<T> acc(ng, T{1});
        const T* p = x->values<T>();
        for (int64_t i = 0; i < n; ++i) {
          if (nulls && x->is_null(i)) continue;
          T& a = acc[group(i)];
          if constexpr (std::is_integral_v<T>) {
            using U = std::make_unsigned_t<T>;
            a = static_cast<T>(static_cast<U>(a) * static_cast<U>(p[i]));
          } else {
            a *= p[i];
          }
        }
        std::fill(valid.begin(), valid.end(), 1);
        return from_values<T>(out, acc, valid);
      });
    }
    case StatKind::Skew:
    case StatKind::Kurtosis: {
      ArrayRef x = cast(values.dtype().is_temporal() ? *cast(values, values.dtype().physical()) : values,
                        DataType::float64());
      const double* p = x->values<double>();
      std::vector<rolling_detail::Moments> m(ng);
      for (int64_t i = 0; i < n; ++i)
        if (!nulls || x->is_valid(i)) m[group(i)].insert(p[i]);
      std::vector<double> res(ng, 0);
      for (size_t g = 0; g < ng; ++g) {
        std::optional<double> r = kind == StatKind::Skew ? m[g].skew(o.bias) : m[g].kurtosis(o.fisher, o.bias);
        if (r) res[g] = *r;
        valid[g] = r.has_value();
      }
      return from_values<double>(out, res, valid);
    }
    case StatKind::NanMin:
    case StatKind::NanMax: {
      const bool want_max = kind == StatKind::NanMax;
      if (values.dtype().is_view() || values.dtype().is_boolean()) {
        const std::vector<int64_t> best = extreme_rows(values, ng, group, want_max);
        std::vector<IdxSize> rows(ng);
        for (size_t g = 0; g < ng; ++g) rows[g] = best[g] < 0 ? kNullIdx : static_cast<IdxSize>(best[g]);
        return take(values, rows);
      }
      auto run = [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = values.values<T>();
        std::vector<T> acc(ng, T{});
        for (int64_t i = 0; i < n; ++i) {
          if (nulls && values.is_null(i)) continue;
          const size_t g = group(i);
          const T v = p[i];
          if (!valid[g]) {
            acc[g] = v;
            valid[g] = 1;
            continue;
          }
          if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(acc[g])) continue;
            if (std::isnan(v)) {
              acc[g] = v;
              continue;
            }
          }
          if (want_max ? v > acc[g] : v < acc[g]) acc[g] = v;
        }
        return from_values<T>(values.dtype(), acc, valid);
      };
      if (values.dtype().id() == TypeId::Decimal || values.dtype().id() == TypeId::Int128) return run(Tag<__int128>{});
      if (values.dtype().id() == TypeId::UInt128) return run(Tag<unsigned __int128>{});
      if (values.dtype().id() == TypeId::Float16)  // in Float32, stored back
        return float32_to_float16(*reduce_impl(kind, *float16_to_float32(values), ng, group, o));
      return dispatch_numeric(values.dtype().physical().id(), run);
    }
    case StatKind::BitAnd:
    case StatKind::BitOr:
    case StatKind::BitXor: {
      ArrayRef x = values.dtype().is_boolean() ? cast(values, DataType::uint8()) : share(values);
      ArrayRef r = dispatch_integer_wide(x->dtype().id(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = x->values<T>();
        std::vector<T> acc(ng, T{});
        for (int64_t i = 0; i < n; ++i) {
          if (nulls && x->is_null(i)) continue;
          const size_t g = group(i);
          if (!valid[g]) {
            acc[g] = p[i];
            valid[g] = 1;
          } else if (kind == StatKind::BitAnd) {
            acc[g] &= p[i];
          } else if (kind == StatKind::BitOr) {
            acc[g] |= p[i];
          } else {
            acc[g] ^= p[i];
          }
        }
        return from_values<T>(x->dtype(), acc, valid);
      });
      return r->dtype() == out ? r : cast(*r, out);
    }
    case StatKind::Entropy: {
      // Polars' (streaming) formula: -sum(x log x), and normalized by S = sum(x):
      // log(S) - sum(x log x) / S, which is -sum(p log p) for p = x / S where that is defined
      // (a negative sum or no value gives NaN, one value 0.0). Float32 is computed in Float32
      // as there (its sums in doubles).
      auto entropies = [&](auto tag) {
        using F = typename decltype(tag)::type;
        ArrayRef x = cast(values, std::is_same_v<F, float> ? DataType::float32() : DataType::float64());
        const F* p = x->values<F>();
        std::vector<double> sum(ng, 0), xlogx(ng, 0);
        const F lb = std::log(static_cast<F>(o.base));
        for (int64_t i = 0; i < n; ++i)
          if (!nulls || x->is_valid(i)) {
            const size_t g = group(i);
            sum[g] += p[i];
            xlogx[g] += static_cast<F>(p[i] * (std::log(p[i]) / lb));
          }
        std::vector<double> h(ng);
        for (size_t g = 0; g < ng; ++g) {
          const F s = static_cast<F>(sum[g]), t = static_cast<F>(xlogx[g]);
          h[g] = o.normalize ? static_cast<F>(std::log(s) / lb + -t / s) : -t;
          valid[g] = 1;
        }
        return h;
      };
      const std::vector<double> h =
          values.dtype().id() == TypeId::Float32 ? entropies(Tag<float>{}) : entropies(Tag<double>{});
      ArrayRef r = from_values<double>(DataType::float64(), h, valid);
      return out == r->dtype() ? r : cast(*r, out);
    }
  }
  throw InternalError("unknown statistic");
}

}  // namespace

DataType stat_dtype(StatKind kind, const DataType& t) {
  const TypeId id = t.id();
  switch (kind) {
    case StatKind::Product:
      if (id == TypeId::UInt64 || t.is_float()) return t;
      if (t.is_integer() || t.is_boolean() || t.is_null()) return DataType::int64();
      unsupported(kind, t);
    case StatKind::Skew:
    case StatKind::Kurtosis:
      if (t.is_numeric() || t.is_boolean() || t.is_null() || t.is_temporal()) return DataType::float64();
      unsupported(kind, t);
    case StatKind::NanMin:
    case StatKind::NanMax:
      if (t.is_nested()) unsupported(kind, t);
      return t;
    case StatKind::ArgMin:
    case StatKind::ArgMax:
      if (t.is_nested()) unsupported(kind, t);
      return DataType::uint32();
    case StatKind::BitAnd:
    case StatKind::BitOr:
    case StatKind::BitXor:
      if (t.is_integer() || t.is_boolean() || t.is_null()) return t;
      unsupported(kind, t);
    case StatKind::Entropy:
      if (id == TypeId::Float32) return t;
      if (t.is_numeric() || t.is_boolean() || t.is_null()) return DataType::float64();
      unsupported(kind, t);
  }
  unsupported(kind, t);
}

ArrayRef reduce(StatKind kind, const Array& values, const StatOptions& o) {
  return reduce_impl(kind, values, 1, WholeArray{}, o);
}

ArrayRef reduce_grouped(StatKind kind, const Array& values, const Groups& groups, const StatOptions& o) {
  if (static_cast<int64_t>(groups.group_ids.size()) != values.length())
    throw ShapeError(err_msg("`", stat_name(kind), "`: ", values.length(), " values for ", groups.group_ids.size(),
                             " group ids"));
  return reduce_impl(kind, values, groups.num_groups(), ByGroups{groups.group_ids.data()}, o);
}

ArrayRef value_by(const Array& values, const Array& by, bool largest) {
  if (by.length() != values.length())
    throw ShapeError(err_msg("`", largest ? "max_by" : "min_by", "`: `by` has ", by.length(), " rows for ",
                             values.length()));
  const std::vector<int64_t> best = extreme_rows(by, 1, WholeArray{}, largest);
  const std::vector<IdxSize> rows{best[0] < 0 ? kNullIdx : static_cast<IdxSize>(best[0])};
  return take(values, rows);
}

ArrayRef value_by_grouped(const Array& values, const Array& by, const Groups& groups, bool largest) {
  if (by.length() != values.length() || static_cast<int64_t>(groups.group_ids.size()) != values.length())
    throw ShapeError(err_msg("`", largest ? "max_by" : "min_by", "`: inputs of different lengths"));
  const std::vector<int64_t> best = extreme_rows(by, groups.num_groups(), ByGroups{groups.group_ids.data()}, largest);
  std::vector<IdxSize> rows(best.size());
  for (size_t g = 0; g < best.size(); ++g) rows[g] = best[g] < 0 ? kNullIdx : static_cast<IdxSize>(best[g]);
  return take(values, rows);
}

ArrayRef implode_grouped(const Array& values, const Groups& groups) {
  const size_t ng = groups.num_groups();
  const auto& ids = groups.group_ids;
  // A counting sort of the rows by group keeps each group's rows in row order.
  std::vector<int64_t> off(ng + 1, 0);
  for (IdxSize g : ids) ++off[g + 1];
  for (size_t g = 0; g < ng; ++g) off[g + 1] += off[g];
  std::vector<IdxSize> order(ids.size());
  std::vector<int64_t> cur(off.begin(), off.end() - 1);
  for (size_t i = 0; i < ids.size(); ++i) order[cur[ids[i]]++] = static_cast<IdxSize>(i);
  ArrayRef flat = take(values, order);
  Buffer ob = Buffer::allocate((ng + 1) * sizeof(int64_t));
  std::copy(off.begin(), off.end(), ob.mutable_as<int64_t>());
  return Array::make(DataType::list(values.dtype()), static_cast<int64_t>(ng), Buffer(), {ob}, {flat});
}

}  // namespace frazil::compute
