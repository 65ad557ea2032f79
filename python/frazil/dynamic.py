"""group_by_dynamic (temporal or integer windows, Polars' semantics) and upsample.

Windows follow Polars (polars-time windows/): the index is seen as a Datetime (a Date as
Datetime[us], an integer as Datetime[ns], so "3i" is "3ns"); per group, the first window
starts at truncate(first, every) + offset (start_by="window"), at the first value
("datapoint"), or at the week's given day + offset, and steps back by `every` while it
starts after the first value; windows start every `every` until the last value, each
`period` long, closed as asked; empty windows give no row.

The rows of each window are found without a loop: the window bounds are sorted among the
index values (per group) and the number of values before each bound is counted; the
(window, row) pairs are then gathered and aggregated by an ordinary group_by over the
window number. A row in several windows (period > every) is gathered once per window.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

_W, _R, _KIND, _T, _G0 = "__dyn_window", "__dyn_row", "__dyn_kind", "__dyn_t", "__dyn_first"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _duration_text(value: Any, what: str) -> str:
    if isinstance(value, timedelta):
        us = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
        return f"{us}us"
    if not isinstance(value, str):
        raise TypeError(f"`{what}` must be a duration string or a timedelta, got {type(value).__name__!r}")
    return value.replace(" ", "")


def _is_integer_duration(text: str) -> bool:
    return text.lstrip("-").endswith("i") and text.lstrip("-")[:-1].isdigit()


def _for_datetime(text: str, integer_index: bool, what: str) -> str:
    """The duration as the Datetime view of the index reads it ("3i" -> "3ns")."""
    from frazil.exceptions import InvalidOperationError

    if integer_index:
        if not _is_integer_duration(text):
            raise InvalidOperationError(f"`{what}` duration must be a parsed integer (i.e. use '2i', not "
                                        f"'{text}') when working with a numeric column")
        return text[:-1] + "ns"
    if _is_integer_duration(text):
        raise InvalidOperationError(f"`{what}` duration may not be a parsed integer (i.e. use '2d', not "
                                    f"'{text}') when working with a temporal column")
    return text


def _negate(text: str) -> str:
    return text[1:] if text.startswith("-") else "-" + text


def _nominal_ns(text: str) -> int:
    """A duration string's length in nanoseconds, months as 31 days (only to bound loops)."""
    import re

    units = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9,
             "d": 86_400 * 10**9, "w": 7 * 86_400 * 10**9, "mo": 31 * 86_400 * 10**9, "q": 92 * 86_400 * 10**9,
             "y": 366 * 86_400 * 10**9}
    total = sum(int(n) * units[u] for n, u in re.findall(r"(\d+)(ns|us|ms|mo|s|m|h|d|w|q|y)", text))
    return -total if text.startswith("-") else total


class DynamicGroupBy:
    """LazyFrame.group_by_dynamic(...): aggregate with .agg(...)."""

    def __init__(self, lf: Any, index_column: Any, every: Any, period: Any, offset: Any, include_boundaries: bool,
                 closed: str, label: str, group_by: Any, start_by: str, eager: bool = False) -> None:
        from frazil.exceptions import ComputeError

        if closed not in ("left", "right", "both", "none"):
            raise ValueError(f"`closed` must be one of {{'left', 'right', 'both', 'none'}}, got {closed!r}")
        if label not in ("left", "right", "datapoint"):
            raise ValueError(f"`label` must be one of {{'left', 'right', 'datapoint'}}, got {label!r}")
        if start_by not in ("window", "datapoint", *_WEEKDAYS):
            raise ValueError(f"`start_by` must be one of {{'window', 'datapoint', 'monday', ...}}, got {start_by!r}")
        self._lf, self._eager = lf, eager
        self._index = index_column
        self._every = _duration_text(every, "every")
        if self._every.startswith("-") or _nominal_ns(self._every.replace("i", "ns")) == 0:
            raise ComputeError("'every' argument must be positive")
        self._period = _duration_text(period, "period") if period is not None else self._every
        self._offset = _duration_text(offset, "offset") if offset is not None else None
        self._include_boundaries = include_boundaries
        self._closed, self._label, self._start_by = closed, label, start_by
        if group_by is None:
            self._by: list = []
        elif isinstance(group_by, (list, tuple)):
            self._by = list(group_by)
        else:
            self._by = [group_by]

    def __iter__(self) -> Any:
        """(group keys..., window label) and the window's rows, window by window."""
        from frazil.functions import col

        head, members = _windows(self)
        names = [c for c in head.columns if c not in (_W, "_lower_boundary", "_upper_boundary")]
        for row in head.iter_rows(named=True):
            rows = members.filter(col(_W) == row[_W]).drop(_W)
            yield tuple(row[n] for n in names), rows

    def agg(self, *aggs: Any, **named_aggs: Any) -> Any:
        out = _aggregate(self, list(aggs), named_aggs)
        return out if self._eager else out.lazy()


def _aggregate(spec: DynamicGroupBy, aggs: list, named_aggs: dict) -> Any:
    from frazil.expr import Expr
    from frazil.functions import col

    head, members = _windows(spec)
    exprs = [e if isinstance(e, Expr) else col(e) for e in _flatten(aggs)]
    exprs += [(v if isinstance(v, Expr) else col(v)).alias(k) for k, v in named_aggs.items()]
    aggregated = members.group_by(_W, maintain_order=True).agg(*exprs) if exprs else head.select(_W)
    out = head.join(aggregated, on=_W, how="left").drop(_W)
    if not spec._include_boundaries:
        out = out.drop("_lower_boundary", "_upper_boundary")
    return out


def _windows(spec: DynamicGroupBy) -> tuple:
    """(one row per non-empty window: its number, group keys, bounds and label;
    (window number, row of the frame) for every row of every window)."""
    from frazil.datatypes import Date, Datetime, Int64
    from frazil.exceptions import ComputeError, InvalidOperationError
    from frazil.functions import col, int_ranges, lit, when
    from frazil.functions_temporal import datetime_ranges

    frame = spec._lf.collect()
    index = col(spec._index) if isinstance(spec._index, str) else spec._index
    index_name = frame.lazy().select(index).collect_schema().names()[0]
    by = [col(b) if isinstance(b, str) else b for b in spec._by]
    by_names = frame.lazy().select(*by).collect_schema().names() if by else []
    base = frame.with_columns(index.alias(index_name), *by) if not isinstance(spec._index, str) or by else frame
    dtype = base.schema[index_name]
    integer_index = dtype.is_integer()
    if not (integer_index or dtype == Date or isinstance(dtype, Datetime) or dtype == Datetime):
        raise InvalidOperationError(f"expected any of the following dtypes: {{ Date, Datetime, Int32, Int64, UInt32, "
                                    f"UInt64 }}, got {dtype}")
    every = _for_datetime(spec._every, integer_index, "every")
    period = _for_datetime(spec._period, integer_index, "period")
    offset = _for_datetime(spec._offset, integer_index, "offset") if spec._offset is not None else "0ns"
    if base[index_name].null_count():
        raise ComputeError("null values in dynamic group_by not supported, fill nulls.")
    # The index as a Datetime: Date as Datetime[us], integers as Datetime[ns].
    if integer_index:
        as_time = col(index_name).cast(Int64).cast(Datetime("ns"))
    elif dtype == Date:
        as_time = col(index_name).cast(Datetime("us"))
    else:
        as_time = col(index_name)
    rows = base.with_row_index(_R).with_columns(as_time.alias(_T))
    if not by_names:
        if not rows[_T].is_sorted():
            raise InvalidOperationError("argument in operation 'group_by_dynamic' is not sorted, please sort the "
                                        "'expr/series/column' first")
    else:
        # Rows of a group together (groups in order of first appearance), each in row order.
        rows = (rows.with_columns(col(_R).min().over(by_names).alias(_G0))
                .sort(_G0, maintain_order=True).drop(_G0).drop(_R).with_row_index(_R))
        if rows.select((col(_T).diff().over(by_names) < 0).any()).item():
            raise InvalidOperationError("argument in operation 'group_by_dynamic' is not sorted, please sort the "
                                        "'expr/series/column' first")

    # One row per group: its first and last index value and its first row number.
    groups = (rows.group_by(by_names, maintain_order=True) if by_names else rows.group_by(lit(0).alias("__g"),
                                                                                     maintain_order=True))
    bounds = groups.agg(col(_T).first().alias("__first"), col(_T).last().alias("__last"),
                        col(_R).first().alias("__row0"))
    if not by_names:
        bounds = bounds.drop("__g")
    start = _first_window_start(bounds, spec, every, offset)
    bounds = bounds.with_columns(start.alias("__start"))
    # Step back while the first window starts after the first value (Polars' rule).
    past = (col("__start") > col("__first")) if spec._closed in ("left", "both") else (col("__start") >= col("__first"))
    for _ in range(1_000):
        if not bounds.select(past.any()).item():
            break
        bounds = bounds.with_columns(when(past).then(col("__start").dt.offset_by(_negate(every)))
                                     .otherwise(col("__start")).alias("__start"))
    windows = (bounds.with_columns(datetime_ranges(col("__start"), col("__last"), every, closed="both").alias("__ws"))
               .explode("__ws").filter(col("__ws").is_not_null())
               .with_columns(col("__ws").dt.offset_by(period).alias("__we"))
               .with_row_index(_W))
    # Rows before each bound, per group: bounds sorted among the values (kind 0 before equal
    # values counts those below, kind 2 after them counts those up to and including).
    lo_kind = 0 if spec._closed in ("left", "both") else 2
    hi_kind = 2 if spec._closed in ("right", "both") else 0
    marks = windows.select(*by_names, _W, col("__ws").alias(_T), lit(lo_kind).alias(_KIND), lit("lo").alias("__end"))
    marks_hi = windows.select(*by_names, _W, col("__we").alias(_T), lit(hi_kind).alias(_KIND),
                              lit("hi").alias("__end"))
    values = rows.select(*by_names, lit(None, dtype=windows.schema[_W]).alias(_W), _T, lit(1).alias(_KIND),
                         lit(None, dtype=marks.schema["__end"]).alias("__end"))
    from frazil.functions import concat

    merged = concat([values, marks, marks_hi]).sort([*by_names, _T, _KIND], maintain_order=True, nulls_last=True)
    seen = (col(_KIND) == 1).cast(Int64).cum_sum()
    if by_names:
        seen = seen.over(by_names)
    counts = merged.with_columns(seen.alias("__seen")).filter(col(_W).is_not_null())
    lo = counts.filter(col("__end") == "lo").select(_W, col("__seen").alias("__lo"))
    hi = counts.filter(col("__end") == "hi").select(_W, col("__seen").alias("__hi"))
    windows = (windows.join(lo, on=_W, how="left").join(hi, on=_W, how="left")
               .with_columns((col("__row0") + col("__lo")).alias("__lo"), (col("__row0") + col("__hi")).alias("__hi"))
               .filter(col("__hi") > col("__lo"))
               .drop(_W).with_row_index(_W))
    pairs = (windows.select(_W, int_ranges(col("__lo"), col("__hi"), dtype=rows.schema[_R]).alias(_R))
             .explode(_R))
    members = pairs.join(rows.drop(_T), on=_R, how="left").drop(_R)
    first_rows = windows.select(_W, "__lo").join(rows.select(_R, index_name), left_on="__lo", right_on=_R,
                                                 how="left")

    def back(e: Any) -> Any:
        # A window bound in the index's own dtype.
        if integer_index:
            return e.cast(Int64).cast(dtype)
        if dtype == Date:
            return e.cast(Date)
        return e

    label = {"left": back(col("__ws")), "right": back(col("__we"))}.get(spec._label)
    # Polars gives a Date index's window bounds as Datetime[us] (the label as a Date).
    bound = (lambda e: e) if dtype == Date else back
    head = windows.select(_W, *by_names, bound(col("__ws")).alias("_lower_boundary"),
                          bound(col("__we")).alias("_upper_boundary"),
                          *([label.alias(index_name)] if label is not None else []))
    if label is None:
        head = head.join(first_rows.select(_W, index_name), on=_W, how="left")
    return head, members


def _flatten(items: list) -> list:
    out = []
    for x in items:
        if isinstance(x, (list, tuple)):
            out.extend(_flatten(list(x)))
        else:
            out.append(x)
    return out


def _first_window_start(bounds: Any, spec: DynamicGroupBy, every: str, offset: str) -> Any:
    from frazil.functions import col

    first = col("__first")
    if spec._start_by == "datapoint":
        return first
    if spec._start_by == "window":
        return first.dt.truncate(every).dt.offset_by(offset)
    # The week's given day: Monday 00:00 of the first value's week, plus days, plus offset.
    day = _WEEKDAYS.index(spec._start_by)
    return first.dt.truncate("1w").dt.offset_by(f"{day}d").dt.offset_by(offset)


def upsample(self: Any, time_column: str, *, every: Any, group_by: Any = None, maintain_order: bool = False) -> Any:
    """Rows at every `every` between the first and last time (per group of `group_by`), the
    frame's rows where they exist and nulls elsewhere (group columns filled in). The time
    column must be sorted (within each group)."""
    from frazil.datatypes import Date
    from frazil.exceptions import InvalidOperationError
    from frazil.functions import col
    from frazil.functions_temporal import date_ranges, datetime_ranges

    every = _duration_text(every, "every")
    by = [] if group_by is None else ([group_by] if isinstance(group_by, str) else list(group_by))
    dtype = self.schema[time_column]
    if not by and not self[time_column].drop_nulls().is_sorted():
        raise InvalidOperationError("argument in operation 'upsample' is not sorted, please sort the "
                                    "'expr/series/column' first")
    ranges = date_ranges if dtype == Date else datetime_ranges
    if by:
        spans = self.group_by(by, maintain_order=True).agg(col(time_column).min().alias("__a"),
                                                           col(time_column).max().alias("__b"))
    else:
        spans = self.select(col(time_column).min().alias("__a"), col(time_column).max().alias("__b"))
    if dtype.is_integer():
        from frazil.functions import int_ranges

        step = int(_for_datetime(every, True, "every")[:-2])
        grid_values = int_ranges(col("__a"), col("__b") + 1, step, dtype=dtype)
    else:
        grid_values = ranges(col("__a"), col("__b"), every, closed="both")
    grid = (spans.with_columns(grid_values.alias(time_column))
            .drop("__a", "__b").explode(time_column).with_columns(col(time_column).cast(dtype)))
    out = grid.join(self, on=[*by, time_column], how="left", coalesce=True)
    return out.select(self.columns)


def group_by_dynamic(self: Any, index_column: Any, *, every: Any, period: Any = None, offset: Any = None,
                     include_boundaries: bool = False, closed: str = "left", label: str = "left",
                     group_by: Any = None, start_by: str = "window") -> DynamicGroupBy:
    """Groups by time windows of the sorted index column: one window every `every`, each
    `period` long (default: every), shifted by `offset`; a row can be in several windows.
    Aggregate with .agg(...)."""
    from frazil.dataframe import DataFrame

    eager = isinstance(self, DataFrame)
    return DynamicGroupBy(self.lazy() if eager else self, index_column, every, period, offset, include_boundaries,
                          closed, label, group_by, start_by, eager=eager)
