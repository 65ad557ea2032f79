#include "frazil/compute/temporal/conversions.hpp"

#include "frazil/compute/cast.hpp"
#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/compute/temporal/zone.hpp"

namespace frazil::compute {

using namespace detail;

ArrayRef local_date(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null()) return make_null_array(DataType::date(), values.length());
  if (t.id() == TypeId::Date) return share(values);
  if (t.id() != TypeId::Datetime) temporal_not_supported("date", t);
  return cast(*to_local_clock(values), DataType::date());
}

ArrayRef local_time(const Array& values) {
  const DataType& t = values.dtype();
  if (t.is_null()) return make_null_array(DataType::time(), values.length());
  if (t.id() == TypeId::Time) return share(values);
  if (t.id() != TypeId::Datetime) temporal_not_supported("time", t);
  return cast(*to_local_clock(values), DataType::time());
}

ArrayRef timestamp(const Array& values, TimeUnit unit) {
  const DataType& t = values.dtype();
  if (t.is_null()) return make_null_array(DataType::int64(), values.length());
  if (t.id() != TypeId::Date && t.id() != TypeId::Datetime) temporal_not_supported("timestamp", t);
  return cast(values, DataType::datetime(unit, t.id() == TypeId::Datetime ? t.time_zone() : std::nullopt))
      ->with_dtype(DataType::int64());
}

ArrayRef cast_time_unit(const Array& values, TimeUnit unit) {
  const DataType& t = values.dtype();
  if (t.is_null()) return share(values);
  if (t.id() == TypeId::Datetime) return cast(values, DataType::datetime(unit, t.time_zone()));
  if (t.id() == TypeId::Duration) return cast(values, DataType::duration(unit));
  temporal_not_supported("cast_time_unit", t);
}

ArrayRef duration_total(const Array& values, DurationUnit unit, bool fractional) {
  const DataType& t = values.dtype();
  const DataType out = fractional ? DataType::float64() : DataType::int64();
  if (t.is_null()) return make_null_array(out, values.length());
  if (t.id() != TypeId::Duration) temporal_not_supported("total", t);
  // Nanoseconds per output unit, and per value unit.
  static const int64_t kNs[] = {86'400'000'000'000LL, 3'600'000'000'000LL, 60'000'000'000LL, 1'000'000'000LL,
                                1'000'000LL, 1'000LL, 1LL};
  const int64_t per_out = kNs[static_cast<int>(unit)];
  const int64_t per_in = 1'000'000'000 / units_per_second(t.time_unit());
  if (fractional) {
    // Units of the value per output unit, computed as Polars does (so results round alike).
    const double ups = static_cast<double>(units_per_second(t.time_unit()));
    static const double kSeconds[] = {86'400.0, 3600.0, 60.0, 1.0};
    static const double kPerSecond[] = {1e3, 1e6, 1e9};
    const int k = static_cast<int>(unit);
    const double divisor = k < 4 ? ups * kSeconds[k] : ups / kPerSecond[k - 4];
    return unary_kernel<int64_t, double>(values, out, [divisor](int64_t v) { return static_cast<double>(v) / divisor; });
  }
  if (per_out >= per_in) {
    const int64_t d = per_out / per_in;
    return unary_kernel<int64_t, int64_t>(values, out, [d](int64_t v) { return v / d; });
  }
  const int64_t m = per_in / per_out;
  return map_optional<int64_t, int64_t>(values, out, [m](int64_t, int64_t v) -> std::optional<int64_t> {
    int64_t r;
    if (__builtin_mul_overflow(v, m, &r)) throw ComputeError("total duration is out of range for Int64");
    return r;
  });
}

}  // namespace frazil::compute
