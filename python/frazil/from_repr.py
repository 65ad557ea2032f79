"""pl.from_repr: a DataFrame or Series back from the text Polars (and frazil) print for it.
Numbers, strings, booleans, dates, datetimes, times, durations and nulls are read; a
truncated table (with "…") or a dtype without a text form here is a clear error."""
from __future__ import annotations

import re
from typing import Any

_SIMPLE = {"i8": "Int8", "i16": "Int16", "i32": "Int32", "i64": "Int64", "u8": "UInt8", "u16": "UInt16",
           "u32": "UInt32", "u64": "UInt64", "f32": "Float32", "f64": "Float64", "str": "String",
           "bool": "Boolean", "date": "Date", "time": "Time", "null": "Null"}
_UNITS = {"ms": "ms", "μs": "us", "us": "us", "ns": "ns"}


def _dtype(text: str) -> Any:
    import frazil as pl

    t = text.strip()
    if t in _SIMPLE:
        return getattr(pl, _SIMPLE[t])
    m = re.fullmatch(r"datetime\[(ms|μs|us|ns)(?:, (.+))?\]", t)
    if m:
        return pl.Datetime(_UNITS[m.group(1)], m.group(2))
    m = re.fullmatch(r"duration\[(ms|μs|us|ns)\]", t)
    if m:
        return pl.Duration(_UNITS[m.group(1)])
    raise ValueError(f"from_repr cannot read values of dtype `{t}`")


def _column(name: str, dtype: Any, cells: list[str], quoted: bool) -> Any:
    import frazil as pl

    values: list[Any] = []
    for c in cells:
        c = c.strip()
        if c == "null":
            values.append(None)
        elif quoted and len(c) >= 2 and c[0] == c[-1] == '"':
            values.append(c[1:-1])
        else:
            values.append(c)
    s = pl.Series(name, values, dtype=pl.String)
    if dtype == pl.String:
        return s
    if dtype == pl.Boolean:
        bad = [v for v in values if v not in (None, "true", "false")]
        if bad:
            raise ValueError(f"from_repr: {bad[0]!r} in column {name!r} is not a boolean")
        return pl.Series(name, [None if v is None else v == "true" for v in values], dtype=pl.Boolean)
    if dtype == pl.Null:
        return pl.Series(name, [None] * len(values), dtype=pl.Null)
    if dtype in (pl.Float32, pl.Float64):
        return pl.Series(name, [None if v is None else float(v) for v in values], dtype=dtype)
    if isinstance(dtype, pl.Duration) or dtype == pl.Duration:
        raise ValueError(f"from_repr cannot read duration values (column {name!r})")
    if dtype == pl.Date:
        return s.str.to_date("%Y-%m-%d")
    if dtype == pl.Time:
        return s.str.to_time()
    if isinstance(dtype, pl.Datetime):
        return s.str.to_datetime(time_unit=dtype.time_unit, time_zone=dtype.time_zone)
    return s.cast(dtype)


def from_repr(data: str) -> Any:
    """The DataFrame or Series that `data` (its printed form) shows."""
    from frazil.dataframe import DataFrame

    text = data.strip("\n")
    if "…" in text:
        raise ValueError("from_repr cannot read a truncated repr (it shows '…')")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    series = next((ln for ln in lines if ln.startswith("Series:")), None)
    if series is not None:
        m = re.fullmatch(r"Series: '(.*)' \[(.+)\]", series)
        if not m:
            raise ValueError(f"from_repr cannot read the Series header {series!r}")
        start = lines.index(series)
        body = lines[start + 1:]
        if not body or body[0] != "[" or body[-1] != "]":
            raise ValueError("from_repr: the Series values are not within [ ]")
        return _column(m.group(1), _dtype(m.group(2)), body[1:-1], quoted=True)
    rows = [ln for ln in lines if ln.startswith("│")]
    if len(rows) < 3:
        raise ValueError("from_repr cannot find a table in the text")

    def cells(line: str) -> list[str]:
        return [c.strip() for c in re.split(r"[┆│]", line.strip("│"))]

    names, dashes, dtypes = cells(rows[0]), cells(rows[1]), cells(rows[2])
    if any(d != "---" for d in dashes):
        raise ValueError("from_repr: the table has no dtype row")
    body = [cells(r) for r in rows[3:]]
    columns = [_column(n, _dtype(t), [r[i] for r in body], quoted=False) for i, (n, t) in enumerate(zip(names, dtypes))]
    return DataFrame(columns)
