// Temporal constructors and ranges (Polars' pl.datetime, pl.duration, pl.date_range,
// pl.datetime_range(s), pl.time_range(s), pl.business_day_count): functions of the
// expression language written as globals, `datetime([year, month, ...])`.
#include "frazil/compute/temporal/business_days.hpp"
#include "frazil/compute/temporal/calendar_duration.hpp"
#include "frazil/compute/temporal/construct.hpp"
#include "frazil/compute/temporal/ranges.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/core/tz.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

TimeUnit unit_of(const std::string& s) {
  if (s == "ns") return TimeUnit::Nanoseconds;
  if (s == "ms") return TimeUnit::Milliseconds;
  return TimeUnit::Microseconds;
}

FunctionSpec global_function(std::string name, size_t inputs) {
  FunctionSpec s;
  s.name = std::move(name);
  s.min_inputs = s.max_inputs = inputs;
  s.display_as_global = true;
  return s;
}

void require_numbers(const CallTypes& c, size_t count, const char* what) {
  for (size_t k = 0; k < count; ++k)
    if (!c.inputs[k].is_null() && !c.inputs[k].is_numeric() && !c.inputs[k].is_boolean())
      throw InvalidOperationError(err_msg("`", what, "` expects numbers, got ", c.inputs[k]));
}

bool is_calendar(const DataType& t) { return t.id() == TypeId::Date || t.id() == TypeId::Datetime || t.is_null(); }

// Polars' output dtype of a datetime range: the start's and end's supertype (a Date is
// Datetime in us, or ns for an interval finer than a microsecond), then time_unit and
// time_zone when given.
DataType datetime_range_dtype(const CallTypes& c) {
  const DataType& a = c.inputs[0];
  const DataType& b = c.inputs[1];
  DataType st = get_supertype(a, b).value_or(a);
  if (st.is_null()) st = DataType::date();
  const auto unit = c.args.get_optional_string("time_unit");
  const auto zone = c.args.get_optional_string("time_zone");
  DataType out;
  if (st.id() == TypeId::Date) {
    const auto interval = compute::CalendarDuration::parse(c.args.get_string("interval"));
    TimeUnit u = unit ? unit_of(*unit) : interval.nanos % 1000 != 0 ? TimeUnit::Nanoseconds : TimeUnit::Microseconds;
    out = DataType::datetime(u);
  } else if (st.id() == TypeId::Datetime) {
    out = unit ? DataType::datetime(unit_of(*unit), st.time_zone()) : st;
  } else {
    return st;  // (rejected by the check)
  }
  if (zone) out = DataType::datetime(out.time_unit(), tz::canonical_name(*zone));
  return out;
}

void register_ranges(Registry& r) {
  struct Kind {
    const char* name;
    bool many;  // one range per row (a List)
    char what;  // 'd' date, 't' datetime, 'h' time
  };
  for (const Kind k : {Kind{"date_range", false, 'd'}, Kind{"date_ranges", true, 'd'},
                       Kind{"datetime_range", false, 't'}, Kind{"datetime_ranges", true, 't'},
                       Kind{"time_range", false, 'h'}, Kind{"time_ranges", true, 'h'}}) {
    FunctionSpec s = global_function(k.name, 2);
    s.shape = k.many ? Shape::Elementwise : Shape::Other;
    s.params = {string_param("interval", k.what == 'h' ? "1h" : "1d"),
                string_param("closed", "both", {"both", "left", "right", "none"})};
    if (k.what == 't') s.params.push_back(optional_string_param("time_unit")), s.params.push_back(optional_string_param("time_zone"));
    s.fallible = true;
    auto element = [what = k.what](const CallTypes& c) -> DataType {
      if (what == 'd') return DataType::date();
      if (what == 'h') return DataType::time();
      return datetime_range_dtype(c);
    };
    s.output_dtype = [element, many = k.many](const CallTypes& c) {
      DataType e = element(c);
      return many ? DataType::list(e) : e;
    };
    s.check = [what = k.what, name = k.name](const CallTypes& c) {
      const auto interval = compute::CalendarDuration::parse(c.args.get_string("interval"));
      for (size_t i = 0; i < 2; ++i) {
        const DataType& t = c.inputs[i];
        const bool ok = what == 'h' ? (t.id() == TypeId::Time || t.is_null()) : is_calendar(t);
        if (!ok) throw InvalidOperationError(err_msg("`", name, "` expects ", what == 'h' ? "Time" : "Date or Datetime",
                                                     " bounds, got ", t));
      }
      if (what == 'd' && interval.nanos != 0)
        throw ComputeError(err_msg("`interval` input for `date_range` must consist of full days, got: ",
                                   interval.to_string()));
      if (what == 't')
        if (auto zone = c.args.get_optional_string("time_zone")) tz::TimeZone::get(tz::canonical_name(*zone));
    };
    s.kernel = [element, many = k.many](const Args& a) -> Kernel {
      // The output dtype is derived again from the inputs' dtypes at run time.
      return [a, element, many](std::span<const ArrayRef> in) {
        const DataType types[] = {in[0]->dtype(), in[1]->dtype()};
        const DataType dtype = element(CallTypes{types, a});
        const auto interval = compute::CalendarDuration::parse(a.get_string("interval"));
        const std::string& closed = a.get_string("closed");
        return many ? compute::temporal_ranges(*in[0], *in[1], interval, closed, dtype)
                    : compute::temporal_range(*in[0], *in[1], interval, closed, dtype);
      };
    };
    r.add(std::move(s));
  }
}

void register_constructors(Registry& r) {
  {
    // datetime(year, month, day, hour, minute, second, microsecond, ambiguous)
    FunctionSpec s = global_function("datetime", 8);
    s.params = {string_param("time_unit", "us", {"ns", "us", "ms"}), optional_string_param("time_zone")};
    s.null_if_null = input(0) | input(1) | input(2) | input(3) | input(4) | input(5) | input(6);
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) {
      auto zone = c.args.get_optional_string("time_zone");
      return DataType::datetime(unit_of(c.args.get_string("time_unit")),
                                zone ? std::optional(tz::canonical_name(*zone)) : std::nullopt);
    };
    s.check = [](const CallTypes& c) {
      require_numbers(c, 7, "datetime");
      if (auto zone = c.args.get_optional_string("time_zone")) tz::TimeZone::get(tz::canonical_name(*zone));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [u = unit_of(a.get_string("time_unit")), zone = a.get_optional_string("time_zone")](
                 std::span<const ArrayRef> in) { return compute::datetime_from_parts(in.subspan(0, 7), *in[7], u, zone); };
    };
    r.add(std::move(s));
  }
  {
    // duration(weeks, days, hours, minutes, seconds, milliseconds, microseconds, nanoseconds)
    FunctionSpec s = global_function("duration", 8);
    s.params = {string_param("time_unit", "us", {"ns", "us", "ms"})};
    s.null_if_null = all_inputs;
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) { return DataType::duration(unit_of(c.args.get_string("time_unit"))); };
    s.check = [](const CallTypes& c) { require_numbers(c, 8, "duration"); };
    s.kernel = [](const Args& a) -> Kernel {
      return [u = unit_of(a.get_string("time_unit"))](std::span<const ArrayRef> in) {
        return compute::duration_from_parts(in, u);
      };
    };
    r.add(std::move(s));
  }
  {
    // business_day_count(start, end, holidays)
    FunctionSpec s = global_function("business_day_count", 3);
    s.params = {int_list_param("week_mask")};
    s.null_if_null = all_inputs;
    s.output_dtype = fixed(DataType::int32());
    s.kernel = [](const Args& a) -> Kernel {
      const auto& m = a.get_int_list("week_mask");
      if (m.size() != 7) throw InvalidOperationError(err_msg("`week_mask` must have 7 values, got ", m.size()));
      compute::WeekMask mask;
      for (size_t k = 0; k < 7; ++k) mask[k] = m[k] != 0;
      return [mask](std::span<const ArrayRef> in) { return compute::business_day_count(*in[0], *in[1], mask, *in[2]); };
    };
    r.add(std::move(s));
  }
}

}  // namespace

void register_temporal_constructor_functions(Registry& r) {
  register_constructors(r);
  register_ranges(r);
}

}  // namespace frazil::functions
