"""Argument conversions shared by the temporal namespaces and functions (Polars' rules)."""
from __future__ import annotations

import datetime as _dt
from typing import Any

_SECONDS_PER_DAY = 86_400


def duration_string(td: Any) -> Any:
    """A timedelta as a Polars duration string ("1d3600s5us"), as Polars converts it;
    other values unchanged."""
    if not isinstance(td, _dt.timedelta):
        return td
    if td.days >= 0:
        d = f"{td.days}d" if td.days != 0 else ""
        s = f"{td.seconds}s" if td.seconds != 0 else ""
        us = f"{td.microseconds}us" if td.microseconds != 0 else ""
    elif td.seconds == 0 and td.microseconds == 0:
        return f"{td.days}d"
    else:
        corrected_d = td.days + 1
        corrected_seconds = _SECONDS_PER_DAY - (td.seconds + (td.microseconds > 0))
        d = f"{corrected_d}d" if corrected_d != 0 else "-"
        s = f"{corrected_seconds}s" if corrected_seconds != 0 else ""
        us = f"{10**6 - td.microseconds}us" if td.microseconds != 0 else ""
    return f"{d}{s}{us}"


def interval_string(interval: Any) -> str:
    """A range interval: a timedelta or a duration string (spaces removed, lower case)."""
    if isinstance(interval, _dt.timedelta):
        return duration_string(interval)
    if " " in interval:
        interval = interval.replace(" ", "")
    return interval.lower()


def week_mask_ints(week_mask: Any) -> list:
    mask = [int(bool(b)) for b in week_mask]
    if len(mask) != 7:
        raise ValueError(f"expected a sequence of length 7 (got {len(mask)})")
    return mask


def holidays_expr(holidays: Any) -> Any:
    """Holidays as an expression of List(Date): one list for every row, or an expression."""
    from frazil.datatypes import Date, List
    from frazil.expr import Expr
    from frazil.functions import lit

    if isinstance(holidays, Expr):
        return holidays
    try:
        from frazil.series import Series
    except ImportError:  # pragma: no cover
        Series = ()  # type: ignore
    if Series and isinstance(holidays, Series):
        # A Series of dates is one list for every row (Polars implodes it); of lists, a list per row.
        if holidays.dtype == Date:
            return lit(holidays.to_list(), dtype=List(Date))
        return lit(holidays)
    values = list(holidays)
    for v in values:
        if isinstance(v, _dt.datetime) or not isinstance(v, _dt.date):
            raise TypeError(f"holidays must be dates, got {type(v).__name__}")
    return lit(values, dtype=List(Date))
