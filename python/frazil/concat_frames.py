"""pl.concat's other strategies, built on the vertical concat (Polars' `how`):

- "vertical_relaxed": columns cast to their common supertype first;
- "diagonal" / "diagonal_relaxed": the union of the columns (in order of first appearance),
  missing ones filled with nulls (at the supertype with _relaxed);
- "horizontal": the frames' columns side by side, all of one height ("horizontal_extend"
  pads shorter frames with nulls);
- "align" (and align_full/left/inner/right): frames joined on their common columns, then
  stacked diagonally, as Polars' align;
- Series: vertical only (their values appended).
"""
from __future__ import annotations

from typing import Any

HOW = ("vertical", "vertical_relaxed", "diagonal", "diagonal_relaxed", "horizontal", "horizontal_extend", "align",
       "align_full", "align_inner", "align_left", "align_right")


def _supertype(dtypes: list) -> Any:
    """The dtype frazil's coalesce resolves for values of all `dtypes`."""
    from frazil.functions import coalesce, lit, select

    if all(t == dtypes[0] for t in dtypes):
        return dtypes[0]
    return select(coalesce(*[lit(None).cast(t) for t in dtypes]).alias("t"), eager=False).collect_schema()["t"]


def _schemas(items: list) -> list:
    return [dict(f.collect_schema().items()) if hasattr(f, "collect_schema") else dict(f.schema.items())
            for f in items]


def _lazy(items: list) -> list:
    return [f if not hasattr(f, "lazy") else f.lazy() for f in items]


def _vertical_relaxed(items: list) -> list:
    from frazil.functions import col

    schemas = _schemas(items)
    names = list(schemas[0])
    target = {n: _supertype([s[n] for s in schemas if n in s]) for n in names}
    return [f.with_columns(*[col(n).cast(target[n]) for n, t in s.items() if n in target and t != target[n]])
            if any(n in target and t != target[n] for n, t in s.items()) else f
            for f, s in zip(_lazy(items), schemas)]


def _diagonal(items: list, relaxed: bool) -> list:
    from frazil.functions import col, lit

    schemas = _schemas(items)
    names: list[str] = []
    for s in schemas:
        names += [n for n in s if n not in names]
    target = {}
    for n in names:
        present = [s[n] for s in schemas if n in s]
        target[n] = _supertype(present) if relaxed else present[0]
    out = []
    for f, s in zip(_lazy(items), schemas):
        exprs = []
        for n in names:
            if n not in s:
                exprs.append(lit(None).cast(target[n]).alias(n))
            elif relaxed and s[n] != target[n]:
                exprs.append(col(n).cast(target[n]))
            else:
                exprs.append(col(n))
        out.append(f.select(*exprs))
    return out


def _horizontal(items: list, extend: bool) -> Any:
    from frazil.dataframe import DataFrame
    from frazil.exceptions import DuplicateError

    frames = [f.collect() if not isinstance(f, DataFrame) else f for f in items]
    height = max(f.height for f in frames)
    if not extend and any(f.height != height for f in frames):
        from frazil.exceptions import ShapeError

        raise ShapeError("cannot concat dataframes with different heights in 'strict' mode")
    columns, seen = [], set()
    for f in frames:
        for s in f.get_columns():
            if s.name in seen:
                raise DuplicateError(f"could not create a new DataFrame: column with name '{s.name}' has more than "
                                     "one occurrence")
            seen.add(s.name)
            if len(s) < height:
                s = s.extend_constant(None, height - len(s)) if hasattr(s, "extend_constant") else s.append(
                    s.clear(height - len(s)))
            columns.append(s)
    return DataFrame(columns)


def _align(items: list, how: str) -> list:
    from functools import reduce

    schemas = _schemas(items)
    common = [n for n in schemas[0] if all(n in s for s in schemas)]
    if not common:
        from frazil.exceptions import InvalidOperationError

        raise InvalidOperationError("'align' strategy requires at least one common column")
    join = {"align": "full", "align_full": "full", "align_left": "left", "align_inner": "inner",
            "align_right": "right"}[how]
    lazy = _lazy(items)
    joined = reduce(lambda a, b: a.join(b, on=common, how=join, coalesce=True), lazy)
    return [joined.sort(*common, nulls_last=True)]


def concat_how(items: list, how: str, rechunk: bool) -> Any:
    """pl.concat(items, how=how) for the strategies other than plain vertical frames."""
    from frazil.dataframe import DataFrame
    from frazil.functions import concat
    from frazil.lazyframe import LazyFrame
    from frazil.series import Series

    if how not in HOW:
        raise ValueError(f"DataFrame `how` must be one of {{{', '.join(repr(h) for h in HOW)}}}, got {how!r}")
    if isinstance(items[0], Series):
        if how != "vertical":
            raise ValueError("Series only supports 'vertical' concat strategy")
        out = items[0].clone()
        for s in items[1:]:
            out = out.append(s)
        return out.rechunk() if rechunk else out
    eager = isinstance(items[0], DataFrame)
    if not eager and not isinstance(items[0], LazyFrame):
        raise TypeError(f"cannot concat items of type {type(items[0]).__name__}")
    if how.startswith("horizontal"):
        out = _horizontal(items, extend=how == "horizontal_extend")
        return out if eager else out.lazy()
    if how == "vertical_relaxed":
        parts = _vertical_relaxed(items)
    elif how.startswith("diagonal"):
        parts = _diagonal(items, relaxed=how.endswith("relaxed"))
    else:
        parts = _align(items, how)
    result = concat(parts, rechunk=rechunk)
    return result.collect() if eager else result
