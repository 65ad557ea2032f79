#include "frazil/compute/rolling/rolling.hpp"

#include <algorithm>
#include <numeric>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/rolling/duration.hpp"
#include "frazil/compute/rolling/window_states.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

using namespace detail;
using namespace rolling_detail;

const char* rolling_agg_name(RollingAgg agg) {
  switch (agg) {
    case RollingAgg::Sum: return "rolling_sum";
    case RollingAgg::Mean: return "rolling_mean";
    case RollingAgg::Min: return "rolling_min";
    case RollingAgg::Max: return "rolling_max";
    case RollingAgg::Var: return "rolling_var";
    case RollingAgg::Std: return "rolling_std";
    case RollingAgg::Median: return "rolling_median";
    case RollingAgg::Quantile: return "rolling_quantile";
    case RollingAgg::Skew: return "rolling_skew";
    case RollingAgg::Kurtosis: return "rolling_kurtosis";
    case RollingAgg::Rank: return "rolling_rank";
  }
  return "rolling";
}

namespace {

[[noreturn]] void unsupported(RollingAgg agg, const DataType& t) {
  throw InvalidOperationError(err_msg("`", rolling_agg_name(agg), "` operation not supported for dtype `",
                                      t.short_name(), "`"));
}

DataType float_of(const DataType& t) { return t.id() == TypeId::Float32 ? t : DataType::float64(); }

// The dtype the kernel reads: Boolean as UInt8 (min/max) or its sums' width, Date as
// Datetime(us) where the result is one (mean, median, quantile).
struct Plan {
  DataType out;     // the result's dtype
  DataType work;    // the dtype the values are cast to before the kernel
};

Plan plan_for(RollingAgg agg, const DataType& t, bool weighted) {
  const TypeId id = t.id();
  if (id == TypeId::Float16) {
    // Computed in Float32; sums and extremes stay Float16, the other results are Float64
    // (Polars' dtypes).
    const Plan f = plan_for(agg, DataType::float32(), weighted);
    const bool keeps = !weighted && (agg == RollingAgg::Sum || agg == RollingAgg::Min || agg == RollingAgg::Max);
    return {keeps ? t : (f.out.id() == TypeId::Float32 ? DataType::float64() : f.out), f.work};
  }
  const bool num = t.is_primitive_numeric() || t.is_boolean();
  if (weighted) {
    if (!(num || id == TypeId::Decimal)) unsupported(agg, t);
    return {float_of(t), float_of(t)};
  }
  switch (agg) {
    case RollingAgg::Sum: {
      if (!num) unsupported(agg, t);
      DataType out = t;
      if (id == TypeId::Int8 || id == TypeId::Int16 || id == TypeId::UInt8 || id == TypeId::UInt16)
        out = DataType::int64();
      if (id == TypeId::Boolean) out = DataType::uint32();
      return {out, out};
    }
    case RollingAgg::Min:
    case RollingAgg::Max:
      if (num || id == TypeId::Date || id == TypeId::Datetime || id == TypeId::Duration || id == TypeId::Time)
        return {t, t.is_boolean() ? DataType::uint8() : t};
      unsupported(agg, t);
    case RollingAgg::Mean:
    case RollingAgg::Median:
    case RollingAgg::Quantile:
      if (id == TypeId::Date) return {DataType::datetime(TimeUnit::Microseconds), DataType::datetime(TimeUnit::Microseconds)};
      if (id == TypeId::Datetime || id == TypeId::Duration || id == TypeId::Time) return {t, t};
      if (num || id == TypeId::Decimal) return {float_of(t), float_of(t)};
      unsupported(agg, t);
    case RollingAgg::Var:
    case RollingAgg::Std:
    case RollingAgg::Skew:
    case RollingAgg::Kurtosis:
      if (num || id == TypeId::Decimal || id == TypeId::Date || id == TypeId::Datetime)
        return {float_of(t),
                DataType::float64()};
      unsupported(agg, t);
    case RollingAgg::Rank:
      if (num || t.is_temporal() || id == TypeId::Decimal) return {DataType::float64(), DataType::float64()};
      unsupported(agg, t);
  }
  unsupported(agg, t);
}

// The values as doubles (physical values for temporals).
std::vector<double> as_doubles(const Array& x) {
  ArrayRef f = cast(x.dtype().is_temporal() ? *cast(x, x.dtype().physical()) : x, DataType::float64());
  const double* p = f->values<double>();
  return std::vector<double>(p, p + x.length());
}

// The driver: moves each window forward, feeding rows in and out of `state`, and writes
// emit(i, count) for every row. A window starting at or after the previous one's end (a new
// segment) resets the state.
template <typename Bounds, typename State, typename Emit>
void drive(const Array& x, int64_t n, Bounds&& bounds, State& st, Emit&& emit) {
  const bool nulls = x.null_count() > 0;
  int64_t cs = 0, ce = 0, count = 0;
  for (int64_t i = 0; i < n; ++i) {
    auto [s, e] = bounds(i);
    if (s >= ce || s < cs) {
      st.reset(s);
      cs = ce = s;
      count = 0;
    }
    // One row in and one out (a full fixed window moving on): a state that can do both in
    // one step does.
    if constexpr (requires { st.slide(ce, cs); }) {
      if (e == ce + 1 && s == cs + 1 && count > 0 && (!nulls || (x.is_valid(ce) && x.is_valid(cs)))) {
        st.slide(ce++, cs++);
        emit(i, count);
        continue;
      }
    }
    for (; ce < e; ++ce)
      if (!nulls || x.is_valid(ce)) {
        st.add(ce);
        ++count;
      }
    for (; cs < s; ++cs)
      if (!nulls || x.is_valid(cs)) {
        st.remove(cs, cs + 1);
        --count;
      }
    emit(i, count);
  }
}

// Output buffers of one kernel run.
template <typename R>
struct Out {
  Buffer buf;
  R* o;
  OutValidity valid;
  explicit Out(int64_t n) : buf(alloc_values<R>(n)), o(buf.mutable_as<R>()), valid(n) {}
  void set(int64_t i, std::optional<R> v) {
    valid.set(i, v.has_value());
    o[i] = v ? *v : R{};
  }
  ArrayRef finish(const DataType& t, int64_t n) { return make_fixed(t, n, valid.finish(), std::move(buf)); }
};

// Windows of at most this many rows keep their values in one sorted vector: moving a few
// hundred doubles per row (one memmove) costs less than the heaps' upkeep.
constexpr int64_t kSortedWindowMax = 256;

// `max_window`: an upper bound of the windows' lengths, -1 when unknown.
template <typename Bounds>
ArrayRef run(const Array& values, Bounds&& bounds, const RollingParams& p, int64_t max_window = -1) {
  const int64_t n = values.length();
  const Plan plan = plan_for(p.agg, values.dtype(), false);
  ArrayRef x = values.dtype() == plan.work ? share(values) : cast(values, plan.work);
  const int64_t min_samples = p.min_samples;
  auto enough = [&](int64_t count) { return count >= min_samples && count > 0; };
  switch (p.agg) {
    case RollingAgg::Sum:
    case RollingAgg::Mean: {
      const bool mean = p.agg == RollingAgg::Mean;
      const DataType phys = x->dtype().physical();
      if (phys.is_integer()) {
        // Temporal means (Datetime, Duration) are integers; integer means are floats.
        return dispatch_integer_wide(phys.id(), [&](auto tag) -> ArrayRef {
          using T = typename decltype(tag)::type;
          const T* v = x->values<T>();
          struct S {
            const T* v;
            // (Unsigned: sums wrap in the result's width, as Polars', without overflow.)
            unsigned __int128 sum = 0;
            void reset(int64_t) { sum = 0; }
            void add(int64_t i) { sum += static_cast<unsigned __int128>(v[i]); }
            void remove(int64_t i, int64_t) { sum -= static_cast<unsigned __int128>(v[i]); }
          } st{v};
          if (!mean) {
            Out<T> out(n);
            drive(*x, n, bounds, st, [&](int64_t i, int64_t c) {
              out.set(i, c >= min_samples ? std::optional<T>(static_cast<T>(st.sum)) : std::nullopt);
            });
            return out.finish(plan.out, n);
          }
          Out<T> out(n);  // temporal mean: truncated toward zero
          drive(*x, n, bounds, st, [&](int64_t i, int64_t c) {
            out.set(i, enough(c) ? std::optional<T>(static_cast<T>(static_cast<__int128>(st.sum) / c)) : std::nullopt);
          });
          return out.finish(plan.out, n);
        });
      }
      // Floats (integers were cast to Float64 for the mean).
      return dispatch_numeric(phys.id(), [&](auto tag) -> ArrayRef {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_floating_point_v<T>) {
          throw InternalError("rolling float sum on integers");
        } else {
          const T* v = x->values<T>();
          struct S {
            const T* v;
            FloatSum s;
            void reset(int64_t) { s.reset(); }
            void add(int64_t i) { s.add(static_cast<double>(v[i])); }
            void remove(int64_t i, int64_t) { s.remove(static_cast<double>(v[i])); }
          } st{v, {}};
          Out<T> out(n);
          drive(*x, n, bounds, st, [&](int64_t i, int64_t c) {
            if (!mean) out.set(i, c >= min_samples ? std::optional<T>(static_cast<T>(st.s.value())) : std::nullopt);
            else out.set(i, enough(c) ? std::optional<T>(static_cast<T>(st.s.value() / c)) : std::nullopt);
          });
          ArrayRef r = out.finish(x->dtype(), n);  // (Float16 is summed in Float32)
          return r->dtype() == plan.out ? r : cast(*r, plan.out);
        }
      });
    }
    case RollingAgg::Min:
    case RollingAgg::Max: {
      const bool want_max = p.agg == RollingAgg::Max;
      ArrayRef r = dispatch_numeric_wide(x->dtype().physical().id(), [&](auto tag) -> ArrayRef {
        using T = typename decltype(tag)::type;
        struct S {
          Extreme<T> e;
          void reset(int64_t) { e.reset(); }
          void add(int64_t i) { e.add(i); }
          void remove(int64_t i, int64_t) { e.remove(i); }
        } st{{x->values<T>(), want_max}};
        Out<T> out(n);
        drive(*x, n, bounds, st, [&](int64_t i, int64_t c) {
          out.set(i, enough(c) && st.e.has_value() ? std::optional<T>(st.e.value()) : std::nullopt);
        });
        return out.finish(x->dtype(), n);
      });
      return r->dtype() == plan.out ? r : cast(*r, plan.out);
    }
    case RollingAgg::Var:
    case RollingAgg::Std:
    case RollingAgg::Skew:
    case RollingAgg::Kurtosis: {
      const std::vector<double> v = as_doubles(*x);
      struct S {
        const double* v;
        MomentQueue q;
        void reset(int64_t) { q.reset(); }
        void add(int64_t i) { q.push(v[i]); }
        void remove(int64_t i, int64_t) { q.pop(v[i]); }
      } st{v.data(), {}};
      Out<double> out(n);
      drive(*x, n, bounds, st, [&](int64_t i, int64_t c) {
        if (!enough(c)) return out.set(i, std::nullopt);
        const Moments m = st.q.state();
        std::optional<double> r;
        switch (p.agg) {
          case RollingAgg::Var: r = m.var(p.ddof); break;
          case RollingAgg::Std: r = m.var(p.ddof); if (r) r = std::sqrt(*r); break;
          case RollingAgg::Skew: r = m.skew(p.bias); break;
          default: r = m.kurtosis(p.fisher, p.bias); break;
        }
        if (r && st.q.non_finite > 0) r = std::numeric_limits<double>::quiet_NaN();
        out.set(i, r);
      });
      ArrayRef res = out.finish(DataType::float64(), n);
      return plan.out == res->dtype() ? res : cast(*res, plan.out);
    }
    case RollingAgg::Median:
    case RollingAgg::Quantile: {
      const std::vector<double> v = as_doubles(*x);
      const double q = p.agg == RollingAgg::Median ? 0.5 : p.quantile;
      const QuantileMethod method = quantile_method(p.agg == RollingAgg::Median ? "linear" : p.interpolation);
      Out<double> out(n);
      auto go = [&](auto& st) {
        int64_t picked_for = -1;  // the count `k` was picked for (most windows have the same)
        QuantilePick k{};
        drive(*x, n, bounds, st, [&](int64_t i, int64_t c) {
          if (!enough(c)) return out.set(i, std::nullopt);
          if (c != picked_for) {
            k = pick_quantile(c, q, method);
            picked_for = c;
          }
          auto [a, b] = st.kth(k.idx);
          if (k.top == k.idx) return out.set(i, a);
          if (method == QuantileMethod::Midpoint) return out.set(i, (a + b) / 2);
          out.set(i, k.frac * (b - a) + a);
        });
      };
      if (max_window >= 0 && max_window <= kSortedWindowMax) {
        SortedValues st(v.data(), max_window);
        go(st);
      } else {
        QuantileHeaps st(v.data(), n);
        go(st);
      }
      ArrayRef res = out.finish(DataType::float64(), n);
      if (plan.out.is_temporal()) return cast(*cast(*res, DataType::int64(), false), plan.out);
      return plan.out == res->dtype() ? res : cast(*res, plan.out);
    }
    case RollingAgg::Rank: {
      const std::vector<double> v = as_doubles(*x);
      std::mt19937_64 rng(p.seed ? *p.seed : std::random_device{}());
      struct S {
        const double* v;
        SortedWindow w;
        void reset(int64_t) { w.reset(); }
        void add(int64_t i) { w.add(v[i]); }
        void remove(int64_t i, int64_t) { w.remove(v[i]); }
      } st{v.data(), {}};
      const bool average = p.rank_method == RankMethod::Average;
      Out<double> fout(average ? n : 0);
      Out<uint32_t> uout(average ? 0 : n);
      drive(*x, n, bounds, st, [&](int64_t i, int64_t c) {
        std::optional<double> r;
        if (enough(c) && x->is_valid(i)) r = st.w.rank(v[i], p.rank_method, rng);
        if (average) fout.set(i, r);
        else uout.set(i, r ? std::optional<uint32_t>(static_cast<uint32_t>(*r)) : std::nullopt);
      });
      return average ? fout.finish(DataType::float64(), n) : uout.finish(DataType::uint32(), n);
    }
  }
  throw InternalError("unknown rolling aggregate");
}

// Fixed windows computed on the fly, segment by segment.
struct FixedBounds {
  Segments seg;
  int64_t size;
  bool center;
  size_t k = 0;
  std::pair<int64_t, int64_t> operator()(int64_t i) {
    while (i >= seg[k + 1]) ++k;
    const int64_t b = seg[k], e = seg[k + 1];
    if (size == 0) return {i, i};
    if (!center) return {std::max(b, i - size + 1), i + 1};
    const int64_t right = (size + 1) / 2;  // rows from i on
    return {std::max(b, i - (size - right)), std::min(e, i + right)};
  }
};

}  // namespace

DataType rolling_dtype(RollingAgg agg, const DataType& input, bool weighted, RankMethod method) {
  if (input.is_null()) unsupported(agg, input);
  if (agg == RollingAgg::Rank) {
    plan_for(agg, input, false);
    return method == RankMethod::Average ? DataType::float64() : DataType::uint32();
  }
  return plan_for(agg, input, weighted).out;
}

RollingWindows fixed_windows(Segments seg, int64_t size, bool center) {
  const int64_t n = seg.back();
  RollingWindows w;
  w.start.resize(static_cast<size_t>(n));
  w.end.resize(static_cast<size_t>(n));
  FixedBounds b{seg, size, center};
  for (int64_t i = 0; i < n; ++i) std::tie(w.start[i], w.end[i]) = b(i);
  return w;
}

RollingWindows windows_by(const int64_t* t, Segments seg, int64_t period, int64_t offset, const std::string& closed) {
  const int64_t n = seg.back();
  WindowBounds bounds;
  bounds.lo.resize(static_cast<size_t>(n));
  bounds.hi.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    bounds.lo[i] = t[i] + offset;
    bounds.hi[i] = t[i] + offset + period;
  }
  return windows_by_bounds(t, seg, bounds, closed);
}

RollingWindows windows_by_bounds(const int64_t* t, Segments seg, const WindowBounds& bounds, const std::string& closed) {
  const int64_t n = seg.back();
  const bool left_closed = closed == "left" || closed == "both";
  const bool right_closed = closed == "right" || closed == "both";
  RollingWindows w;
  w.start.resize(static_cast<size_t>(n));
  w.end.resize(static_cast<size_t>(n));
  for (size_t k = 0; k + 1 < seg.size(); ++k) {
    const int64_t b = seg[k], e = seg[k + 1];
    int64_t s = b, en = b;
    for (int64_t i = b; i < e; ++i) {
      const int64_t lo = bounds.lo[i], hi = bounds.hi[i];
      while (s < e && (left_closed ? t[s] < lo : t[s] <= lo)) ++s;
      if (en < s) en = s;
      while (en < e && (right_closed ? t[en] <= hi : t[en] < hi)) ++en;
      w.start[i] = s;
      w.end[i] = std::max(s, en);
    }
  }
  return w;
}

ArrayRef rolling(const Array& values, const RollingWindows& w, const RollingParams& p) {
  if (static_cast<int64_t>(w.start.size()) != values.length())
    throw InternalError("rolling: one window per row expected");
  return run(values, [&](int64_t i) { return std::pair<int64_t, int64_t>{w.start[i], w.end[i]}; }, p);
}

namespace {

// The validity of trailing windows without nulls: row i of a segment starting at b has
// i - b + 1 values (capped at the window size).
Buffer trailing_validity(Segments seg, int64_t size, int64_t min_samples, bool sum) {
  const int64_t n = seg.back();
  const int64_t need = std::max<int64_t>(min_samples, sum ? 0 : 1);
  if (need <= 1 && !(need == 1 && size == 0)) return Buffer();
  OutValidity valid(n);
  for (size_t k = 0; k + 1 < seg.size(); ++k)
    for (int64_t i = seg[k]; i < seg[k + 1]; ++i) valid.set(i, std::min(i - seg[k] + 1, size) >= need);
  return valid.finish();
}

// Trailing windows of a segment's values without nulls, min/max by van Herk / Gil-Werman:
// running extremes forward and backward within blocks of `size` rows give each full window's
// extreme from two values. NaN propagates.
template <typename T>
void extreme_blocks(const T* x, T* out, int64_t b, int64_t e, int64_t size, bool want_max, std::vector<T>& back) {
  auto pick = [want_max](T a, T c) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (c != c) return c;
    }
    return want_max ? (c > a ? c : a) : (c < a ? c : a);
  };
  const int64_t len = e - b;
  back.resize(static_cast<size_t>(len));
  for (int64_t blk = 0; blk < len; blk += size) {
    const int64_t stop = std::min(blk + size, len);
    T acc = x[b + blk];
    out[b + blk] = acc;  // forward extremes within the block (out holds them for now)
    for (int64_t j = blk + 1; j < stop; ++j) out[b + j] = acc = pick(acc, x[b + j]);
    acc = x[b + stop - 1];
    back[stop - 1] = acc;
    for (int64_t j = stop - 1; j-- > blk;) back[j] = acc = pick(acc, x[b + j]);
  }
  // Window [i - size + 1, i]: the backward extreme at its start and the forward one at i
  // (from the right to the left, so each forward value is read before it is overwritten).
  for (int64_t j = len - 1; j >= size; --j) out[b + j] = pick(back[j - size + 1], out[b + j]);
}

}  // namespace

ArrayRef rolling_fixed(const Array& values, Segments seg, int64_t size, bool center, const RollingParams& p) {
  check_segments(seg, values.length(), rolling_agg_name(p.agg));
  if (size < 0) throw ComputeError(err_msg("`", rolling_agg_name(p.agg), "`: window_size must be non-negative"));
  const int64_t n = values.length();
  const bool simple = !center && size > 0 && values.null_count() == 0 && n > 0 &&
                      (p.agg == RollingAgg::Min || p.agg == RollingAgg::Max || p.agg == RollingAgg::Sum ||
                       p.agg == RollingAgg::Mean);
  if (simple) {
    const Plan plan = plan_for(p.agg, values.dtype(), false);
    ArrayRef x = values.dtype() == plan.work ? share(values) : cast(values, plan.work);
    const DataType phys = x->dtype().physical();
    if (p.agg == RollingAgg::Min || p.agg == RollingAgg::Max) {
      ArrayRef r = dispatch_numeric_wide(phys.id(), [&](auto tag) -> ArrayRef {
        using T = typename decltype(tag)::type;
        Buffer buf = alloc_values<T>(n);
        std::vector<T> back;
        for (size_t k = 0; k + 1 < seg.size(); ++k)
          if (seg[k + 1] > seg[k])
            extreme_blocks(x->values<T>(), buf.mutable_as<T>(), seg[k], seg[k + 1], size, p.agg == RollingAgg::Max, back);
        return make_fixed(x->dtype(), n, trailing_validity(seg, size, p.min_samples, false), std::move(buf));
      });
      return r->dtype() == plan.out ? r : cast(*r, plan.out);
    }
    if (phys.is_float()) {
      const bool mean = p.agg == RollingAgg::Mean;
      return dispatch_numeric(phys.id(), [&](auto tag) -> ArrayRef {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_floating_point_v<T>) {
          throw InternalError("rolling float sum on integers");
        } else {
          const T* v = x->values<T>();
          Buffer buf = alloc_values<T>(n);
          T* o = buf.mutable_as<T>();
          FloatSum st;
          for (size_t k = 0; k + 1 < seg.size(); ++k) {
            const int64_t b = seg[k], e = seg[k + 1];
            st.reset();
            for (int64_t i = b; i < e; ++i) {
              st.add(static_cast<double>(v[i]));
              if (i - b >= size) st.remove(static_cast<double>(v[i - size]));
              const double c = static_cast<double>(std::min(i - b + 1, size));
              o[i] = static_cast<T>(mean ? st.value() / c : st.value());
            }
          }
          ArrayRef r = make_fixed(x->dtype(), n, trailing_validity(seg, size, p.min_samples, !mean), std::move(buf));
          return r->dtype() == plan.out ? r : cast(*r, plan.out);
        }
      });
    }
  }
  return run(values, FixedBounds{seg, size, center}, p, size);
}

ArrayRef rolling_weighted(const Array& values, Segments seg, std::span<const double> weights, bool center,
                          const RollingParams& p) {
  const int64_t n = values.length();
  check_segments(seg, n, rolling_agg_name(p.agg));
  const int64_t size = static_cast<int64_t>(weights.size());
  if (values.null_count() > 0) throw ComputeError("weights not yet supported on array with null values");
  const bool weighted = p.agg == RollingAgg::Sum || p.agg == RollingAgg::Mean || p.agg == RollingAgg::Var ||
                        p.agg == RollingAgg::Std || p.agg == RollingAgg::Min || p.agg == RollingAgg::Max;
  if (!weighted) return rolling_fixed(values, seg, size, center, p);
  FixedBounds bounds{seg, size, center};
  // The weights aligned with a window (Polars: a window cut at the start takes the last
  // weights; a centred one lines its centre up with the weights').
  auto first_weight = [&](int64_t i, int64_t s, int64_t len) -> int64_t {
    if (center) return std::max<int64_t>(size / 2 - (i - s), 0);
    return len < size ? size - len : 0;
  };
  const Plan plan = plan_for(p.agg, values.dtype(), true);
  const std::vector<double> v = as_doubles(values);
  Out<double> out(n);
  for (int64_t i = 0; i < n; ++i) {
    auto [s, e] = bounds(i);
    const int64_t len = e - s;
    if (len < p.min_samples || len == 0) {
      out.set(i, std::nullopt);
      continue;
    }
    const int64_t w0 = first_weight(i, s, len);
    double acc = 0, wsum = 0, wsq = 0;
    double extreme = 0;
    for (int64_t j = 0; j < len; ++j) {
      const double x = v[s + j], wt = weights[w0 + j];
      acc += x * wt;
      wsum += wt;
      wsq += x * x * wt;
      const double xw = x * wt;
      if (j == 0 || (p.agg == RollingAgg::Max ? xw > extreme : xw < extreme)) extreme = xw;
    }
    switch (p.agg) {
      case RollingAgg::Sum: out.set(i, acc); break;
      case RollingAgg::Mean: out.set(i, wsum == 0 ? std::nullopt : std::optional<double>(acc / wsum)); break;
      case RollingAgg::Var:
      case RollingAgg::Std: {
        if (wsum == 0) {
          out.set(i, std::nullopt);
          break;
        }
        const double mean = acc / wsum;
        double var = wsq / wsum - mean * mean;
        if (p.agg == RollingAgg::Std) var = std::sqrt(var);
        out.set(i, var);
        break;
      }
      default: out.set(i, extreme); break;
    }
  }
  ArrayRef res = out.finish(DataType::float64(), n);
  return plan.out == res->dtype() ? res : cast(*res, plan.out);
}

ArrayRef index_ticks(const Array& by, const char* what) {
  const TypeId id = by.dtype().id();
  if (by.null_count() > 0)
    throw InvalidOperationError(err_msg("`", what, "`: the index column (`by`) must not contain nulls"));
  if (id == TypeId::Date) return cast(*cast(by, DataType::datetime(TimeUnit::Microseconds)), DataType::int64());
  if (id == TypeId::Datetime || id == TypeId::Int64 || id == TypeId::Int32 || id == TypeId::UInt32 ||
      id == TypeId::UInt64 || id == TypeId::Int16 || id == TypeId::Int8 || id == TypeId::UInt8 || id == TypeId::UInt16)
    return cast(by, DataType::int64());
  throw InvalidOperationError(err_msg("`", what, "`: the index column must be of an integer, Date or Datetime dtype, "
                                      "got `", by.dtype().short_name(), "`"));
}

int64_t duration_ticks(const std::string& duration, const DataType& by, const char* what) {
  const FixedDuration d = parse_fixed_duration(duration, what);
  if (!by.is_temporal()) {
    if (!d.index)
      throw InvalidOperationError(err_msg("`", what, "`: a window of \"", duration,
                                          "\" needs a temporal index; an integer index takes \"<n>i\""));
    return d.nanos;
  }
  if (d.index)
    throw InvalidOperationError(err_msg("`", what, "`: an index window (\"", duration,
                                        "\") needs an integer index column, not `", by.short_name(), "`"));
  const TimeUnit u = by.id() == TypeId::Date ? TimeUnit::Microseconds : by.time_unit();
  const int64_t per = u == TimeUnit::Nanoseconds ? 1 : u == TimeUnit::Microseconds ? 1000 : 1000000;
  return d.nanos / per;
}

ArrayRef rolling_by(const Array& values, const Array& by, Segments seg, const std::string& window_size,
                    const std::string& closed, const RollingParams& p) {
  const int64_t n = values.length();
  const char* what = rolling_agg_name(p.agg);
  check_segments(seg, n, what);
  // (InvalidOperationError, as Polars.)
  if (by.length() != n)
    throw InvalidOperationError(err_msg("`", what, "_by`: `by` has ", by.length(), " rows for ", n, " values"));
  if (by.null_count() > 0) {
    // A row without a `by` value is in no window and null, as in Polars: the windows of the
    // other rows, put back in place.
    std::vector<IdxSize> keep;
    std::vector<int64_t> kept_seg{0};
    for (size_t k = 0; k + 1 < seg.size(); ++k) {
      for (int64_t i = seg[k]; i < seg[k + 1]; ++i)
        if (by.is_valid(i)) keep.push_back(static_cast<IdxSize>(i));
      kept_seg.push_back(static_cast<int64_t>(keep.size()));
    }
    ArrayRef res = rolling_by(*take(values, keep), *take(by, keep), kept_seg, window_size, closed, p);
    std::vector<IdxSize> back(static_cast<size_t>(n), kNullIdx);
    for (size_t j = 0; j < keep.size(); ++j) back[keep[j]] = static_cast<IdxSize>(j);
    return take(*res, back);
  }
  ArrayRef t = index_ticks(by, what);
  const int64_t period = duration_ticks(window_size, by.dtype(), what);
  if (period < 0) throw ComputeError(err_msg("`", what, "_by`: window_size must be non-negative"));
  const int64_t* tv = t->values<int64_t>();
  bool sorted = true;
  for (size_t k = 0; k + 1 < seg.size() && sorted; ++k)
    for (int64_t i = seg[k] + 1; i < seg[k + 1]; ++i)
      if (tv[i] < tv[i - 1]) {
        sorted = false;
        break;
      }
  if (sorted) return rolling(values, windows_by(tv, seg, period, -period, closed), p);
  // Rows in `by` order within each segment (stable), computed there, then put back.
  std::vector<IdxSize> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), IdxSize{0});
  for (size_t k = 0; k + 1 < seg.size(); ++k)
    std::stable_sort(order.begin() + seg[k], order.begin() + seg[k + 1],
                     [&](IdxSize a, IdxSize b) { return tv[a] < tv[b]; });
  ArrayRef st = take(*t, order);
  ArrayRef sv = take(values, order);
  ArrayRef res = rolling(*sv, windows_by(st->values<int64_t>(), seg, period, -period, closed), p);
  std::vector<IdxSize> inverse(static_cast<size_t>(n));
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<IdxSize>(i);
  return take(*res, inverse);
}

}  // namespace frazil::compute
