"""Temporal constructors and ranges with Polars' names: datetime, date, time, duration,
date_range(s), datetime_range(s), time_range(s), from_epoch, business_day_count."""
from __future__ import annotations

import datetime as _dt
from typing import Any

from frazil._temporal_args import holidays_expr, interval_string, week_mask_ints
from frazil.expr import Expr, parse_into_expression, wrap


def _call(name: str, inputs: list, **params: Any) -> Expr:
    """A function of the registry whose root is the first of `inputs`."""
    return wrap(inputs[0].function(name, inputs[1:], **params))


def _eager(expr: Expr) -> Any:
    from frazil.dataframe import DataFrame

    return DataFrame().select(expr).to_series()


def datetime(year: Any, month: Any, day: Any, hour: Any = None, minute: Any = None, second: Any = None,
             microsecond: Any = None, *, time_unit: str = "us", time_zone: str | None = None,
             ambiguous: Any = "raise") -> Expr:
    """A Datetime from its parts (columns or values), as Polars' pl.datetime."""
    parts = [year, month, day, hour, minute, second, microsecond]
    defaults = [None, None, None, 0, 0, 0, 0]
    inputs = [parse_into_expression(d if p is None else p, str_as_lit=False) for p, d in zip(parts, defaults)]
    inputs.append(parse_into_expression(ambiguous))
    return _call("datetime", inputs, time_unit=time_unit, time_zone=time_zone).alias("datetime")


def date(year: Any, month: Any, day: Any) -> Expr:
    from frazil.datatypes import Date

    return datetime(year, month, day).cast(Date).alias("date")


def time(hour: Any = None, minute: Any = None, second: Any = None, microsecond: Any = None) -> Expr:
    from frazil.datatypes import Time

    return datetime(1970, 1, 1, hour, minute, second, microsecond).cast(Time).alias("time")


def duration(*, weeks: Any = None, days: Any = None, hours: Any = None, minutes: Any = None, seconds: Any = None,
             milliseconds: Any = None, microseconds: Any = None, nanoseconds: Any = None,
             time_unit: str | None = None) -> Expr:
    """A Duration from its parts (columns or numbers), as Polars' pl.duration: nanoseconds
    given make the unit "ns" unless one is set."""
    if nanoseconds is not None and time_unit is None:
        time_unit = "ns"
    parts = [weeks, days, hours, minutes, seconds, milliseconds, microseconds, nanoseconds]
    inputs = [parse_into_expression(0 if p is None else p, str_as_lit=False) for p in parts]
    out = _call("duration", inputs, time_unit=time_unit or "us")
    # Polars names a duration of literals "duration" (it folds it to one literal).
    if all(p is None or isinstance(p, (int, float)) for p in parts):
        out = out.alias("duration")
    return out


def _range(name: str, start: Any, end: Any, eager: bool, **params: Any) -> Any:
    inputs = [parse_into_expression(start, str_as_lit=False), parse_into_expression(end, str_as_lit=False)]
    out = _call(name, inputs, **params)
    return _eager(out) if eager else out


def date_range(start: Any, end: Any, interval: Any = "1d", *, closed: str = "both", eager: bool = False) -> Any:
    """A column of the dates from `start` to `end` every `interval` (eager=True: a Series)."""
    return _range("date_range", start, end, eager, interval=interval_string(interval), closed=closed)


def date_ranges(start: Any, end: Any, interval: Any = "1d", *, closed: str = "both", eager: bool = False) -> Any:
    """A List(Date) per row: the dates from `start` to `end` every `interval`."""
    return _range("date_ranges", start, end, eager, interval=interval_string(interval), closed=closed)


def _datetime_range_params(interval: Any, closed: str, time_unit: str | None, time_zone: str | None) -> dict:
    interval = interval_string(interval)
    if time_unit is None and "ns" in interval:
        time_unit = "ns"
    return {"interval": interval, "closed": closed, "time_unit": time_unit, "time_zone": time_zone}


def datetime_range(start: Any, end: Any, interval: Any = "1d", *, closed: str = "both", time_unit: str | None = None,
                   time_zone: str | None = None, eager: bool = False) -> Any:
    """A column of the datetimes from `start` to `end` every `interval` (a duration string or timedelta)."""
    return _range("datetime_range", start, end, eager, **_datetime_range_params(interval, closed, time_unit, time_zone))


def datetime_ranges(start: Any, end: Any, interval: Any = "1d", *, closed: str = "both",
                    time_unit: str | None = None, time_zone: str | None = None, eager: bool = False) -> Any:
    """A List(Datetime) per row: the datetimes from `start` to `end` every `interval`."""
    return _range("datetime_ranges", start, end, eager,
                  **_datetime_range_params(interval, closed, time_unit, time_zone))


def _time_bounds(start: Any, end: Any, interval: Any) -> tuple:
    interval = interval_string(interval)
    for unit in ("y", "mo", "w", "d"):
        if unit in interval:
            raise ValueError(f"invalid interval unit for time_range: found {unit!r}")
    return (_dt.time(0, 0, 0) if start is None else start, _dt.time(23, 59, 59, 999999) if end is None else end,
            interval)


def time_range(start: Any = None, end: Any = None, interval: Any = "1h", *, closed: str = "both",
               eager: bool = False) -> Any:
    """A column of the times of day from `start` to `end` every `interval`."""
    start, end, interval = _time_bounds(start, end, interval)
    return _range("time_range", start, end, eager, interval=interval, closed=closed)


def time_ranges(start: Any = None, end: Any = None, interval: Any = "1h", *, closed: str = "both",
                eager: bool = False) -> Any:
    """A List(Time) per row: the times of day from `start` to `end` every `interval`."""
    start, end, interval = _time_bounds(start, end, interval)
    return _range("time_ranges", start, end, eager, interval=interval, closed=closed)


def from_epoch(column: Any, time_unit: str = "s") -> Any:
    """Integers (or floats) since the epoch as a Date ("d") or Datetime, as Polars."""
    from frazil.datatypes import Date, Datetime, Int64
    from frazil.functions import col, lit
    from frazil.series import Series

    if isinstance(column, str):
        column = col(column)
    elif not isinstance(column, (Series, Expr)):
        column = Series(column)
    if isinstance(column, Series):
        return _eager(from_epoch(lit(column).alias(column.name), time_unit))
    if time_unit == "d":
        return column.cast(Date)
    scale = {"s": 1_000_000, "ms": 1_000}
    if time_unit in scale:
        return (column * lit(scale[time_unit], dtype=Int64)).cast(Datetime("us"))
    if time_unit in ("ns", "us"):
        return column.cast(Datetime(time_unit))
    raise ValueError(f"`time_unit` must be one of 'ns', 'us', 'ms', 's', 'd', got {time_unit!r}")


def business_day_count(start: Any, end: Any, *, week_mask: Any = (True, True, True, True, True, False, False),
                       holidays: Any = ()) -> Expr:
    """The number of business days from `start` (included) to `end` (excluded)."""
    inputs = [parse_into_expression(start, str_as_lit=False), parse_into_expression(end, str_as_lit=False),
              parse_into_expression(holidays_expr(holidays))]
    return _call("business_day_count", inputs, week_mask=week_mask_ints(week_mask))


__all__ = ["business_day_count", "date", "date_range", "date_ranges", "datetime", "datetime_range",
           "datetime_ranges", "duration", "from_epoch", "time", "time_range", "time_ranges"]

