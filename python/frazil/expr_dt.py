"""Polars' `Expr.dt` namespace: fields, time zones, truncation, offsets and formatting of
Date, Datetime, Duration and Time expressions."""
from __future__ import annotations

from typing import Any

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
