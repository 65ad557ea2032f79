// Temporal functions (Polars' `dt` namespace): fields, time zones, calendar arithmetic,
// conversions, formatting, business days.
#include <array>

#include "frazil/compute/temporal/business_days.hpp"
#include "frazil/compute/temporal/calendar_duration.hpp"
#include "frazil/compute/temporal/calendar_ops.hpp"
#include "frazil/compute/temporal/construct.hpp"
#include "frazil/compute/temporal/conversions.hpp"
#include "frazil/compute/temporal/fields.hpp"
#include "frazil/compute/temporal/strftime.hpp"
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

// A duration input (input 1): a String expression in Polars' duration language.
void require_duration_text(const CallTypes& c, const char* what) {
  if (!c.inputs[1].is_string() && !c.inputs[1].is_null())
    throw InvalidOperationError(err_msg("`", what, "` expects a duration string such as \"1d\", got ", c.inputs[1]));
}

void register_calendar(Registry& r) {
  struct Row {
    const char* name;
    ArrayRef (*kernel)(const Array&, const Array&);
  };
  for (const Row& row : {Row{"offset_by", compute::offset_by}, Row{"truncate", compute::truncate},
                         Row{"round", compute::round}}) {
    FunctionSpec s = temporal_function(row.name, calendar_types);
    s.min_inputs = s.max_inputs = 2;
    s.null_if_null = input(0) | input(1);
    s.fallible = true;
    s.check = [name = row.name](const CallTypes& c) { require_duration_text(c, name); };
    s.kernel = binary(row.kernel);
    r.add(std::move(s));
  }
  for (const bool end : {false, true}) {
    FunctionSpec s = temporal_function(end ? "month_end" : "month_start", calendar_types);
    s.fallible = true;  // (a local time that does not exist raises)
    s.kernel = end ? unary(compute::month_end) : unary(compute::month_start);
    r.add(std::move(s));
  }
}

TimeUnit time_unit_of(const std::string& s) {
  if (s == "ns") return TimeUnit::Nanoseconds;
  if (s == "us") return TimeUnit::Microseconds;
  if (s == "ms") return TimeUnit::Milliseconds;
  throw InvalidOperationError(err_msg("invalid time unit '", s, "': expected one of 'ns', 'us', 'ms'"));
}

Param time_unit_param(const char* name = "time_unit") { return string_param(name, "us", {"ns", "us", "ms"}); }

void register_conversions(Registry& r) {
  {
    FunctionSpec s = temporal_function("date", calendar_types);
    s.output_dtype = fixed(DataType::date());
    s.kernel = unary(compute::local_date);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = temporal_function("time", TypeSet::of({TypeId::Datetime, TypeId::Time}));
    s.output_dtype = fixed(DataType::time());
    s.kernel = unary(compute::local_time);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = temporal_function("timestamp", calendar_types);
    s.params = {time_unit_param()};
    s.output_dtype = fixed(DataType::int64());
    s.kernel = [](const Args& a) -> Kernel {
      return [u = time_unit_of(a.get_string("time_unit"))](std::span<const ArrayRef> in) {
        return compute::timestamp(*in[0], u);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = temporal_function("cast_time_unit", TypeSet::of({TypeId::Datetime, TypeId::Duration}));
    s.params = {time_unit_param()};
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      const TimeUnit u = time_unit_of(c.args.get_string("time_unit"));
      if (t.id() == TypeId::Datetime) return DataType::datetime(u, t.time_zone());
      if (t.id() == TypeId::Duration) return DataType::duration(u);
      return t;
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [u = time_unit_of(a.get_string("time_unit"))](std::span<const ArrayRef> in) {
        return compute::cast_time_unit(*in[0], u);
      };
    };
    r.add(std::move(s));
  }
  using compute::DurationUnit;
  const std::pair<const char*, DurationUnit> totals[] = {
      {"total_days", DurationUnit::Days},          {"total_hours", DurationUnit::Hours},
      {"total_minutes", DurationUnit::Minutes},    {"total_seconds", DurationUnit::Seconds},
      {"total_milliseconds", DurationUnit::Milliseconds}, {"total_microseconds", DurationUnit::Microseconds},
      {"total_nanoseconds", DurationUnit::Nanoseconds}};
  for (const auto& [name, unit] : totals) {
    FunctionSpec s = temporal_function(name, types::duration);
    s.params = {bool_param("fractional", false)};
    s.output_dtype = [](const CallTypes& c) {
      return c.args.get_bool("fractional") ? DataType::float64() : DataType::int64();
    };
    s.kernel = [unit = unit](const Args& a) -> Kernel {
      return [unit, f = a.get_bool("fractional")](std::span<const ArrayRef> in) {
        return compute::duration_total(*in[0], unit, f);
      };
    };
    r.add(std::move(s));
  }
  {
    // to_string(format): chrono specifiers, or "iso" / "iso:strict" / "polars".
    FunctionSpec s = temporal_function("to_string", calendar_types | TypeSet::of({TypeId::Time, TypeId::Duration}));
    s.params = {string_param("format", "iso")};
    s.fallible = true;
    s.output_dtype = fixed(DataType::string());
    s.kernel = [](const Args& a) -> Kernel {
      return [f = a.get_string("format")](std::span<const ArrayRef> in) { return compute::strftime(*in[0], f); };
    };
    r.add(std::move(s));
  }
  {
    // combine(time, time_unit): a Date's (or Datetime's) date with a Time.
    FunctionSpec s = temporal_function("combine", calendar_types);
    s.min_inputs = s.max_inputs = 2;
    s.params = {time_unit_param()};
    s.null_if_null = input(0) | input(1);
    s.output_dtype = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      return DataType::datetime(time_unit_of(c.args.get_string("time_unit")),
                                t.id() == TypeId::Datetime ? t.time_zone() : std::nullopt);
    };
    s.check = [](const CallTypes& c) {
      if (c.inputs[1].id() != TypeId::Time && !c.inputs[1].is_null())
        throw InvalidOperationError(err_msg("`combine` expects a Time, got ", c.inputs[1]));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [u = time_unit_of(a.get_string("time_unit"))](std::span<const ArrayRef> in) {
        return compute::combine(*in[0], *in[1], u);
      };
    };
    r.add(std::move(s));
  }
  {
    // replace(year, month, day, hour, minute, second, microsecond, ambiguous): inputs 1..8;
    // a null part keeps the value's own field.
    FunctionSpec s = temporal_function("replace", calendar_types);
    s.min_inputs = s.max_inputs = 9;
    s.null_if_null = input(0);
    s.fallible = true;
    s.check = [](const CallTypes& c) {
      for (size_t k = 1; k < 8; ++k)
        if (!c.inputs[k].is_null() && !c.inputs[k].is_integer())
          throw InvalidOperationError(err_msg("`replace` expects integer fields, got ", c.inputs[k]));
    };
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) { return compute::replace_fields(*in[0], in.subspan(1, 7), *in[8]); };
    };
    r.add(std::move(s));
  }
}

compute::WeekMask week_mask_of(const Args& a) {
  const auto& m = a.get_int_list("week_mask");
  if (m.size() != 7) throw InvalidOperationError(err_msg("`week_mask` must have 7 values, got ", m.size()));
  compute::WeekMask out;
  for (size_t k = 0; k < 7; ++k) out[k] = m[k] != 0;
  return out;
}

void register_business_days(Registry& r) {
  {
    // add_business_days(n, holidays, week_mask, roll): inputs root, n, holidays (List(Date)).
    FunctionSpec s = temporal_function("add_business_days", TypeSet::any());
    s.min_inputs = s.max_inputs = 3;
    // Polars' messages for the start and n dtypes.
    s.check = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      if (!(t.id() == TypeId::Date || t.id() == TypeId::Datetime || t.is_null()))
        throw InvalidOperationError(err_msg("expected date or datetime, got ", t.short_name()));
      const DataType& n = c.inputs[1];
      if (!(n.is_integer() || n.is_null()))
        throw InvalidOperationError(err_msg("expected Int64, Int32, UInt64, or UInt32, got ", n.short_name()));
    };
    s.params = {int_list_param("week_mask"), string_param("roll", "raise", {"raise", "forward", "backward"})};
    s.null_if_null = input(0) | input(1) | input(2);
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) {
      return c.inputs[0].id() == TypeId::Datetime ? c.inputs[0] : DataType::date();
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [mask = week_mask_of(a), roll = a.get_string("roll")](std::span<const ArrayRef> in) {
        return compute::add_business_days(*in[0], *in[1], mask, *in[2], roll);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = temporal_function("is_business_day", calendar_types);
    s.min_inputs = s.max_inputs = 2;
    s.params = {int_list_param("week_mask")};
    s.null_if_null = input(0) | input(1);
    s.output_dtype = boolean;
    s.kernel = [](const Args& a) -> Kernel {
      return [mask = week_mask_of(a)](std::span<const ArrayRef> in) {
        return compute::is_business_day(*in[0], mask, *in[1]);
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace

void register_temporal_functions(Registry& r) {
  register_fields(r);
  register_time_zones(r);
  register_calendar(r);
  register_conversions(r);
  register_business_days(r);
}

}  // namespace frazil::functions
