// Reductions of a whole array to one Scalar, and the dtype rules shared with the grouped
// kernels.
#include "frazil/compute/aggregate.hpp"

#include "frazil/compute/aggregate_kernels.hpp"
#include "frazil/compute/aggregate_util.hpp"
#include "frazil/compute/categorical/categorical.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/half.hpp"
#include "frazil/core/length_limit.hpp"
#include "frazil/core/cpu_dispatch.hpp"

namespace frazil::compute {

using namespace agg;

const char* agg_name(AggKind kind) {
  switch (kind) {
    case AggKind::Sum: return "sum";
    case AggKind::Mean: return "mean";
    case AggKind::Min: return "min";
    case AggKind::Max: return "max";
    case AggKind::Count: return "count";
    case AggKind::Len: return "len";
    case AggKind::NullCount: return "null_count";
    case AggKind::NUnique: return "n_unique";
    case AggKind::First: return "first";
    case AggKind::Last: return "last";
    case AggKind::Median: return "median";
    case AggKind::Std: return "std";
    case AggKind::Var: return "var";
    case AggKind::Quantile: return "quantile";
    case AggKind::Any: return "any";
    case AggKind::All: return "all";
  }
  return "?";
}

static InvalidOperationError unsupported(AggKind kind, const DataType& t) {
  return InvalidOperationError(
      err_msg("`", agg_name(kind), "` operation not supported for dtype `", t.short_name(), "`"));
}

DataType agg_result_dtype(AggKind kind, const DataType& t) {
  const TypeId id = t.id();
  switch (kind) {
    case AggKind::Count:
    case AggKind::Len:
    case AggKind::NullCount:
    case AggKind::NUnique: return DataType::uint32();
    case AggKind::First:
    case AggKind::Last: return t;
    default: break;
  }
  if (t.is_null()) {
    if (kind == AggKind::Any || kind == AggKind::All) return DataType::boolean();
    return t;
  }
  switch (kind) {
    case AggKind::Min:
    case AggKind::Max:
      if (t.is_fixed_width() || t.is_boolean() || t.is_view()) return t;
      break;
    case AggKind::Sum:
      switch (id) {
        case TypeId::Boolean: return DataType::uint32();
        case TypeId::Int8:
        case TypeId::Int16:
        case TypeId::UInt8:
        case TypeId::UInt16: return DataType::int64();
        case TypeId::Int32:
        case TypeId::Int64:
        case TypeId::UInt32:
        case TypeId::UInt64:
        case TypeId::Float32:
        case TypeId::Float64:
        case TypeId::Float16:
        case TypeId::Int128:
        case TypeId::UInt128:
        case TypeId::Duration: return t;
        case TypeId::Decimal: return DataType::decimal(38, t.scale());
        default: break;
      }
      break;
    case AggKind::Mean:
    case AggKind::Median:
    case AggKind::Quantile:
      if (id == TypeId::Boolean && kind == AggKind::Quantile) break;
      if (id == TypeId::Float32 || id == TypeId::Float16) return t;
      if (t.is_primitive_numeric() || id == TypeId::Boolean || id == TypeId::Decimal)
        return DataType::float64();
      if (id == TypeId::Date) return DataType::datetime(TimeUnit::Microseconds);
      if (t.is_temporal()) return t;
      break;
    case AggKind::Std:
    case AggKind::Var:
      if (id == TypeId::Float32 || id == TypeId::Float16) return t;
      if (t.is_primitive_numeric() || id == TypeId::Boolean || id == TypeId::Decimal)
        return DataType::float64();
      break;
    case AggKind::Any:
    case AggKind::All:
      if (id == TypeId::Boolean) return t;
      break;
    default: break;
  }
  throw unsupported(kind, t);
}

namespace {

// Numeric values as doubles (Decimal unscaled; Date in days), valid rows only.
std::vector<double> valid_doubles(const Array& a) {
  std::vector<double> out;
  out.reserve(static_cast<size_t>(a.length() - a.null_count()));
  if (a.dtype().is_boolean()) {
    for_each_valid(a, [&](int64_t i) { out.push_back(a.bool_value(i) ? 1.0 : 0.0); });
    return out;
  }
  const double div = a.dtype().id() == TypeId::Decimal ? decimal_divisor(a.dtype().scale()) : 1.0;
  dispatch_physical(a.dtype().id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* v = a.values<T>();
    for_each_valid(a, [&](int64_t i) { out.push_back(static_cast<double>(v[i]) / div); });
  });
  return out;
}

// A Float64/Float32/temporal result from a double computed over the input's units.
Scalar scalar_from_double(const DataType& out, const DataType& in, double v) {
  switch (out.id()) {
    case TypeId::Float64:
    case TypeId::Float32: return Scalar(out, out.id() == TypeId::Float32 ? double(float(v)) : v);
    case TypeId::Datetime:
      if (in.id() == TypeId::Date) return Scalar(out, static_cast<int64_t>(v * 86400e6));
      [[fallthrough]];
    default: return Scalar(out, static_cast<int64_t>(v));  // truncates toward zero
  }
}

template <typename T>
ValuesView<T> view_of(const Array& a) {
  const bool nulls = a.null_count() > 0;
  return {a.values<T>(), a.length(), nulls ? a.validity_bits() : nullptr, a.offset()};
}

Scalar physical_scalar(const DataType& t, auto v) {
  using T = decltype(v);
  if constexpr (std::is_floating_point_v<T>) return Scalar(t, static_cast<double>(v));
  else if constexpr (std::is_same_v<T, int128>) return Scalar(t, v);
  else if constexpr (std::is_same_v<T, unsigned __int128>) return Scalar(t, static_cast<int128>(v));
  else if constexpr (std::is_signed_v<T>) return Scalar(t, static_cast<int64_t>(v));
  else return Scalar(t, static_cast<uint64_t>(v));
}

FRAZIL_MULTIVERSION Scalar sum_scalar(const Array& a, const DataType& out) {
  const TypeId id = a.dtype().id();
  if (id == TypeId::Boolean) {
    uint64_t c = 0;
    for_each_valid(a, [&](int64_t i) { c += a.bool_value(i); });
    return Scalar(out, c);
  }
  return dispatch_physical(id, [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    const T* v = a.values<T>();
    if constexpr (std::is_floating_point_v<T>) {
      // Float32 sums in float, as Polars does.
      return Scalar(out, static_cast<double>(float_sum(view_of<T>(a))));
    } else if constexpr (std::is_same_v<T, int128> || std::is_same_v<T, unsigned __int128>) {
      if (id == TypeId::Decimal) {
        // Decimal(38, s): a sum past 38 digits is an error, as in Polars.
        int128 total = 0, bound = 1;
        for (int k = 0; k < 38; ++k) bound *= 10;
        for_each_valid(a, [&](int64_t i) {
          if (__builtin_add_overflow(total, static_cast<int128>(v[i]), &total) || total >= bound || total <= -bound)
            throw ComputeError("overflow in decimal addition in sum");
        });
        return Scalar(out, total);
      }
      unsigned __int128 acc = 0;
      for_each_valid(a, [&](int64_t i) { acc += static_cast<unsigned __int128>(v[i]); });
      return Scalar(out, static_cast<int128>(acc));
    } else {
      // Integers wrap like Polars' sums in their result type.
      const uint64_t acc = wrapping_sum(view_of<T>(a));
      switch (out.id()) {
        case TypeId::Int32: return Scalar(out, static_cast<int64_t>(static_cast<int32_t>(acc)));
        case TypeId::UInt32: return Scalar(out, static_cast<uint64_t>(static_cast<uint32_t>(acc)));
        case TypeId::UInt64: return Scalar(out, acc);
        default: return Scalar(out, static_cast<int64_t>(acc));
      }
    }
  });
}

FRAZIL_MULTIVERSION Scalar minmax_scalar(const Array& a, bool is_max) {
  const DataType& t = a.dtype();
  if (a.length() == a.null_count()) return Scalar::null(t);
  if (t.is_boolean()) {
    bool any_true = false, any_false = false;
    for_each_valid(a, [&](int64_t i) { (a.bool_value(i) ? any_true : any_false) = true; });
    return Scalar(t, is_max ? any_true : !any_false);
  }
  if (t.is_view()) {
    int64_t best = -1;
    std::string_view bv;
    for_each_valid(a, [&](int64_t i) {
      std::string_view s = a.str_value(i);
      if (best < 0 || (is_max ? s > bv : s < bv)) {
        best = i;
        bv = s;
      }
    });
    return Scalar(t, std::string(bv));
  }
  if (t.is_categorical()) {
    // Categorical by its strings, Enum by category order: the best row by order key.
    ArrayRef key = categorical_order_key(a);
    const uint32_t* k = key->values<uint32_t>();
    int64_t best = -1;
    for_each_valid(a, [&](int64_t i) {
      if (best < 0 || (is_max ? k[i] > k[best] : k[i] < k[best])) best = i;
    });
    return array_get(a, best);
  }
  return dispatch_physical(t.id(), [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    const ValuesView<T> view = view_of<T>(a);
    return physical_scalar(t, is_max ? extreme<T, true>(view) : extreme<T, false>(view));
  });
}

Scalar std_var_scalar(const Array& a, const DataType& out, bool is_std, int ddof) {
  std::vector<double> v = valid_doubles(a);
  const double n = static_cast<double>(v.size());
  if (n - ddof <= 0) return Scalar::null(out);
  // Welford's update: equal huge values (1e300 each) give 0, not the square of a rounding
  // error. The values are shifted by the first one (the variance does not change): large
  // values close together (2**40 - small ints) keep their digits, where the running mean
  // of the raw values would round them away.
  const double shift = v.empty() ? 0.0 : v[0];
  double mean = 0, m2 = 0, k = 0;
  for (double raw : v) {
    const double x = raw - shift;
    k += 1;
    const double delta = x - mean;
    mean += delta / k;
    m2 += delta * (x - mean);
  }
  double var = m2 / (n - ddof);
  return scalar_from_double(out, a.dtype(), is_std ? std::sqrt(var) : var);
}

Scalar bool_scalar(const Array& a, bool is_any, bool ignore_nulls) {
  bool any_true = false, any_false = false;
  if (!a.dtype().is_null())
    for_each_valid(a, [&](int64_t i) { (a.bool_value(i) ? any_true : any_false) = true; });
  const bool has_null = a.null_count() > 0;
  if (is_any) {
    if (any_true) return Scalar::boolean(true);
    if (!ignore_nulls && has_null) return Scalar::null(DataType::boolean());
    return Scalar::boolean(false);
  }
  if (any_false) return Scalar::boolean(false);
  if (!ignore_nulls && has_null) return Scalar::null(DataType::boolean());
  return Scalar::boolean(true);
}

}  // namespace

Scalar aggregate(AggKind kind, const Array& values, const AggOptions& options) {
  const DataType out = agg_result_dtype(kind, values.dtype());
  const int64_t n = values.length();
  switch (kind) {
    case AggKind::Len: return Scalar(out, static_cast<uint64_t>(n));
    case AggKind::Count: return Scalar(out, static_cast<uint64_t>(n - values.null_count()));
    case AggKind::NullCount: return Scalar(out, static_cast<uint64_t>(values.null_count()));
    case AggKind::NUnique: {
      ArrayRef ref = values.slice(0, n);
      return Scalar(out, static_cast<uint64_t>(group_rows({ref}).num_groups()));
    }
    case AggKind::First: return n ? array_get(values, 0) : Scalar::null(out);
    case AggKind::Last: return n ? array_get(values, n - 1) : Scalar::null(out);
    case AggKind::Any:
    case AggKind::All: return bool_scalar(values, kind == AggKind::Any, options.ignore_nulls);
    default: break;
  }
  if (values.dtype().is_null()) return Scalar::null(out);
  if (values.dtype().id() == TypeId::Float16) {
    // Float16 reduces in Float32; the result is rounded to its dtype (Float16 or Float64).
    Scalar s = aggregate(kind, *float16_to_float32(values), options);
    if (s.is_null()) return Scalar::null(out);
    const double v = s.as_double();
    return Scalar(out, out.id() == TypeId::Float16 ? static_cast<double>(half_to_float(double_to_half(v))) : v);
  }
  switch (kind) {
    case AggKind::Sum: return sum_scalar(values, out);
    case AggKind::Min:
    case AggKind::Max: return minmax_scalar(values, kind == AggKind::Max);
    case AggKind::Mean: {
      std::vector<double> v = valid_doubles(values);
      if (v.empty()) return Scalar::null(out);
      double s = 0;
      for (double x : v) s += x;
      return scalar_from_double(out, values.dtype(), s / static_cast<double>(v.size()));
    }
    case AggKind::Median:
    case AggKind::Quantile: {
      double q = kind == AggKind::Median ? 0.5 : options.quantile;
      Interp m = kind == AggKind::Median ? Interp::Linear : parse_interpolation(options.interpolation);
      if (!(q >= 0.0 && q <= 1.0))
        throw ComputeError(err_msg("quantile should be between 0.0 and 1.0, got ", q));
      std::vector<double> v = valid_doubles(values);
      if (v.empty()) return Scalar::null(out);
      return scalar_from_double(out, values.dtype(), select_quantile(v.data(), v.size(), q, m));
    }
    case AggKind::Std:
    case AggKind::Var:
      return std_var_scalar(values, out, kind == AggKind::Std, options.ddof);
    default: break;
  }
  throw unsupported(kind, values.dtype());
}

Scalar sum_counts(const Array& counts, std::string_view what) {
  FRAZIL_CHECK(counts.dtype().id() == TypeId::UInt32);
  const uint32_t* v = counts.values<uint32_t>();
  uint64_t total = 0;
  for_each_valid(counts, [&](int64_t i) { total += v[i]; });
  return Scalar::uint32(checked_count(total, what));
}

}  // namespace frazil::compute
