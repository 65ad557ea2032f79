"""Polars' `Expr.dt` namespace: fields, time zones, truncation, offsets and formatting of
Date, Datetime, Duration and Time expressions."""
from __future__ import annotations

import datetime as _dt
from typing import Any

from frazil._temporal_args import duration_string, holidays_expr, week_mask_ints
from frazil.expr import Expr, parse_into_expression


class ExprDateTimeNameSpace:
    """Polars' `Expr.dt` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def _fn(self, name: str, *extra: Any, **options: Any) -> Expr:
        return self._expr._fn("dt." + name, *extra, **options)

    # ---- fields ----
    def year(self) -> Expr:
        """The year, as Int32."""
        return self._fn("year")

    def iso_year(self) -> Expr:
        """The ISO 8601 week-numbering year, as Int32."""
        return self._fn("iso_year")

    def quarter(self) -> Expr:
        """The quarter of the year (1 to 4), as Int8."""
        return self._fn("quarter")

    def month(self) -> Expr:
        """The month (1 to 12), as Int8."""
        return self._fn("month")

    def week(self) -> Expr:
        """The ISO 8601 week number (1 to 53), as Int8."""
        return self._fn("week")

    def weekday(self) -> Expr:
        """The ISO weekday (Monday 1 to Sunday 7), as Int8."""
        return self._fn("weekday")

    def day(self) -> Expr:
        """The day of the month (1 to 31), as Int8."""
        return self._fn("day")

    def ordinal_day(self) -> Expr:
        """The day of the year (1 to 366), as Int16."""
        return self._fn("ordinal_day")

    def hour(self) -> Expr:
        """The hour (0 to 23), in the value's own time zone, as Int8."""
        return self._fn("hour")

    def minute(self) -> Expr:
        """The minute (0 to 59), as Int8."""
        return self._fn("minute")

    def second(self, *, fractional: bool = False) -> Expr:
        """The second (0 to 59), as Int8; fractional=True adds the fraction as a Float64."""
        out = self._fn("second")
        if fractional:
            from frazil.datatypes import Float64

            out = out.cast(Float64) + self._fn("nanosecond").cast(Float64) / 1e9
        return out

    def millisecond(self) -> Expr:
        """The milliseconds of the second, as Int32."""
        return self._fn("millisecond")

    def microsecond(self) -> Expr:
        """The microseconds of the second, as Int32."""
        return self._fn("microsecond")

    def nanosecond(self) -> Expr:
        """The nanoseconds of the second, as Int32."""
        return self._fn("nanosecond")

    def century(self) -> Expr:
        """The century (2001 to 2100 is the 21st), as Int32."""
        return self._fn("century")

    def millennium(self) -> Expr:
        """The millennium, as Int32."""
        return self._fn("millennium")

    def is_leap_year(self) -> Expr:
        """Whether the year is a leap year."""
        return self._fn("is_leap_year")

    def days_in_month(self) -> Expr:
        """The number of days of the month, as Int8."""
        return self._fn("days_in_month")

    # ---- time zones ----
    def replace_time_zone(self, time_zone: str | None, *, ambiguous: Any = "raise",
                          non_existent: str = "raise") -> Expr:
        """The same local times in `time_zone` (None: naive); `ambiguous` ('raise', 'earliest', 'latest',
        'null') and `non_existent` ('raise', 'null') settle DST transitions."""
        return self._fn("replace_time_zone", ambiguous, time_zone=time_zone, non_existent=non_existent)

    def convert_time_zone(self, time_zone: str) -> Expr:
        """The same instants shown in `time_zone` (a naive value is taken as UTC)."""
        return self._fn("convert_time_zone", time_zone=time_zone)

    def base_utc_offset(self) -> Expr:
        """The zone's standard offset from UTC at each instant, as a Duration(ms)."""
        return self._fn("base_utc_offset")

    def dst_offset(self) -> Expr:
        """The daylight-saving offset in force at each instant, as a Duration(ms)."""
        return self._fn("dst_offset")

    # ---- calendar arithmetic ----
    def offset_by(self, by: Any) -> Expr:
        """Each value moved by `by`, a duration string such as '1mo2d' or '-3h' (or an expression of them);
        calendar units follow the calendar and the time zone."""
        return self._fn("offset_by", duration_string(by))

    def truncate(self, every: Any) -> Expr:
        """Each value rounded down to a multiple of `every` (a duration string such as '1w' or '15m')."""
        return self._fn("truncate", duration_string(every))

    def round(self, every: Any) -> Expr:
        """Each value rounded to the nearest multiple of `every` (halves go up)."""
        return self._fn("round", duration_string(every))

    def month_start(self) -> Expr:
        """The first day of each value's month (the time of day kept)."""
        return self._fn("month_start")

    def month_end(self) -> Expr:
        """The last day of each value's month (the time of day kept)."""
        return self._fn("month_end")

    # ---- conversions ----
    def date(self) -> Expr:
        """The calendar date, as Date."""
        return self._fn("date")

    def time(self) -> Expr:
        """The time of day, as Time."""
        return self._fn("time")

    def timestamp(self, time_unit: str = "us") -> Expr:
        """The instant as an integer count of `time_unit` ('ns', 'us', 'ms') since the Unix epoch."""
        return self._fn("timestamp", time_unit=time_unit)

    def epoch(self, time_unit: str = "us") -> Expr:
        # Polars' definitions: seconds are milliseconds floor-divided, days the Date.
        """The instant since the Unix epoch in `time_unit`: 'ns', 'us', 'ms', 's' or 'd'."""
        from frazil.datatypes import Date, Int32, Int64
        from frazil.functions import lit

        if time_unit in ("ns", "us", "ms"):
            return self.timestamp(time_unit)
        if time_unit == "s":
            return self.timestamp("ms") // lit(1000, dtype=Int64)
        if time_unit == "d":
            return self._expr.cast(Date).cast(Int32)
        raise ValueError(f"`time_unit` must be one of {{'ns', 'us', 'ms', 's', 'd'}}, got {time_unit!r}")

    def cast_time_unit(self, time_unit: str) -> Expr:
        """The same values in another `time_unit` ('ns', 'us', 'ms')."""
        return self._fn("cast_time_unit", time_unit=time_unit)

    def total_days(self, *, fractional: bool = False) -> Expr:
        """A Duration as a number of whole days (fractional=True: a Float64)."""
        return self._fn("total_days", fractional=fractional)

    def total_hours(self, *, fractional: bool = False) -> Expr:
        """A Duration as a number of whole hours (fractional=True: a Float64)."""
        return self._fn("total_hours", fractional=fractional)

    def total_minutes(self, *, fractional: bool = False) -> Expr:
        """A Duration as a number of whole minutes (fractional=True: a Float64)."""
        return self._fn("total_minutes", fractional=fractional)

    def total_seconds(self, *, fractional: bool = False) -> Expr:
        """A Duration as a number of whole seconds (fractional=True: a Float64)."""
        return self._fn("total_seconds", fractional=fractional)

    def total_milliseconds(self, *, fractional: bool = False) -> Expr:
        """A Duration as a number of whole milliseconds (fractional=True: a Float64)."""
        return self._fn("total_milliseconds", fractional=fractional)

    def total_microseconds(self, *, fractional: bool = False) -> Expr:
        """A Duration as a number of whole microseconds (fractional=True: a Float64)."""
        return self._fn("total_microseconds", fractional=fractional)

    def total_nanoseconds(self, *, fractional: bool = False) -> Expr:
        """A Duration as a number of nanoseconds (fractional=True: a Float64)."""
        return self._fn("total_nanoseconds", fractional=fractional)

    def to_string(self, format: str | None = None) -> Expr:  # noqa: A002 - Polars' name
        """Each value as text in the chrono `format` ('iso' or None: ISO 8601; durations also 'polars')."""
        return self._fn("to_string", format="iso" if format is None else format)

    def strftime(self, format: str) -> Expr:  # noqa: A002
        """Each value as text in the chrono `format` (the same as to_string)."""
        return self.to_string(format)

    def combine(self, time: Any, time_unit: str = "us") -> Expr:
        """A Datetime of each date with `time` (a time or an expression of Time)."""
        if not isinstance(time, (_dt.time, Expr)):
            raise TypeError(f"expected 'time' to be a Python time or Polars expression, found {type(time).__name__!r}")
        return self._fn("combine", time, time_unit=time_unit)

    def replace(self, *, year: Any = None, month: Any = None, day: Any = None, hour: Any = None,
                minute: Any = None, second: Any = None, microsecond: Any = None, ambiguous: Any = "raise") -> Expr:
        """Each value with the given parts (values or expressions) replaced; the others kept."""
        parts = [year, month, day, hour, minute, second, microsecond]
        natives = [parse_into_expression(p, str_as_lit=False) for p in parts]
        natives.append(parse_into_expression(ambiguous))
        from frazil.expr import wrap

        return wrap(self._expr._pyexpr.function("dt.replace", natives))

    # ---- business days ----
    def add_business_days(self, n: Any, *, week_mask: Any = (True, True, True, True, True, False, False),
                          holidays: Any = (), roll: str = "raise") -> Expr:
        """Each date moved by `n` business days (days of `week_mask` that are not in `holidays`); `roll`
        ('raise', 'forward', 'backward') settles a start on a non-business day."""
        from frazil.expr import wrap

        if roll not in ("raise", "forward", "backward"):
            raise ValueError(f"`roll` must be one of {{'raise', 'forward', 'backward'}}, got {roll}")
        natives = [parse_into_expression(n, str_as_lit=False), parse_into_expression(holidays_expr(holidays))]
        return wrap(self._expr._pyexpr.function("dt.add_business_days", natives,
                                                week_mask=week_mask_ints(week_mask), roll=roll))

    def is_business_day(self, *, week_mask: Any = (True, True, True, True, True, False, False),
                        holidays: Any = ()) -> Expr:
        """Whether each date is a business day (in `week_mask` and not in `holidays`)."""
        return self._fn("is_business_day", holidays_expr(holidays), week_mask=week_mask_ints(week_mask))
