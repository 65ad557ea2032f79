"""frazil.testing: Polars' assertion helpers (`polars.testing`) for frazil frames and series,
with Polars' options and messages, so a user's tests run unchanged.

Values are compared in Python: floats within `abs_tol + rel_tol * |right|` unless
check_exact, NaN equal to NaN, nulls equal to nulls only, nested lists element-wise.
"""
from __future__ import annotations

import math
from typing import Any

__all__ = ["assert_frame_equal", "assert_frame_not_equal", "assert_schema_equal", "assert_series_equal",
           "assert_series_not_equal"]


def _raise(kind: str, what: str, left: Any, right: Any) -> None:
    raise AssertionError(f"{kind} are different ({what})\n[left]: {left}\n[right]: {right}")


def _close(a: Any, b: Any, exact: bool, rel_tol: float, abs_tol: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y, exact, rel_tol, abs_tol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], exact, rel_tol, abs_tol) for k in a)
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or isinstance(a, bool) != isinstance(
                b, bool):
            return False
        fa, fb = float(a), float(b)
        if math.isnan(fa) or math.isnan(fb):
            return math.isnan(fa) and math.isnan(fb)
        if exact or math.isinf(fa) or math.isinf(fb):
            return fa == fb
        return abs(fa - fb) <= abs_tol + rel_tol * abs(fb)
    return a == b and type(a) is type(b) or (a == b and {type(a), type(b)} <= {int, float})


def _sorted_values(values: list) -> list:
    def key(v: Any) -> tuple:
        if v is None:
            return (2, "")
        if isinstance(v, float) and math.isnan(v):
            return (1, "")
        return (0, v) if not isinstance(v, (list, dict)) else (0, repr(v))

    return sorted(values, key=key)


def assert_series_equal(left: Any, right: Any, *, check_dtypes: bool = True, check_names: bool = True,
                        check_order: bool = True, check_exact: bool = False, rel_tol: float = 1e-05,
                        abs_tol: float = 1e-08, categorical_as_str: bool = False) -> None:
    """Raises AssertionError when the two series differ (Polars' assert_series_equal)."""
    from frazil.series import Series

    if not (isinstance(left, Series) and isinstance(right, Series)):
        _raise("inputs", "unexpected input types", type(left).__name__, type(right).__name__)
    if len(left) != len(right):
        _raise("Series", "length mismatch", len(left), len(right))
    if check_names and left.name != right.name:
        _raise("Series", "name mismatch", left.name, right.name)
    if check_dtypes and left.dtype != right.dtype:
        _raise("Series", "dtype mismatch", left.dtype, right.dtype)
    a, b = left.to_list(), right.to_list()
    if not check_order:
        a, b = _sorted_values(a), _sorted_values(b)
    if [x is None for x in a] != [y is None for y in b]:
        _raise("Series", "null value mismatch", left, right)
    floats = left.dtype.is_float() or right.dtype.is_float()
    for x, y in zip(a, b):
        if not _close(x, y, check_exact or not floats and not isinstance(x, (list, dict)), rel_tol, abs_tol):
            what = "exact value mismatch" if check_exact or not floats else "values not within tolerance"
            _raise("Series", what, left, right)


def assert_series_not_equal(left: Any, right: Any, **kwargs: Any) -> None:
    """Raises AssertionError when the two series are equal."""
    try:
        assert_series_equal(left, right, **kwargs)
    except AssertionError:
        return
    raise AssertionError("Series are equal (but are expected not to be)")


def _schema_items(schema: Any) -> list:
    return list(schema.items())


def assert_schema_equal(left_schema: Any, right_schema: Any, *, check_column_order: bool = True,
                        check_dtypes: bool = True) -> None:
    """Raises AssertionError when two schemas differ."""
    left, right = dict(_schema_items(left_schema)), dict(_schema_items(right_schema))
    left_only = [n for n in left if n not in right]
    if left_only:
        _raise("DataFrames", f"columns mismatch: {_names(left_only)} in left, but not in right", _names(left),
               _names(right))
    right_only = [n for n in right if n not in left]
    if right_only:
        _raise("DataFrames", f"columns mismatch: {_names(right_only)} in right, but not in left", _names(left),
               _names(right))
    if check_column_order and list(left) != list(right):
        _raise("DataFrames", "columns are not in the same order", _names(left), _names(right))
    if check_dtypes:
        diff = [(n, left[n], right[n]) for n in left if left[n] != right[n]]
        if diff:
            _raise("DataFrames", "dtypes do not match, differences only", "[" + ", ".join(
                f'("{n}", {a})' for n, a, _ in diff) + "]", "[" + ", ".join(f'("{n}", {b})' for n, _, b in diff) + "]")


def _names(names: Any) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


def assert_frame_equal(left: Any, right: Any, *, check_row_order: bool = True, check_column_order: bool = True,
                       check_dtypes: bool = True, check_exact: bool = False, rel_tol: float = 1e-05,
                       abs_tol: float = 1e-08, categorical_as_str: bool = False) -> None:
    """Raises AssertionError when the two frames differ (Polars' assert_frame_equal); two
    LazyFrames are collected first."""
    from frazil.dataframe import DataFrame
    from frazil.lazyframe import LazyFrame

    lazy = isinstance(left, LazyFrame) and isinstance(right, LazyFrame)
    if not lazy and not (isinstance(left, DataFrame) and isinstance(right, DataFrame)):
        _raise("inputs", "unexpected input types", type(left).__name__, type(right).__name__)
    if lazy:
        left, right = left.collect(), right.collect()
    assert_schema_equal(left.schema, right.schema, check_column_order=check_column_order, check_dtypes=check_dtypes)
    if left.height != right.height:
        _raise("DataFrames", "height (row count) mismatch", left.height, right.height)
    if not check_column_order:
        right = right.select(left.columns)
    if not check_row_order and left.height:
        left, right = left.sort(left.columns, nulls_last=True), right.sort(left.columns, nulls_last=True)
    for name in left.columns:
        try:
            assert_series_equal(left.get_column(name), right.get_column(name), check_dtypes=False, check_names=False,
                                check_exact=check_exact, rel_tol=rel_tol, abs_tol=abs_tol)
        except AssertionError:
            raise AssertionError(f'DataFrames are different (value mismatch for column "{name}")\n'
                                 f"[left]: {left.get_column(name)}\n[right]: {right.get_column(name)}") from None


def assert_frame_not_equal(left: Any, right: Any, **kwargs: Any) -> None:
    """Raises AssertionError when the two frames are equal."""
    try:
        assert_frame_equal(left, right, **kwargs)
    except AssertionError:
        return
    raise AssertionError("DataFrames are equal (but are expected not to be)")
