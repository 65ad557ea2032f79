#include "frazil/dsl/dt_namespace.hpp"

#include "frazil/core/builder.hpp"

namespace frazil::dsl {

namespace {

std::string unit_text(TimeUnit u) { return time_unit_name(u); }

std::vector<int64_t> mask_ints(const std::array<bool, 7>& m) {
  std::vector<int64_t> out;
  for (bool b : m) out.push_back(b ? 1 : 0);
  return out;
}

functions::ArgValue optional_text(const std::optional<std::string>& s) {
  return s ? functions::ArgValue(*s) : functions::ArgValue(std::monostate{});
}

}  // namespace

DtNameSpace Expr::dt() const { return DtNameSpace(*this); }

Expr DtNameSpace::replace_time_zone(std::optional<std::string> time_zone, const std::string& ambiguous,
                                    const std::string& non_existent) const {
  return e_.function("dt.replace_time_zone", {lit(ambiguous)},
                     {{"time_zone", optional_text(time_zone)}, {"non_existent", non_existent}});
}
Expr DtNameSpace::convert_time_zone(const std::string& time_zone) const {
  return e_.function("dt.convert_time_zone", {}, {{"time_zone", time_zone}});
}
Expr DtNameSpace::timestamp(TimeUnit unit) const {
  return e_.function("dt.timestamp", {}, {{"time_unit", unit_text(unit)}});
}
Expr DtNameSpace::cast_time_unit(TimeUnit unit) const {
  return e_.function("dt.cast_time_unit", {}, {{"time_unit", unit_text(unit)}});
}
Expr DtNameSpace::to_string(const std::string& format) const {
  return e_.function("dt.to_string", {}, {{"format", format}});
}
Expr DtNameSpace::combine(const Expr& time, TimeUnit unit) const {
  return e_.function("dt.combine", {time}, {{"time_unit", unit_text(unit)}});
}
Expr DtNameSpace::add_business_days(const Expr& n, const std::array<bool, 7>& week_mask,
                                    const std::vector<int32_t>& holidays, const std::string& roll) const {
  return e_.function("dt.add_business_days", {n, holiday_list(holidays)},
                     {{"week_mask", mask_ints(week_mask)}, {"roll", roll}});
}
Expr DtNameSpace::is_business_day(const std::array<bool, 7>& week_mask, const std::vector<int32_t>& holidays) const {
  return e_.function("dt.is_business_day", {holiday_list(holidays)}, {{"week_mask", mask_ints(week_mask)}});
}

Expr holiday_list(const std::vector<int32_t>& days) {
  PrimitiveBuilder<int32_t> b(DataType::date());
  for (int32_t d : days) b.push(d);
  Buffer off = Buffer::allocate(2 * sizeof(int64_t));
  off.mutable_as<int64_t>()[0] = 0;
  off.mutable_as<int64_t>()[1] = static_cast<int64_t>(days.size());
  return lit_series(Array::make(DataType::list(DataType::date()), 1, Buffer(), {off}, {b.finish()}));
}

Expr datetime(const Expr& year, const Expr& month, const Expr& day, const Expr& hour, const Expr& minute,
              const Expr& second, const Expr& microsecond, TimeUnit unit, std::optional<std::string> time_zone) {
  return year
      .function("datetime", {month, day, hour, minute, second, microsecond, lit("raise")},
                {{"time_unit", unit_text(unit)}, {"time_zone", optional_text(time_zone)}})
      .alias("datetime");
}

Expr date_range(const Expr& start, const Expr& end, const std::string& interval, const std::string& closed) {
  return start.function("date_range", {end}, {{"interval", interval}, {"closed", closed}});
}

Expr datetime_range(const Expr& start, const Expr& end, const std::string& interval, const std::string& closed,
                    std::optional<TimeUnit> unit, std::optional<std::string> time_zone) {
  return start.function("datetime_range", {end},
                        {{"interval", interval},
                         {"closed", closed},
                         {"time_unit", unit ? functions::ArgValue(unit_text(*unit)) : functions::ArgValue(std::monostate{})},
                         {"time_zone", optional_text(time_zone)}});
}

}  // namespace frazil::dsl
