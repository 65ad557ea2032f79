// Temporal functions (Polars' `dt` namespace): fields, time zones.
#include "frazil/compute/temporal/fields.hpp"
#include "frazil/compute/temporal/zone.hpp"
#include "frazil/core/tz.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

inline constexpr TypeSet datetime_only = TypeSet::of({TypeId::Datetime});
inline constexpr TypeSet calendar_types = TypeSet::of({TypeId::Date, TypeId::Datetime});

// A function of a temporal root accepting `accepts`; nulls propagate.
FunctionSpec temporal_function(std::string name, TypeSet accepts) {
  FunctionSpec s;
  s.name = "dt." + std::move(name);
  s.input_types = accepts;
  s.null_if_null = input(0);
  s.output_dtype = same_as_root;
  return s;
}

// The zone a parameter names, canonical and checked (ComputeError for an unknown zone).
std::string checked_zone(const std::string& name) {
  std::string z = tz::canonical_name(name);
  tz::TimeZone::get(z);
  return z;
}

void register_fields(Registry& r) {
  using compute::DatePart;
  const DatePart parts[] = {DatePart::Year,        DatePart::Month,       DatePart::Day,        DatePart::Hour,
                            DatePart::Minute,      DatePart::Second,      DatePart::Millisecond, DatePart::Microsecond,
                            DatePart::Nanosecond,  DatePart::Weekday,     DatePart::Ordinal,    DatePart::Quarter,
                            DatePart::Week,        DatePart::IsoYear,     DatePart::Century,    DatePart::Millennium};
  for (const DatePart part : parts) {
    const bool clock = part == DatePart::Hour || part == DatePart::Minute || part == DatePart::Second ||
                       part == DatePart::Millisecond || part == DatePart::Microsecond || part == DatePart::Nanosecond;
    FunctionSpec s = temporal_function(compute::date_part_name(part),
                                       clock ? TypeSet::of({TypeId::Datetime, TypeId::Time}) : calendar_types);
    s.output_dtype = fixed(compute::date_part_dtype(part));
    s.kernel = [part](const Args&) -> Kernel {
      return [part](std::span<const ArrayRef> in) { return compute::date_part(*in[0], part); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = temporal_function("is_leap_year", calendar_types);
    s.output_dtype = boolean;
    s.kernel = unary(compute::is_leap_year);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = temporal_function("days_in_month", calendar_types);
    s.output_dtype = fixed(DataType::int8());
    s.kernel = unary(compute::days_in_month);
    r.add(std::move(s));
  }
}

void register_time_zones(Registry& r) {
  {
    // replace_time_zone(time_zone, ambiguous=<input 1>, non_existent): the same local time
    // in another zone (None: naive).
    FunctionSpec s = temporal_function("replace_time_zone", datetime_only);
    s.min_inputs = s.max_inputs = 2;
    s.params = {optional_string_param("time_zone"), string_param("non_existent", "raise", {"raise", "null"})};
    s.null_if_null = input(0) | input(1);
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) {
      auto zone = c.args.get_optional_string("time_zone");
      if (c.inputs[0].id() != TypeId::Datetime) return c.inputs[0];
      return DataType::datetime(c.inputs[0].time_unit(), zone ? std::optional(tz::canonical_name(*zone)) : std::nullopt);
    };
    s.check = [](const CallTypes& c) {
      if (auto zone = c.args.get_optional_string("time_zone")) checked_zone(*zone);
      if (!c.inputs[1].is_string() && !c.inputs[1].is_null())
        throw InvalidOperationError(err_msg("`ambiguous` must be a String, got ", c.inputs[1]));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [zone = a.get_optional_string("time_zone"),
              ne = tz::parse_non_existent(a.get_string("non_existent"))](std::span<const ArrayRef> in) {
        return compute::replace_time_zone(*in[0], zone, *in[1], ne);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = temporal_function("convert_time_zone", datetime_only);
    s.params = {string_param("time_zone", "UTC")};
    s.output_dtype = [](const CallTypes& c) {
      if (c.inputs[0].id() != TypeId::Datetime) return c.inputs[0];
      return DataType::datetime(c.inputs[0].time_unit(), tz::canonical_name(c.args.get_string("time_zone")));
    };
    s.check = [](const CallTypes& c) {
      checked_zone(c.args.get_string("time_zone"));  // (a naive input is read as UTC, as Polars)
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [zone = a.get_string("time_zone")](std::span<const ArrayRef> in) {
        return compute::convert_time_zone(*in[0], zone);
      };
    };
    s.format_args = [](std::span<const std::string>, const Args&) { return std::string(); };
    r.add(std::move(s));
  }
  for (const bool dst : {false, true}) {
    FunctionSpec s = temporal_function(dst ? "dst_offset" : "base_utc_offset", datetime_only);
    s.output_dtype = fixed(DataType::duration(TimeUnit::Milliseconds));
    s.kernel = dst ? unary(compute::dst_offset) : unary(compute::base_utc_offset);
    r.add(std::move(s));
  }
}

}  // namespace

void register_temporal_functions(Registry& r) {
  register_fields(r);
  register_time_zones(r);
}

}  // namespace frazil::functions
