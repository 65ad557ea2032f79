#include "frazil/compute/ewm.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "frazil/compute/cast.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// Polars' recurrences (polars-compute/src/ewm): one running state per segment.
template <typename T>
struct EwmState {
  EwmKind kind;
  T alpha;
  bool adjust, bias, ignore_nulls;
  int64_t min_samples;
  int64_t count = 0;
  T mean = 0, weight = 0, cov = 0, weight_sum = 0, weight_square_sum = 0, sum = 0;

  // The output for this row (nullopt: null).
  std::optional<T> step(std::optional<T> x) {
    const T one = 1;
    if (kind == EwmKind::Sum) {
      if (x) {
        sum = count == 0 ? *x : sum * (one - alpha) + *x;
        ++count;
      } else if (count > 0 && !ignore_nulls) {
        sum *= one - alpha;
      }
      if (x && count >= min_samples) return sum;
      return std::nullopt;
    }
    const T other = adjust ? one : alpha;
    if (count == 0 && x) {
      count = 1;
      mean = *x;
      weight = weight_sum = weight_square_sum = one;
      cov = 0;
    } else {
      if (x || !ignore_nulls) {
        weight *= one - alpha;
        weight_sum *= one - alpha;
        weight_square_sum *= (one - alpha) * (one - alpha);
      }
      if (x) {
        ++count;
        const T new_weight = weight + other;
        const T frac = other / new_weight;
        const T new_mean = mean + (*x - mean) * frac;
        cov = (weight * (cov + (mean - new_mean) * (mean - new_mean)) + other * (*x - new_mean) * (*x - new_mean)) /
              new_weight;
        mean = new_mean;
        weight = new_weight;
        weight_sum += other;
        weight_square_sum += other * other;
        if (!adjust) {
          weight_sum /= new_weight;
          weight_square_sum /= new_weight * new_weight;
          weight = one;
        }
      }
    }
    if (!x || count < min_samples) return std::nullopt;
    if (kind == EwmKind::Mean) return mean;
    T v = cov;
    if (!bias) {
      const T num = weight_sum * weight_sum;
      const T den = num - weight_square_sum;
      if (!(den > 0)) return std::nullopt;
      v = num / den * cov;
    }
    return kind == EwmKind::Std ? std::sqrt(v) : v;
  }
};

ArrayRef as_float_values(const Array& values, const char* what) {
  const DataType& t = values.dtype();
  if (t.id() == TypeId::Float32 || t.id() == TypeId::Float64) return share(values);
  if (!(t.is_numeric() || t.is_boolean() || t.is_null() || t.is_temporal()))
    throw InvalidOperationError(err_msg("`", what, "` operation not supported for dtype `", t.short_name(), "`"));
  return cast(t.is_temporal() ? *cast(values, t.physical()) : values, DataType::float64());
}

}  // namespace

ArrayRef ewm(EwmKind kind, const Array& values, Segments seg, const EwmOptions& o) {
  const int64_t n = values.length();
  check_segments(seg, n, "ewm");
  if (!(o.alpha > 0 && o.alpha <= 1)) throw ComputeError("alpha must be in [0; 1]");
  ArrayRef x = as_float_values(values, "ewm");
  return dispatch_numeric(x->dtype().id(), [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_floating_point_v<T>) {
      throw InternalError("ewm on a non-float array");
    } else {
      const T* v = x->values<T>();
      Buffer buf = alloc_values<T>(n);
      T* out = buf.mutable_as<T>();
      OutValidity valid(n);
      for (size_t k = 0; k + 1 < seg.size(); ++k) {
        EwmState<T> st{kind, static_cast<T>(o.alpha), o.adjust, o.bias, o.ignore_nulls, std::max<int64_t>(o.min_samples, 1)};
        for (int64_t i = seg[k]; i < seg[k + 1]; ++i) {
          std::optional<T> r = st.step(x->is_valid(i) ? std::optional<T>(v[i]) : std::nullopt);
          valid.set(i, r.has_value());
          out[i] = r ? *r : T{};
        }
      }
      return make_fixed(x->dtype(), n, valid.finish(), std::move(buf));
    }
  });
}

ArrayRef ewm_by(bool mean, const Array& values, const Array& by, Segments seg, int64_t half_life) {
  const int64_t n = values.length();
  check_segments(seg, n, mean ? "ewm_mean_by" : "ewm_sum_by");
  const DataType& t = values.dtype();
  const TypeId bt = by.dtype().id();
  const bool values_ok = t.is_null() || t.is_float() || t.id() == TypeId::Int64 || t.id() == TypeId::Int32 ||
                         t.id() == TypeId::UInt64 || t.id() == TypeId::UInt32;
  const bool by_ok = bt == TypeId::Date || bt == TypeId::Datetime || bt == TypeId::Int64 || bt == TypeId::Int32 ||
                     bt == TypeId::UInt64 || bt == TypeId::UInt32;
  if (!values_ok || !by_ok)
    throw InvalidOperationError(
        "expected series to be Float64, Float32, Int64, Int32, UInt64, UInt32, and `by` to be Date, Datetime, "
        "Int64, Int32, UInt64, or UInt32");
  if (by.length() != n) throw ShapeError(err_msg("`ewm_by`: `by` has ", by.length(), " rows for ", n));
  if (half_life < 0) throw InvalidOperationError("half_life cannot be negative");
  // Times as Int64 in the half-life's unit: nanoseconds for temporals.
  ArrayRef times;
  int64_t hl = half_life;
  if (bt == TypeId::Date) {
    times = cast(*cast(by, DataType::datetime(TimeUnit::Microseconds)), DataType::int64());
    hl = half_life / 1000;
  } else if (bt == TypeId::Datetime) {
    times = cast(by, DataType::int64());
    const TimeUnit u = by.dtype().time_unit();
    hl = u == TimeUnit::Milliseconds ? half_life / 1000000 : u == TimeUnit::Microseconds ? half_life / 1000 : half_life;
  } else {
    times = cast(by, DataType::int64());
  }
  ArrayRef x = as_float_values(values, mean ? "ewm_mean_by" : "ewm_sum_by");
  const int64_t* tv = times->values<int64_t>();
  return dispatch_numeric(x->dtype().id(), [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_floating_point_v<T>) {
      throw InternalError("ewm_by on a non-float array");
    } else {
      const T* v = x->values<T>();
      Buffer buf = alloc_values<T>(n);
      T* out = buf.mutable_as<T>();
      std::fill(out, out + n, T{});
      OutValidity valid(n);
      std::vector<int64_t> order;
      for (size_t k = 0; k + 1 < seg.size(); ++k) {
        const int64_t b = seg[k], e = seg[k + 1];
        order.resize(static_cast<size_t>(e - b));
        std::iota(order.begin(), order.end(), b);
        std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) {
          const bool pn = times->is_null(p), qn = times->is_null(q);
          if (pn || qn) return !pn && qn;
          return tv[p] < tv[q];
        });
        bool started = false;
        T prev = 0;
        int64_t prev_t = 0;
        for (int64_t i : order) {
          const bool ok = x->is_valid(i) && times->is_valid(i);
          valid.set(i, ok);
          if (!ok) continue;
          if (!started) {
            prev = v[i];
            prev_t = tv[i];
            started = true;
          } else if (!(mean && v[i] == prev)) {
            const T decay = std::pow(T(0.5), static_cast<T>(tv[i] - prev_t) / static_cast<T>(hl));
            prev = decay * prev + (mean ? T(1) - decay : T(1)) * v[i];
            prev_t = tv[i];
          } else {
            prev_t = tv[i];
          }
          out[i] = prev;
        }
      }
      return make_fixed(x->dtype(), n, valid.finish(), std::move(buf));
    }
  });
}

}  // namespace frazil::compute
