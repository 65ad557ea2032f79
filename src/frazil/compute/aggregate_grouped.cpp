// Per-group reductions: one typed pass over the rows scattering into per-group
// accumulators (dispatch on dtype once per call).
#include <bit>
#include <optional>
#include <type_traits>
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/aggregate_util.hpp"
#include "frazil/compute/categorical/categorical.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/length_limit.hpp"
#include "frazil/core/cancel.hpp"

namespace frazil::compute {

namespace agg {

ArrayRef make_bool(const std::vector<uint8_t>& values, const std::vector<uint8_t>* valid) {
  const int64_t n = static_cast<int64_t>(values.size());
  Buffer bits = Buffer::zeroed(bitmap_bytes(n));
  for (int64_t i = 0; i < n; ++i)
    if (values[i]) set_bit(bits.mutable_data(), i);
  Buffer validity;
  int64_t nulls = 0;
  if (valid) {
    for (uint8_t v : *valid) nulls += !v;
    if (nulls) {
      validity = Buffer::zeroed(bitmap_bytes(n));
      for (int64_t i = 0; i < n; ++i)
        if ((*valid)[i]) set_bit(validity.mutable_data(), i);
    }
  }
  return Array::make(DataType::boolean(), n, validity, {bits}, {}, 0, nulls);
}

}  // namespace agg

using namespace agg;

namespace {

// Per group: number of valid rows.
std::vector<uint32_t> valid_counts(const Array& a, const IdxSize* gid, size_t ng) {
  std::vector<uint32_t> c(ng, 0);
  for_each_valid(a, [&](int64_t i) { ++c[gid[i]]; });
  return c;
}

ArrayRef counts_array(const std::vector<uint32_t>& c) { return make_fixed(DataType::uint32(), c); }

// Per group, the sum of value(i) over the valid rows. With few groups, consecutive rows
// (most often of one group) would each wait for the previous add to the same accumulator;
// instead row i adds into copy i % kLanes of the accumulators (interleaved per group),
// and the copies are summed in lane order at the end (deterministic).
constexpr size_t kFewGroups = 256;
constexpr int kLanes = 4;

template <typename Acc, typename F>
std::vector<Acc> sum_by_group(const Array& a, const IdxSize* gid, size_t ng, F value) {
  std::vector<Acc> acc(ng, Acc(0));
  if (ng > kFewGroups) {
    for_each_valid(a, [&](int64_t i) { acc[gid[i]] += value(i); });
    return acc;
  }
  std::vector<Acc> lanes(ng * kLanes, Acc(0));
  Acc* l = lanes.data();
  for_each_valid(a, [&](int64_t i) { l[size_t(gid[i]) * kLanes + (i & (kLanes - 1))] += value(i); });
  for (size_t g = 0; g < ng; ++g)
    for (int k = 0; k < kLanes; ++k) acc[g] += l[g * kLanes + k];
  return acc;
}

ArrayRef sum_grouped(const Array& a, const IdxSize* gid, size_t ng, const DataType& out) {
  const TypeId id = a.dtype().id();
  if (id == TypeId::Boolean) {
    std::vector<uint32_t> c(ng, 0);
    for_each_valid(a, [&](int64_t i) { c[gid[i]] += a.bool_value(i); });
    return make_fixed(out, c);
  }
  return dispatch_physical(id, [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    const T* v = a.values<T>();
    if constexpr (std::is_floating_point_v<T>) {
      return make_fixed(out, sum_by_group<T>(a, gid, ng, [v](int64_t i) { return v[i]; }));
    } else if constexpr (std::is_same_v<T, int128> || std::is_same_v<T, unsigned __int128>) {
      return make_fixed(out, sum_by_group<unsigned __int128>(
                                 a, gid, ng, [v](int64_t i) { return static_cast<unsigned __int128>(v[i]); }));
    } else {
      const std::vector<uint64_t> acc = sum_by_group<uint64_t>(a, gid, ng, [v](int64_t i) {
        return std::is_signed_v<T> ? static_cast<uint64_t>(static_cast<int64_t>(v[i])) : static_cast<uint64_t>(v[i]);
      });
      switch (out.id()) {
        case TypeId::Int32:
        case TypeId::UInt32: {
          std::vector<uint32_t> narrow(acc.begin(), acc.end());  // wraps like Polars
          return make_fixed(out, narrow);
        }
        default: return make_fixed(out, acc);
      }
    }
  });
}

template <typename T>
ArrayRef minmax_fixed(const Array& a, const IdxSize* gid, size_t ng, bool is_max) {
  const T* v = a.values<T>();
  std::vector<T> best(ng, T{});
  std::vector<uint8_t> seen(ng, 0);
  auto update = [&](auto better) {
    for_each_valid(a, [&](int64_t i) {
      const IdxSize g = gid[i];
      const T x = v[i];
      if (!seen[g]) {
        seen[g] = 1;
        best[g] = x;
      } else if (better(x, best[g])) {
        best[g] = x;
      }
    });
  };
  if constexpr (std::is_floating_point_v<T>) {
    // NaN only wins when nothing else is there; of equal values (-0.0 and 0.0) the last
    // one wins, as in the whole-column kernel and in Polars.
    if (is_max) update([](T x, T b) { return b != b || x >= b; });
    else update([](T x, T b) { return b != b || x <= b; });
  } else {
    if (is_max) update([](T x, T b) { return x > b; });
    else update([](T x, T b) { return x < b; });
  }
  return make_fixed(a.dtype(), best, &seen);
}

ArrayRef minmax_grouped(const Array& a, const IdxSize* gid, size_t ng, bool is_max) {
  const DataType& t = a.dtype();
  if (t.is_boolean()) {
    std::vector<uint8_t> any_true(ng, 0), any_false(ng, 0), seen(ng, 0);
    for_each_valid(a, [&](int64_t i) {
      seen[gid[i]] = 1;
      (a.bool_value(i) ? any_true : any_false)[gid[i]] = 1;
    });
    std::vector<uint8_t> out(ng);
    for (size_t g = 0; g < ng; ++g) out[g] = is_max ? any_true[g] : !any_false[g];
    return make_bool(out, &seen);
  }
  if (t.is_view()) {
    // The best row per group, then one gather.
    std::vector<IdxSize> best(ng, kNullIdx);
    std::vector<std::string_view> bv(ng);
    for_each_valid(a, [&](int64_t i) {
      const IdxSize g = gid[i];
      std::string_view s = a.str_value(i);
      if (best[g] == kNullIdx || (is_max ? s > bv[g] : s < bv[g])) {
        best[g] = static_cast<IdxSize>(i);
        bv[g] = s;
      }
    });
    return take(a, best);
  }
  if (t.is_categorical()) {
    // By order key (Categorical: lexical rank; Enum: code), then one gather.
    ArrayRef key = categorical_order_key(a);
    const uint32_t* k = key->values<uint32_t>();
    std::vector<IdxSize> best(ng, kNullIdx);
    for_each_valid(a, [&](int64_t i) {
      const IdxSize g = gid[i];
      if (best[g] == kNullIdx || (is_max ? k[i] > k[best[g]] : k[i] < k[best[g]])) best[g] = static_cast<IdxSize>(i);
    });
    return take(a, best);
  }
  return dispatch_physical(t.id(), [&](auto tag) {
    return minmax_fixed<typename decltype(tag)::type>(a, gid, ng, is_max);
  });
}

// Valid values as doubles, laid out group after group: values of group g are
// vals[offsets[g] .. offsets[g + 1]).
void values_by_group(const Array& a, const IdxSize* gid, size_t ng, std::vector<double>& vals,
                     std::vector<uint32_t>& offsets) {
  offsets.assign(ng + 1, 0);
  for_each_valid(a, [&](int64_t i) { ++offsets[gid[i] + 1]; });
  for (size_t g = 0; g < ng; ++g) offsets[g + 1] += offsets[g];
  vals.resize(offsets[ng]);
  std::vector<uint32_t> cur(offsets.begin(), offsets.end() - 1);
  if (a.dtype().is_boolean()) {
    for_each_valid(a, [&](int64_t i) { vals[cur[gid[i]]++] = a.bool_value(i) ? 1.0 : 0.0; });
    return;
  }
  const double div = a.dtype().id() == TypeId::Decimal ? decimal_divisor(a.dtype().scale()) : 1.0;
  dispatch_physical(a.dtype().id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* v = a.values<T>();
    for_each_valid(a, [&](int64_t i) { vals[cur[gid[i]]++] = static_cast<double>(v[i]) / div; });
  });
}

// Per-group doubles into the result dtype (Float64/Float32, or a temporal truncated).
ArrayRef from_doubles(const DataType& out, const DataType& in, const std::vector<double>& r,
                      const std::vector<uint8_t>& valid) {
  switch (out.id()) {
    case TypeId::Float64: return make_fixed(out, r, &valid);
    case TypeId::Float32: {
      std::vector<float> f(r.begin(), r.end());
      return make_fixed(out, f, &valid);
    }
    default: {
      const double scale = (out.id() == TypeId::Datetime && in.id() == TypeId::Date) ? 86400e6 : 1.0;
      std::vector<int64_t> v(r.size());
      for (size_t g = 0; g < r.size(); ++g) v[g] = valid[g] ? static_cast<int64_t>(r[g] * scale) : 0;
      return make_fixed(out, v, &valid);
    }
  }
}

ArrayRef mean_grouped(const Array& a, const IdxSize* gid, size_t ng, const DataType& out) {
  std::vector<double> sum(ng, 0.0);
  std::vector<uint32_t> cnt(ng, 0);
  if (a.dtype().is_boolean()) {
    for_each_valid(a, [&](int64_t i) {
      sum[gid[i]] += a.bool_value(i);
      ++cnt[gid[i]];
    });
  } else {
    dispatch_physical(a.dtype().id(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* v = a.values<T>();
      sum = sum_by_group<double>(a, gid, ng, [v](int64_t i) { return static_cast<double>(v[i]); });
    });
    cnt = valid_counts(a, gid, ng);
  }
  const double div = a.dtype().id() == TypeId::Decimal ? decimal_divisor(a.dtype().scale()) : 1.0;
  std::vector<uint8_t> valid(ng);
  for (size_t g = 0; g < ng; ++g) {
    valid[g] = cnt[g] > 0;
    sum[g] = cnt[g] ? sum[g] / cnt[g] / div : 0.0;
  }
  return from_doubles(out, a.dtype(), sum, valid);
}

ArrayRef std_var_grouped(const Array& a, const IdxSize* gid, size_t ng, const DataType& out,
                         bool is_std, int ddof) {
  std::vector<double> vals;
  std::vector<uint32_t> offs;
  values_by_group(a, gid, ng, vals, offs);
  std::vector<double> r(ng, 0.0);
  std::vector<uint8_t> valid(ng, 0);
  for (size_t g = 0; g < ng; ++g) {
    const double n = offs[g + 1] - offs[g];
    if (n - ddof <= 0) continue;
    // Welford's update of the values shifted by the group's first one, as in the
    // whole-column std (aggregate.cpp).
    const double shift = vals[offs[g]];
    double mean = 0, m2 = 0, seen = 0;
    for (uint32_t k = offs[g]; k < offs[g + 1]; ++k) {
      const double x = vals[k] - shift;
      seen += 1;
      const double delta = x - mean;
      mean += delta / seen;
      m2 += delta * (x - mean);
    }
    double var = m2 / (n - ddof);
    r[g] = is_std ? std::sqrt(var) : var;
    valid[g] = 1;
  }
  return from_doubles(out, a.dtype(), r, valid);
}

ArrayRef quantile_grouped(const Array& a, const IdxSize* gid, size_t ng, const DataType& out,
                          double q, Interp m) {
  std::vector<double> vals;
  std::vector<uint32_t> offs;
  values_by_group(a, gid, ng, vals, offs);
  std::vector<double> r(ng, 0.0);
  std::vector<uint8_t> valid(ng, 0);
  for (size_t g = 0; g < ng; ++g) {
    if ((g & (kCheckRows - 1)) == 0) check_cancelled();
    const uint32_t n = offs[g + 1] - offs[g];
    if (n == 0) continue;
    r[g] = select_quantile(vals.data() + offs[g], n, q, m);
    valid[g] = 1;
  }
  return from_doubles(out, a.dtype(), r, valid);
}

ArrayRef bool_grouped(const Array& a, const IdxSize* gid, size_t ng, bool is_any,
                      bool ignore_nulls) {
  std::vector<uint8_t> any_true(ng, 0), any_false(ng, 0), any_null(ng, 0);
  if (!a.dtype().is_null())
    for_each_valid(a, [&](int64_t i) { (a.bool_value(i) ? any_true : any_false)[gid[i]] = 1; });
  if (!ignore_nulls && a.null_count() > 0)
    for (int64_t i = 0; i < a.length(); ++i)
      if (a.is_null(i)) any_null[gid[i]] = 1;
  std::vector<uint8_t> out(ng), valid(ng, 1);
  for (size_t g = 0; g < ng; ++g) {
    bool decided = is_any ? any_true[g] : any_false[g];
    if (decided) out[g] = is_any;
    else if (any_null[g]) valid[g] = 0;  // Kleene: unknown
    else out[g] = !is_any;
  }
  return make_bool(out, &valid);
}

// Groups whose rows are contiguous runs (keys that came sorted, as lineitem by order
// key): the distinct values are counted run by run in a small sorted buffer, in one pass
// over the data. nullopt when some group's rows are not contiguous.
template <typename T>
std::optional<ArrayRef> n_unique_grouped_runs(const Array& a, const IdxSize* gid, size_t ng) {
  const int64_t n = a.length();
  for (int64_t i = 1; i < n; ++i)
    if (gid[i] < gid[i - 1]) return std::nullopt;
  const T* v = a.values<T>();
  const bool nulls = a.null_count() > 0;
  std::vector<uint32_t> c(ng, 0);
  std::vector<T> run;
  for (int64_t start = 0; start < n;) {
    int64_t end = start + 1;
    while (end < n && gid[end] == gid[start]) ++end;
    if (!nulls && end - start <= 8) {
      // Short runs (the common case): compare each value with the earlier ones.
      uint32_t distinct = 0;
      for (int64_t i = start; i < end; ++i) {
        bool seen = false;
        for (int64_t j = start; j < i; ++j) seen |= v[j] == v[i];
        distinct += !seen;
      }
      c[gid[start]] = distinct;
      start = end;
      continue;
    }
    run.clear();
    bool has_null = false;
    for (int64_t i = start; i < end; ++i) {
      if (nulls && !a.is_valid(i)) has_null = true;
      else run.push_back(v[i]);
    }
    std::sort(run.begin(), run.end());
    c[gid[start]] = static_cast<uint32_t>(std::unique(run.begin(), run.end()) - run.begin()) + has_null;
    start = end;
  }
  return counts_array(c);
}

// Integer values whose range fits 32 bits: each row becomes one 64-bit key (group in the
// high half, the value's offset from the minimum, with 0 for null, in the low half); a
// radix sort of the keys brings equal pairs together and the distinct ones are counted.
// Many groups make a hash table of pairs miss the cache on every row; the sort does not.
template <typename T>
std::optional<ArrayRef> n_unique_grouped_int(const Array& a, const IdxSize* gid, size_t ng) {
  const int64_t n = a.length();
  const T* v = a.values<T>();
  bool any = false;
  T lo = 0, hi = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!a.is_valid(i)) continue;
    if (!any || v[i] < lo) lo = v[i];
    if (!any || v[i] > hi) hi = v[i];
    any = true;
  }
  // Differences in unsigned arithmetic: hi - lo of extreme Int64s (or UInt64s) overflows int64_t.
  const uint64_t range = any ? static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) : 0;
  if (range >= UINT32_MAX - 1) return std::nullopt;
  std::vector<uint64_t> keys(static_cast<size_t>(n)), tmp(static_cast<size_t>(n));
  const bool nulls = a.null_count() > 0;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t code = (nulls && !a.is_valid(i)) ? 0 : static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(lo) + 1;
    keys[i] = (static_cast<uint64_t>(gid[i]) << 32) | code;
  }
  // LSD radix sort on 16-bit digits, skipping digits above the highest set bit.
  int bits = 64 - std::countl_zero(static_cast<uint64_t>(ng) << 32 | (range + 1));
  std::vector<uint32_t> count(1 << 16);
  for (int shift = 0; shift < bits; shift += 16) {
    std::fill(count.begin(), count.end(), 0);
    for (uint64_t k : keys) ++count[(k >> shift) & 0xFFFF];
    uint32_t sum = 0;
    for (auto& c : count) {
      uint32_t t = c;
      c = sum;
      sum += t;
    }
    for (uint64_t k : keys) tmp[count[(k >> shift) & 0xFFFF]++] = k;
    keys.swap(tmp);
  }
  std::vector<uint32_t> c(ng, 0);
  for (int64_t i = 0; i < n; ++i)
    if (i == 0 || keys[i] != keys[i - 1]) ++c[keys[i] >> 32];
  return counts_array(c);
}

// Integers (floats would need -0.0 == 0.0 and NaN == NaN): contiguous groups run by run,
// else a radix sort of (group, value) pairs when the range allows.
template <typename T>
std::optional<ArrayRef> n_unique_grouped_integers(const Array& a, const IdxSize* gid, size_t ng) {
  if (auto runs = n_unique_grouped_runs<T>(a, gid, ng)) return runs;
  if constexpr (std::is_same_v<T, uint64_t>) return std::nullopt;  // no 32-bit value range
  else return n_unique_grouped_int<T>(a, gid, ng);
}

ArrayRef n_unique_grouped(const Array& a, const IdxSize* gid, size_t ng) {
  std::optional<ArrayRef> fast;
  switch (a.dtype().physical().id()) {
    case TypeId::Int8: fast = n_unique_grouped_integers<int8_t>(a, gid, ng); break;
    case TypeId::Int16: fast = n_unique_grouped_integers<int16_t>(a, gid, ng); break;
    case TypeId::Int32: fast = n_unique_grouped_integers<int32_t>(a, gid, ng); break;
    case TypeId::Int64: fast = n_unique_grouped_integers<int64_t>(a, gid, ng); break;
    case TypeId::UInt8: fast = n_unique_grouped_integers<uint8_t>(a, gid, ng); break;
    case TypeId::UInt16: fast = n_unique_grouped_integers<uint16_t>(a, gid, ng); break;
    case TypeId::UInt32: fast = n_unique_grouped_integers<uint32_t>(a, gid, ng); break;
    case TypeId::UInt64: fast = n_unique_grouped_integers<uint64_t>(a, gid, ng); break;
    default: break;
  }
  if (fast) return *fast;
  // Distinct (group, value) pairs, counted per group.
  const int64_t n = a.length();
  Buffer ids = Buffer::allocate(static_cast<size_t>(n) * sizeof(IdxSize));
  if (n) std::memcpy(ids.mutable_data(), gid, static_cast<size_t>(n) * sizeof(IdxSize));
  ArrayRef gid_array = Array::make(DataType::uint32(), n, Buffer(), {ids});
  Groups pairs = group_rows({gid_array, a.slice(0, n)});
  std::vector<uint32_t> c(ng, 0);
  for (IdxSize row : pairs.first_rows) ++c[gid[row]];
  return counts_array(c);
}

}  // namespace

ArrayRef aggregate_grouped(AggKind kind, const Array& values, const Groups& groups,
                           const AggOptions& options) {
  const DataType out = agg_result_dtype(kind, values.dtype());
  const int64_t n = values.length();
  const size_t ng = groups.num_groups();
  if (static_cast<int64_t>(groups.group_ids.size()) != n)
    throw ShapeError(err_msg("aggregation input has ", n, " rows but the groups cover ",
                             groups.group_ids.size()));
  const IdxSize* gid = groups.group_ids.data();
  switch (kind) {
    case AggKind::Len: {
      std::vector<uint32_t> c(ng, 0);
      for (int64_t i = 0; i < n; ++i) ++c[gid[i]];
      return counts_array(c);
    }
    case AggKind::Count: return counts_array(valid_counts(values, gid, ng));
    case AggKind::NullCount: {
      std::vector<uint32_t> c(ng, 0);
      if (values.null_count() > 0)
        for (int64_t i = 0; i < n; ++i) c[gid[i]] += values.is_null(i);
      return counts_array(c);
    }
    case AggKind::NUnique: return n_unique_grouped(values, gid, ng);
    case AggKind::First: return take(values, groups.first_rows);
    case AggKind::Last: {
      std::vector<IdxSize> last(ng, kNullIdx);
      for (int64_t i = 0; i < n; ++i) last[gid[i]] = static_cast<IdxSize>(i);
      return take(values, last);
    }
    case AggKind::Any:
    case AggKind::All:
      return bool_grouped(values, gid, ng, kind == AggKind::Any, options.ignore_nulls);
    default: break;
  }
  if (values.dtype().is_null()) return make_null_array(out, static_cast<int64_t>(ng));
  if (values.dtype().id() == TypeId::Float16)  // in Float32, rounded to the result dtype
    return cast(*aggregate_grouped(kind, *float16_to_float32(values), groups, options), out);
  switch (kind) {
    case AggKind::Sum: return sum_grouped(values, gid, ng, out);
    case AggKind::Min:
    case AggKind::Max: return minmax_grouped(values, gid, ng, kind == AggKind::Max);
    case AggKind::Mean: return mean_grouped(values, gid, ng, out);
    case AggKind::Std:
    case AggKind::Var:
      return std_var_grouped(values, gid, ng, out, kind == AggKind::Std, options.ddof);
    case AggKind::Median: return quantile_grouped(values, gid, ng, out, 0.5, Interp::Linear);
    case AggKind::Quantile: {
      Interp m = parse_interpolation(options.interpolation);
      if (!(options.quantile >= 0.0 && options.quantile <= 1.0))
        throw ComputeError(err_msg("quantile should be between 0.0 and 1.0, got ", options.quantile));
      return quantile_grouped(values, gid, ng, out, options.quantile, m);
    }
    default: break;
  }
  throw InvalidOperationError(err_msg("`", agg_name(kind), "` is not supported for dtype ", values.dtype()));
}

ArrayRef sum_counts_grouped(const Array& counts, const Groups& groups, std::string_view what) {
  FRAZIL_CHECK(counts.dtype().id() == TypeId::UInt32);
  FRAZIL_CHECK_EQ(static_cast<int64_t>(groups.group_ids.size()), counts.length());
  const uint32_t* v = counts.values<uint32_t>();
  const IdxSize* gid = groups.group_ids.data();
  std::vector<uint64_t> totals(groups.num_groups(), 0);
  for_each_valid(counts, [&](int64_t i) { totals[gid[i]] += v[i]; });
  std::vector<uint32_t> out(totals.size());
  for (size_t g = 0; g < totals.size(); ++g) out[g] = checked_count(totals[g], what);
  return counts_array(out);
}

}  // namespace frazil::compute
