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
        return self._fn("year")

    def iso_year(self) -> Expr:
        return self._fn("iso_year")

    def quarter(self) -> Expr:
        return self._fn("quarter")

    def month(self) -> Expr:
        return self._fn("month")

    def week(self) -> Expr:
        return self._fn("week")

    def weekday(self) -> Expr:
        return self._fn("weekday")

    def day(self) -> Expr:
        return self._fn("day")

    def ordinal_day(self) -> Expr:
        return self._fn("ordinal_day")

    def hour(self) -> Expr:
        return self._fn("hour")

    def minute(self) -> Expr:
        return self._fn("minute")

    def second(self, *, fractional: bool = False) -> Expr:
        out = self._fn("second")
        if fractional:
            from frazil.datatypes import Float64

            out = out.cast(Float64) + self._fn("nanosecond").cast(Float64) / 1e9
        return out

    def millisecond(self) -> Expr:
        return self._fn("millisecond")

    def microsecond(self) -> Expr:
        return self._fn("microsecond")

    def nanosecond(self) -> Expr:
        return self._fn("nanosecond")

    def century(self) -> Expr:
        return self._fn("century")

    def millennium(self) -> Expr:
        return self._fn("millennium")

    def is_leap_year(self) -> Expr:
        return self._fn("is_leap_year")

    def days_in_month(self) -> Expr:
        return self._fn("days_in_month")

    # ---- time zones ----
    def replace_time_zone(self, time_zone: str | None, *, ambiguous: Any = "raise",
                          non_existent: str = "raise") -> Expr:
        return self._fn("replace_time_zone", ambiguous, time_zone=time_zone, non_existent=non_existent)

    def convert_time_zone(self, time_zone: str) -> Expr:
        return self._fn("convert_time_zone", time_zone=time_zone)

    def base_utc_offset(self) -> Expr:
        return self._fn("base_utc_offset")

    def dst_offset(self) -> Expr:
        return self._fn("dst_offset")

    # ---- calendar arithmetic ----
    def offset_by(self, by: Any) -> Expr:
        return self._fn("offset_by", duration_string(by))

    def truncate(self, every: Any) -> Expr:
        return self._fn("truncate", duration_string(every))

    def round(self, every: Any) -> Expr:
        return self._fn("round", duration_string(every))

    def month_start(self) -> Expr:
        return self._fn("month_start")

    def month_end(self) -> Expr:
        return self._fn("month_end")

    # ---- conversions ----
    def date(self) -> Expr:
        return self._fn("date")

    def time(self) -> Expr:
        return self._fn("time")

    def timestamp(self, time_unit: str = "us") -> Expr:
        return self._fn("timestamp", time_unit=time_unit)

    def epoch(self, time_unit: str = "us") -> Expr:
        # Polars' definitions: seconds are milliseconds floor-divided, days the Date.
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
        return self._fn("cast_time_unit", time_unit=time_unit)

    def total_days(self, *, fractional: bool = False) -> Expr:
        return self._fn("total_days", fractional=fractional)

    def total_hours(self, *, fractional: bool = False) -> Expr:
        return self._fn("total_hours", fractional=fractional)

    def total_minutes(self, *, fractional: bool = False) -> Expr:
        return self._fn("total_minutes", fractional=fractional)

    def total_seconds(self, *, fractional: bool = False) -> Expr:
        return self._fn("total_seconds", fractional=fractional)

    def total_milliseconds(self, *, fractional: bool = False) -> Expr:
        return self._fn("total_milliseconds", fractional=fractional)

    def total_microseconds(self, *, fractional: bool = False) -> Expr:
        return self._fn("total_microseconds", fractional=fractional)

    def total_nanoseconds(self, *, fractional: bool = False) -> Expr:
        return self._fn("total_nanoseconds", fractional=fractional)

    def to_string(self, format: str | None = None) -> Expr:  # noqa: A002 - Polars' name
        return self._fn("to_string", format="iso" if format is None else format)

    def strftime(self, format: str) -> Expr:  # noqa: A002
        return self.to_string(format)

    def combine(self, time: Any, time_unit: str = "us") -> Expr:
        if not isinstance(time, (_dt.time, Expr)):
            raise TypeError(f"expected 'time' to be a Python time or Polars expression, found {type(time).__name__!r}")
        return self._fn("combine", time, time_unit=time_unit)

    def replace(self, *, year: Any = None, month: Any = None, day: Any = None, hour: Any = None,
                minute: Any = None, second: Any = None, microsecond: Any = None, ambiguous: Any = "raise") -> Expr:
        parts = [year, month, day, hour, minute, second, microsecond]
        natives = [parse_into_expression(p, str_as_lit=False) for p in parts]
        natives.append(parse_into_expression(ambiguous))
        from frazil.expr import wrap

        return wrap(self._expr._pyexpr.function("dt.replace", natives))

    # ---- business days ----
    def add_business_days(self, n: Any, *, week_mask: Any = (True, True, True, True, True, False, False),
                          holidays: Any = (), roll: str = "raise") -> Expr:
        from frazil.expr import wrap

        natives = [parse_into_expression(n), parse_into_expression(holidays_expr(holidays))]
        return wrap(self._expr._pyexpr.function("dt.add_business_days", natives,
                                                week_mask=week_mask_ints(week_mask), roll=roll))

    def is_business_day(self, *, week_mask: Any = (True, True, True, True, True, False, False),
                        holidays: Any = ()) -> Expr:
        return self._fn("is_business_day", holidays_expr(holidays), week_mask=week_mask_ints(week_mask))
