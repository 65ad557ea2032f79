// The C++ face of Polars' `dt` namespace: col("t").dt().year(), .dt().truncate("1mo"),
// .dt().replace_time_zone("Europe/Amsterdam"). Each method is the registry's function of
// the same name; durations are Polars' duration strings ("1mo2d").
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

class DtNameSpace {
 public:
  explicit DtNameSpace(Expr e) : e_(std::move(e)) {}

  Expr year() const { return part("year"); }
  Expr iso_year() const { return part("iso_year"); }
  Expr quarter() const { return part("quarter"); }
  Expr month() const { return part("month"); }
  Expr week() const { return part("week"); }
  Expr weekday() const { return part("weekday"); }
  Expr day() const { return part("day"); }
  Expr ordinal_day() const { return part("ordinal_day"); }
  Expr hour() const { return part("hour"); }
  Expr minute() const { return part("minute"); }
  Expr second() const { return part("second"); }
  Expr millisecond() const { return part("millisecond"); }
  Expr microsecond() const { return part("microsecond"); }
  Expr nanosecond() const { return part("nanosecond"); }
  Expr century() const { return part("century"); }
  Expr millennium() const { return part("millennium"); }
  Expr is_leap_year() const { return part("is_leap_year"); }
  Expr days_in_month() const { return part("days_in_month"); }

  Expr replace_time_zone(std::optional<std::string> time_zone, const std::string& ambiguous = "raise",
                         const std::string& non_existent = "raise") const;
  Expr convert_time_zone(const std::string& time_zone) const;
  Expr base_utc_offset() const { return part("base_utc_offset"); }
  Expr dst_offset() const { return part("dst_offset"); }

  Expr offset_by(const std::string& by) const { return e_.function("dt.offset_by", {lit(by)}); }
  Expr offset_by(const Expr& by) const { return e_.function("dt.offset_by", {by}); }
  Expr truncate(const std::string& every) const { return e_.function("dt.truncate", {lit(every)}); }
  Expr round(const std::string& every) const { return e_.function("dt.round", {lit(every)}); }
  Expr month_start() const { return part("month_start"); }
  Expr month_end() const { return part("month_end"); }

  Expr date() const { return part("date"); }
  Expr time() const { return part("time"); }
  Expr timestamp(TimeUnit unit = TimeUnit::Microseconds) const;
  Expr cast_time_unit(TimeUnit unit) const;
  Expr total_days(bool fractional = false) const { return total("total_days", fractional); }
  Expr total_hours(bool fractional = false) const { return total("total_hours", fractional); }
  Expr total_minutes(bool fractional = false) const { return total("total_minutes", fractional); }
  Expr total_seconds(bool fractional = false) const { return total("total_seconds", fractional); }
  Expr total_milliseconds(bool fractional = false) const { return total("total_milliseconds", fractional); }
  Expr total_microseconds(bool fractional = false) const { return total("total_microseconds", fractional); }
  Expr total_nanoseconds(bool fractional = false) const { return total("total_nanoseconds", fractional); }
  // chrono format, or "iso" / "iso:strict" (and "polars" for durations).
  Expr to_string(const std::string& format = "iso") const;
  Expr strftime(const std::string& format) const { return to_string(format); }
  Expr combine(const Expr& time, TimeUnit unit = TimeUnit::Microseconds) const;

  Expr add_business_days(const Expr& n, const std::array<bool, 7>& week_mask = {true, true, true, true, true, false, false},
                         const std::vector<int32_t>& holidays = {}, const std::string& roll = "raise") const;
  Expr is_business_day(const std::array<bool, 7>& week_mask = {true, true, true, true, true, false, false},
                       const std::vector<int32_t>& holidays = {}) const;

 private:
  Expr part(const char* name) const { return e_.function(std::string("dt.") + name); }
  Expr total(const char* name, bool fractional) const {
    return e_.function(std::string("dt.") + name, {}, {{"fractional", fractional}});
  }
  Expr e_;
};

// Temporal constructors and ranges (Polars' pl.datetime, pl.duration, pl.date_range, ...).
Expr datetime(const Expr& year, const Expr& month, const Expr& day, const Expr& hour = 0, const Expr& minute = 0,
              const Expr& second = 0, const Expr& microsecond = 0, TimeUnit unit = TimeUnit::Microseconds,
              std::optional<std::string> time_zone = std::nullopt);
Expr date_range(const Expr& start, const Expr& end, const std::string& interval = "1d",
                const std::string& closed = "both");
Expr datetime_range(const Expr& start, const Expr& end, const std::string& interval = "1d",
                    const std::string& closed = "both", std::optional<TimeUnit> unit = std::nullopt,
                    std::optional<std::string> time_zone = std::nullopt);
// A List(Date) literal of holidays (days since the epoch), for the business-day functions.
Expr holiday_list(const std::vector<int32_t>& days);

}  // namespace frazil::dsl
