"""LazyFrame.join_asof: each left row matched with the nearest right row by a sorted key.

The match is a sort-based merge composed from the engine's operations: the keys of both
sides are concatenated and sorted (by the `by` columns, then the key, then which side a row
came from, so that ties fall on the side `allow_exact_matches` asks for), and each left row
takes the row number of the right row before it (backward: forward_fill) or after it
(forward: backward_fill) within its `by` group. Nearest runs both and keeps the closer
(ties: the later right row, as Polars). The right columns are then gathered by that row
number with a join on it, which keeps the left order.

Not a plan node of its own: both inputs are collected when join_asof is called (the
sortedness check needs their keys), and the result is a LazyFrame over the joined frame.
"""
from __future__ import annotations

import warnings
from datetime import timedelta
from typing import Any

_LI, _RI, _SIDE, _KEY, _RK = "__asof_li", "__asof_ri", "__asof_side", "__asof_key", "__asof_rk"


def _as_list(by: Any) -> list | None:
    if by is None:
        return None
    return [by] if isinstance(by, str) else list(by)


def _key_expr(value: Any, what: str) -> Any:
    from frazil.expr import Expr
    from frazil.functions import col

    if isinstance(value, str):
        return col(value)
    if isinstance(value, Expr):
        return value
    raise TypeError(f"expected `{what}` to be str or Expr, got {type(value).__name__!r}")


def _duration_string(tolerance: Any) -> str:
    if isinstance(tolerance, timedelta):
        us = (tolerance.days * 86_400 + tolerance.seconds) * 1_000_000 + tolerance.microseconds
        return f"{us}us"
    return tolerance


def _check_duration(text: str) -> None:
    from frazil.exceptions import ComputeError

    t = text.strip().lstrip("-")
    if not t or not t[0].isdigit():
        raise ComputeError(f"expected leading integer in the duration string, found {text!r}")


def _integer_supertype(a: Any, b: Any) -> Any:
    """The dtype two integer keys of different dtypes are compared in (None: not integers)."""
    from frazil.datatypes import Int64

    if not (a.is_integer() and b.is_integer()):
        return None
    return Int64


def _is_sorted(series: Any) -> bool:
    # Nulls do not take part in the match, wherever they are (Polars accepts keys flagged
    # sorted with nulls among them).
    s = series.drop_nulls()
    return len(s) < 2 or s.is_sorted()


def _hinted(expr: Any) -> bool:
    """Whether the key was marked with Expr.set_sorted()."""
    from frazil.expr import SortedHintExpr

    return isinstance(expr, SortedHintExpr)


def _sorted_in_groups(frame: Any, key: Any, by: list) -> bool:
    from frazil.functions import col

    k = "__asof_check"
    steps = frame.select(*by, key.alias(k)).filter(col(k).is_not_null())
    return not steps.select((col(k).diff().over(by) < 0).any()).item()


def _check_sorted(series: Any, side: str) -> None:
    from frazil.exceptions import InvalidOperationError

    if not _is_sorted(series):
        raise InvalidOperationError(
            "argument in operation 'asof_join' is not sorted, please sort the 'expr/series/column' first")


def join_asof(self: Any, other: Any, *, left_on: Any = None, right_on: Any = None, on: Any = None,
              by_left: Any = None, by_right: Any = None, by: Any = None, strategy: str = "backward",
              suffix: str = "_right", tolerance: Any = None, allow_parallel: bool = True,
              force_parallel: bool = False, coalesce: bool = True, allow_exact_matches: bool = True,
              check_sortedness: bool = True) -> Any:
    """Joins on the nearest key: backward (last right key <= left key), forward (first right
    key >= left key) or nearest; `by` columns must be equal; `tolerance` bounds the distance
    (a number, or a duration string / timedelta for temporal keys). Both sides must be sorted
    by the key (within each `by` group)."""
    from frazil.exceptions import ComputeError, DuplicateError, InvalidOperationError, SchemaError
    from frazil.lazyframe import LazyFrame

    if not isinstance(other, LazyFrame):
        raise TypeError(f"expected `other` join table to be a LazyFrame, not {type(other).__name__!r}")
    if strategy not in ("backward", "forward", "nearest"):
        raise ValueError(f"`strategy` must be one of {{'backward', 'forward', 'nearest'}}, got {strategy!r}")
    if on is not None:
        left_on = right_on = _key_expr(on, "on")
    if left_on is None or right_on is None:
        raise ValueError("you should pass the column to join on as an argument")
    left_key, right_key = _key_expr(left_on, "left_on"), _key_expr(right_on, "right_on")
    if by is not None:
        by_l = by_r = _as_list(by)
    else:
        by_l, by_r = _as_list(by_left), _as_list(by_right)
        if (by_l is None) != (by_r is None):
            raise InvalidOperationError("expected both `by_left` and `by_right` to be set")
    by_l, by_r = by_l or [], by_r or []
    if len(by_l) != len(by_r):
        raise InvalidOperationError("expected both `by_left` and `by_right` to have the same length")
    tol_str = None
    if isinstance(tolerance, (str, timedelta)):
        tol_str = _duration_string(tolerance)
        _check_duration(tol_str)
    elif tolerance is not None and (isinstance(tolerance, bool) or not isinstance(tolerance, (int, float))):
        raise ComputeError(f"could not extract number from any-value of dtype: {tolerance!r}")

    left = self.collect()
    right = other.collect()
    lk = left.select(left_key).to_series()
    rk = right.select(right_key).to_series()
    key_dtype = None
    if lk.dtype != rk.dtype:
        key_dtype = _integer_supertype(lk.dtype, rk.dtype)
    if lk.dtype != rk.dtype and key_dtype is None:
        raise SchemaError(f"datatypes of join keys don't match - `{lk.name}`: {lk.dtype} on left does not "
                          f"match `{rk.name}`: {rk.dtype} on right")
    for bl, br in zip(by_l, by_r):
        if left.schema[bl] != right.schema[br]:
            raise ComputeError(f"mismatching dtypes in 'by' parameter of asof-join: `{bl}`: "
                               f"{left.schema[bl]} and `{br}`: {right.schema[br]}")
    hinted = _hinted(left_key) and _hinted(right_key)
    if check_sortedness and not hinted:
        if by_l:
            # Polars cannot check within groups: it warns (here: when a group is unsorted).
            if not (_sorted_in_groups(left, left_key, by_l) and _sorted_in_groups(right, right_key, by_r)):
                warnings.warn("Sortedness of columns cannot be checked when 'by' groups provided", UserWarning,
                              stacklevel=3)
        else:
            _check_sorted(lk, "left")
            _check_sorted(rk, "right")
    given_left, given_right = left_key, right_key
    if key_dtype is not None:
        left_key, right_key = left_key.cast(key_dtype), right_key.cast(key_dtype)

    match = _match(left, right, lk, left_key, right_key, by_l, by_r, strategy, allow_exact_matches, tolerance, tol_str)
    return _assemble(left, right, lk, rk, given_left, given_right, by_r, match, suffix, coalesce,
                     DuplicateError).lazy()


def _sides(left: Any, right: Any, left_key: Any, right_key: Any, by_l: list, by_r: list, last_of_key: bool) -> tuple:
    """The left and right keys as frames of (by columns, key, row numbers); rows without a key
    or with a null `by` value take no part in the matching."""
    from frazil.functions import col, lit

    by_names = [f"__asof_by{i}" for i in range(len(by_l))]
    ls = left.with_columns(left_key.alias(_KEY)).select(*[col(b).alias(n) for b, n in zip(by_l, by_names)], _KEY)
    rs = right.with_columns(right_key.alias(_KEY)).select(*[col(b).alias(n) for b, n in zip(by_r, by_names)], _KEY)
    ls = ls.with_row_index(_LI).with_columns(lit(None, dtype=_index_dtype()).alias(_RI))
    rs = rs.with_row_index(_RI).with_columns(lit(None, dtype=_index_dtype()).alias(_LI))
    keep = [col(_KEY).is_not_null()] + [col(n).is_not_null() for n in by_names]
    rs = rs.filter(*keep)
    if last_of_key:
        # Nearest: of right rows with equal keys, the last (Polars prefers the later row).
        rs = rs.with_columns(col(_RI).max().over([*by_names, _KEY]))
    ls = ls.filter(*keep)
    cols = [*by_names, _KEY, _LI, _RI]
    return ls.select(cols), rs.select(cols), by_names


def _index_dtype() -> Any:
    from frazil.datatypes import UInt32

    return UInt32


def _one_direction(ls: Any, rs: Any, by_names: list, forward: bool, exact: bool) -> Any:
    """(left row, matched right row, its key) for every left row that takes part."""
    from frazil.functions import col, concat, when

    # At equal keys, the side that sorts first is seen by the fill: the right rows go first
    # for a backward match that allows equal keys, last for a forward one.
    right_first = exact != forward
    # A stable sort on the key alone keeps equal keys in concatenation order: the side that
    # must come first at a tie is concatenated first.
    both = concat([rs, ls] if right_first else [ls, rs])
    both = both.with_columns(when(col(_RI).is_not_null()).then(col(_KEY)).otherwise(None).alias(_RK))
    both = both.sort([*by_names, _KEY], maintain_order=True)
    fill = (lambda e: e.backward_fill()) if forward else (lambda e: e.forward_fill())
    filled = [fill(col(_RI)), fill(col(_RK))]
    if by_names:
        filled = [e.over(by_names) for e in filled]
    return (both.with_columns(*filled)
            .filter(col(_LI).is_not_null())
            .select(_LI, _KEY, _RI, _RK))


def _one_direction_sorted(ls: Any, rs: Any, forward: bool, exact: bool, last_of_key: bool) -> Any:
    """_one_direction without `by` groups: the right keys are sorted (checked or promised),
    so each left key's match is found by binary search, with no sort."""
    from frazil.datatypes import Int64
    from frazil.functions import col, lit, when

    keys = rs[_KEY]
    n = len(keys)
    if n == 0:
        return ls.select(_LI, _KEY, lit(None, dtype=rs.schema[_RI]).alias(_RI),
                         lit(None, dtype=rs.schema[_KEY]).alias(_RK))
    side = ("left" if exact else "right") if forward else ("right" if exact else "left")
    frame = ls.select(_LI, _KEY).hstack([keys.search_sorted(ls[_KEY], side=side).cast(Int64).alias("__pos")])
    p = col("__pos")
    frame = frame.with_columns((when(p < n).then(p) if forward else when(p > 0).then(p - 1)).alias("__pos"))
    if forward and last_of_key:
        # Of equal right keys, the last (Polars' nearest prefers the later row).
        last = keys.search_sorted(keys.gather(frame["__pos"]), side="right").cast(Int64).alias("__last")
        frame = frame.hstack([last]).with_columns(when(p.is_not_null()).then(col("__last") - 1).alias("__pos"))
    pos = frame["__pos"]
    return frame.select(_LI, _KEY).hstack([rs[_RI].gather(pos).alias(_RI), keys.gather(pos).alias(_RK)])


def _within(key: Any, rkey: Any, direction: str, tolerance: Any, tol_str: str | None) -> Any:
    """Whether a match lies within the tolerance."""
    if tol_str is not None:
        if direction == "backward":
            return rkey >= key.dt.offset_by("-" + tol_str.lstrip("-"))
        return rkey <= key.dt.offset_by(tol_str)
    if direction == "backward":
        return (key.to_physical() - rkey.to_physical()) <= tolerance
    return (rkey.to_physical() - key.to_physical()) <= tolerance


def _match(left: Any, right: Any, lk: Any, left_key: Any, right_key: Any, by_l: list, by_r: list, strategy: str, exact: bool,
           tolerance: Any, tol_str: str | None) -> Any:
    """A frame of (left row number, right row number or null) for every left row in left order."""
    from frazil.datatypes import Float64
    from frazil.functions import col, when

    ls, rs, by_names = _sides(left, right, left_key, right_key, by_l, by_r, strategy == "nearest" and bool(by_l))
    limited = tolerance is not None

    def direction(name: str) -> Any:
        if by_names:
            m = _one_direction(ls, rs, by_names, name == "forward", exact)
        else:
            m = _one_direction_sorted(ls, rs, name == "forward", exact, strategy == "nearest")
        if limited:
            ok = _within(col(_KEY), col(_RK), name, tolerance, tol_str)
            m = m.with_columns(when(ok).then(col(_RI)).otherwise(None).alias(_RI),
                               when(ok).then(col(_RK)).otherwise(None).alias(_RK))
        return m

    if strategy != "nearest":
        m = direction(strategy).select(_LI, _RI)
    else:
        b = direction("backward")
        f = direction("forward").select(_LI, col(_RI).alias("__asof_fri"), col(_RK).alias("__asof_frk"))
        m = b.join(f, on=_LI, how="left")
        key = col(_KEY).to_physical().cast(Float64)
        db = (key - col(_RK).to_physical().cast(Float64)).abs()
        dfw = (col("__asof_frk").to_physical().cast(Float64) - key).abs()
        take_forward = col(_RI).is_null() | (col("__asof_fri").is_not_null() & (dfw <= db))
        # Keys that are NaN: the backward match (NaN sorts last).
        if lk.dtype.is_float():
            take_forward = take_forward & ~col(_KEY).is_nan()
        m = m.select(_LI, when(take_forward).then(col("__asof_fri")).otherwise(col(_RI)).alias(_RI))
    return m


def _assemble(left: Any, right: Any, lk: Any, rk: Any, left_key: Any, right_key: Any, by_r: list, match: Any,
              suffix: str, coalesce: bool, duplicate_error: type) -> Any:
    from frazil.functions import col

    left_names = left.columns
    plain = not _hinted(right_key) and repr(right_key) == f'col("{rk.name}")'
    key_same = lk.name == rk.name
    drop = set(by_r)
    if coalesce and key_same and plain and rk.name in right.columns:
        drop.add(rk.name)
    right_cols = [c for c in right.columns if c not in drop]
    renamed = []
    taken = set(left_names)
    for c in right_cols:
        new = c + suffix if c in taken else c
        if new in taken:
            raise duplicate_error(f"column with name '{new}' has more than one occurrence")
        taken.add(new)
        renamed.append(col(c).alias(new))
    # A key computed by an expression (not a column of the right side) is kept as Polars does.
    extra = []
    if not coalesce and rk.name not in right.columns:
        name = rk.name + suffix if rk.name in taken else rk.name
        extra.append(right_key.alias(name))
    left_with = left.with_row_index(_LI)
    joined = left_with.join(match, on=_LI, how="left")
    r = right.select(*renamed, *extra).with_row_index(_RI)
    out = joined.join(r, on=_RI, how="left", coalesce=True)
    return out.drop(_LI, _RI)
