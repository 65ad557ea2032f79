"""LazyFrame.join_asof: each left row matched with the nearest right row by a sorted key.

Builds an AsofJoin plan node (`ASOF JOIN` in explain()); the matching runs at collect()
as a sorted merge in the engine (exec/operators/asof_join.cpp). This module checks the
arguments as Polars does and passes them on.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any


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


def _hinted(expr: Any) -> bool:
    """Whether the key was marked with Expr.set_sorted()."""
    from frazil.expr import SortedHintExpr

    return isinstance(expr, SortedHintExpr)


def join_asof(self: Any, other: Any, *, left_on: Any = None, right_on: Any = None, on: Any = None,
              by_left: Any = None, by_right: Any = None, by: Any = None, strategy: str = "backward",
              suffix: str = "_right", tolerance: Any = None, allow_parallel: bool = True,
              force_parallel: bool = False, coalesce: bool = True, allow_exact_matches: bool = True,
              check_sortedness: bool = True) -> Any:
    """Joins on the nearest key: backward (last right key <= left key), forward (first right
    key >= left key) or nearest; `by` columns must be equal; `tolerance` bounds the distance
    (a number, or a duration string / timedelta for temporal keys). Both sides must be sorted
    by the key (within each `by` group)."""
    from frazil.exceptions import ComputeError, InvalidOperationError
    from frazil.lazyframe import LazyFrame

    if not isinstance(other, LazyFrame):
        raise TypeError(f"expected `other` to be a 'LazyFrame', not {type(other).__name__!r}")
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
    tol_num, tol_str = None, None
    if isinstance(tolerance, (str, timedelta)):
        tol_str = _duration_string(tolerance)
        _check_duration(tol_str)
    elif tolerance is not None:
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
            raise ComputeError(f"could not extract number from any-value of dtype: {tolerance!r}")
        tol_num = float(tolerance)
    # Keys marked sorted skip the check; with `by` groups out of order the query warns as
    # Polars does (when it runs).
    check = check_sortedness and not (_hinted(left_key) and _hinted(right_key))
    # A key marked sorted is an expression to Polars, not the column: the right one stays.
    keep_right_key = _hinted(right_key)
    return self._wrap(self._ldf.join_asof(other._ldf, left_key._pyexpr, right_key._pyexpr, by_l, by_r, strategy,
                                          tol_num, tol_str, allow_exact_matches, check, suffix,
                                          coalesce and not keep_right_key))
