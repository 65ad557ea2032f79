#include "frazil/compute/temporal/zone.hpp"

#include "frazil/compute/temporal/temporal_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

void require_datetime(const Array& a, const char* what) {
  if (a.dtype().id() != TypeId::Datetime) temporal_not_supported(what, a.dtype());
}

tz::Ambiguous ambiguous_of(const Array& choices, int64_t i, bool& is_null) {
  const int64_t k = choices.length() == 1 ? 0 : i;
  if (choices.dtype().is_null() || choices.is_null(k)) {
    is_null = true;
    return tz::Ambiguous::Null;
  }
  is_null = false;
  return tz::parse_ambiguous(choices.str_value(k));
}

}  // namespace

bool has_local_offset(const DataType& t) {
  return t.id() == TypeId::Datetime && t.time_zone() && !tz::TimeZone::get(*t.time_zone()).is_utc();
}

ArrayRef to_local_clock(const Array& a) {
  require_datetime(a, "to_local_clock");
  const DataType naive = DataType::datetime(a.dtype().time_unit());
  if (!has_local_offset(a.dtype())) return a.with_dtype(naive);
  tz::ZoneCursor cursor(tz::TimeZone::get(*a.dtype().time_zone()));
  const int64_t ups = units_per_second(a.dtype().time_unit());
  return unary_kernel<int64_t, int64_t>(a, naive, [&](int64_t v) { return cursor.local_value(v, ups); });
}

ArrayRef from_local_clock(const Array& local, const std::string& time_zone, tz::Ambiguous ambiguous,
                          tz::NonExistent non_existent) {
  require_datetime(local, "replace_time_zone");
  const std::string name = tz::canonical_name(time_zone);
  const tz::TimeZone& zone = tz::TimeZone::get(name);
  const DataType out = DataType::datetime(local.dtype().time_unit(), name);
  if (zone.is_utc()) return local.with_dtype(out);
  tz::ZoneCursor cursor(zone);
  const int64_t ups = units_per_second(local.dtype().time_unit());
  return map_optional<int64_t, int64_t>(local, out, [&](int64_t, int64_t v) { return cursor.utc_value(v, ups, ambiguous, non_existent); });
}

ArrayRef from_local_clock(const Array& local, const std::string& time_zone, const Array& ambiguous,
                          tz::NonExistent non_existent) {
  if (ambiguous.length() == 1) {
    bool is_null = false;
    const tz::Ambiguous a = ambiguous_of(ambiguous, 0, is_null);
    if (is_null) return make_null_array(DataType::datetime(local.dtype().time_unit(), tz::canonical_name(time_zone)),
                                        local.length());
    return from_local_clock(local, time_zone, a, non_existent);
  }
  if (ambiguous.length() != local.length())
    throw ShapeError(err_msg("`ambiguous` has length ", ambiguous.length(), " but the input has length ",
                             local.length()));
  require_datetime(local, "replace_time_zone");
  const std::string name = tz::canonical_name(time_zone);
  tz::ZoneCursor cursor(tz::TimeZone::get(name));
  const DataType out = DataType::datetime(local.dtype().time_unit(), name);
  const int64_t ups = units_per_second(local.dtype().time_unit());
  return map_optional<int64_t, int64_t>(local, out, [&](int64_t i, int64_t v) -> std::optional<int64_t> {
    bool is_null = false;
    const tz::Ambiguous a = ambiguous_of(ambiguous, i, is_null);
    if (is_null) return std::nullopt;
    return cursor.utc_value(v, ups, a, non_existent);
  });
}

ArrayRef replace_time_zone(const Array& values, const std::optional<std::string>& time_zone, const Array& ambiguous,
                           tz::NonExistent non_existent) {
  if (values.dtype().is_null()) return share(values);
  require_datetime(values, "replace_time_zone");
  ArrayRef local = to_local_clock(values);
  if (!time_zone) return local;
  return from_local_clock(*local, *time_zone, ambiguous, non_existent);
}

ArrayRef convert_time_zone(const Array& values, const std::string& time_zone) {
  require_datetime(values, "convert_time_zone");
  const std::string name = tz::canonical_name(time_zone);
  tz::TimeZone::get(name);  // checks the name
  return values.with_dtype(DataType::datetime(values.dtype().time_unit(), name));
}

namespace {

template <bool Dst>
ArrayRef offset_kernel(const Array& a, const char* what) {
  require_datetime(a, what);
  const DataType out = DataType::duration(TimeUnit::Milliseconds);
  const int64_t ups = units_per_second(a.dtype().time_unit());
  if (!a.dtype().time_zone()) return unary_kernel<int64_t, int64_t>(a, out, [](int64_t) { return int64_t{0}; });
  const tz::TimeZone& zone = tz::TimeZone::get(*a.dtype().time_zone());
  tz::ZoneCursor cursor(zone);
  return unary_kernel<int64_t, int64_t>(a, out, [&](int64_t v) {
    const int64_t s = floor_div(v, ups);
    const int64_t base = zone.base_offset_at(s);
    return (Dst ? cursor.offset(s) - base : base) * int64_t{1000};
  });
}

}  // namespace

ArrayRef base_utc_offset(const Array& values) { return offset_kernel<false>(values, "base_utc_offset"); }
ArrayRef dst_offset(const Array& values) { return offset_kernel<true>(values, "dst_offset"); }

}  // namespace frazil::compute
