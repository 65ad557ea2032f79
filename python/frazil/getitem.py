"""`DataFrame[...]` and `Series[...]` as Polars reads the key.

Rows: an int (a one-row frame; for a Series its value), a slice or range (with any step,
negative too), a sequence, Series or NumPy array of integer positions (negative ones count
from the end). A Boolean mask is refused, as Polars refuses it ("use filter"). Columns: a
name, an int position, a slice of positions or names, a sequence (or Series / NumPy array)
of names, positions or Booleans. `df[rows, columns]` combines the two; one row of one column
is its value.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_BOOLEAN_MASK = ("selecting rows by passing a boolean mask to `__getitem__` is not supported"
                 "\n\nHint: Use the `filter` method instead.")


def _is_numpy(key: Any) -> bool:
    return type(key).__module__ == "numpy" and type(key).__name__ == "ndarray"


def _positions(key: Any, size: int) -> Any:
    """The key as a Series of non-negative row positions (a TypeError for what is not one)."""
    from frazil.datatypes import Boolean, Int64
    from frazil.series import Series

    if isinstance(key, Series):
        s = key
    elif _is_numpy(key):
        if key.ndim != 1:
            raise TypeError("multi-dimensional NumPy arrays not supported as index")
        if key.dtype.kind == "b":
            raise TypeError(_BOOLEAN_MASK)
        if key.dtype.kind not in "iu":
            raise TypeError(f"cannot treat NumPy array of type {key.dtype} as indices")
        s = Series("", key)
    else:
        if key and isinstance(key[0], bool):
            raise TypeError(_BOOLEAN_MASK)
        try:
            s = Series("", list(key), dtype=Int64)
        except (TypeError, ValueError):
            first = type(key[0]).__name__
            raise TypeError(f"cannot select elements using Sequence with elements of type '{first}'") from None
    if s.dtype == Boolean:
        raise TypeError(_BOOLEAN_MASK)
    if not s.dtype.is_integer():
        raise TypeError(f"cannot treat Series of type {s.dtype} as indices")
    if s.dtype.is_signed_integer() and len(s) and s.min() < 0:
        s = s.cast(Int64)
        s = s.zip_with(s >= 0, s + size)
    return s


def _slice_positions(key: slice, size: int) -> range:
    return range(size)[key]


def _rows_by_slice(obj: Any, key: slice) -> Any:
    rows = _slice_positions(key, len(obj))
    if rows.step == 1:
        return obj.slice(rows.start, len(rows))
    if not rows:
        return obj.clear()
    if rows.step == -1:
        return obj.slice(rows.stop + 1, len(rows)).reverse()
    return _gather(obj, list(rows))


def _gather(obj: Any, positions: Any) -> Any:
    from frazil.dataframe import DataFrame
    from frazil.functions import all as all_columns

    if isinstance(obj, DataFrame):
        if not obj.columns:
            return obj
        return obj.select(all_columns().gather(positions))
    return obj.gather(positions)


def value_at(s: Any, index: int) -> Any:
    """The value at a valid non-negative index as Polars gives one value: a List or Array value
    is a Series of the inner dtype (rows and to_list keep Python lists)."""
    value = s._col.get(index)
    dtype = s.dtype
    if value is None or type(dtype).__name__ not in ("List", "Array"):
        return value
    from frazil.series import Series

    return Series("", value, dtype=dtype.inner)


def series_item(s: Any, key: Any) -> Any:
    """`s[key]`: a value for an int, else a Series."""
    if not isinstance(key, (int, slice, range, Sequence)) and not _is_numpy(key) and type(key).__name__ != "Series":
        raise TypeError(f"cannot select elements using key of type '{type(key).__name__}': {key!r}")
    if isinstance(key, int):
        n = len(s)
        if key >= n or key < -n:
            raise IndexError(f"index {key} is out of bounds for sequence of length {n}")
        return value_at(s, key + n if key < 0 else key)
    if isinstance(key, (slice, range)):
        return _rows_by_slice(s, key if isinstance(key, slice) else slice(key.start, key.stop, key.step))
    if isinstance(key, str):
        raise TypeError(f"cannot select elements using key of type 'str': {key!r}")
    if not _is_numpy(key) and not len(key):
        return s.clear()
    return _gather(s, _positions(key, len(s)))


def _select_rows(df: Any, key: Any) -> Any:
    if isinstance(key, int):  # a bool too, as in Polars
        if key >= df.height or key < -df.height:
            raise IndexError(f"index {key} is out of bounds for DataFrame of height {df.height}")
        return df.slice(key, 1)
    if isinstance(key, (slice, range)):
        return _rows_by_slice(df, key if isinstance(key, slice) else slice(key.start, key.stop, key.step))
    from frazil.series import Series

    if isinstance(key, Sequence) and not isinstance(key, str):
        if not key:
            return df.clear()
        return _gather(df, _positions(key, df.height))
    if isinstance(key, Series) or _is_numpy(key):
        return _gather(df, _positions(key, df.height))
    raise TypeError(f"cannot select rows using key of type '{type(key).__name__}': {key!r}")


def _by_index(df: Any, positions: Any) -> Any:
    from frazil.dataframe import DataFrame

    return DataFrame([df.to_series(i) for i in positions])


def _select_columns(df: Any, key: Any) -> Any:
    from frazil.dataframe import DataFrame
    from frazil.series import Series

    if isinstance(key, int):
        return df.to_series(key)
    if isinstance(key, str):
        return df.get_column(key)
    if isinstance(key, slice):
        if key.start is None and key.stop is None and key.step is None:
            return df
        start = df.get_column_index(key.start) if isinstance(key.start, str) else key.start
        stop = df.get_column_index(key.stop) + 1 if isinstance(key.stop, str) else key.stop
        return _by_index(df, range(df.width)[slice(start, stop, key.step)])
    if isinstance(key, range):
        return _by_index(df, key)
    if isinstance(key, Series) or _is_numpy(key):
        values = key.to_list() if isinstance(key, Series) else key.tolist()
        if not values:
            return DataFrame()
        key = values
    if isinstance(key, Sequence):
        if not key:
            return DataFrame()
        first = key[0]
        if isinstance(first, bool):
            if len(key) != df.width:
                raise ValueError(f"expected {df.width} values when selecting columns by boolean mask, got {len(key)}")
            return _by_index(df, [i for i, keep in enumerate(key) if keep])
        if isinstance(first, int):
            return _by_index(df, key)
        if isinstance(first, str):
            return df.select(list(key))
        raise TypeError(f"cannot select columns using Sequence with elements of type '{type(first).__name__}'")
    raise TypeError(f"cannot select columns using key of type '{type(key).__name__}': {key!r}")


def frame_item(df: Any, key: Any) -> Any:
    """`df[key]`: a DataFrame, a Series (one column) or a value (one row of one column)."""
    from frazil.series import Series

    if isinstance(key, tuple) and len(key) == 2:
        row_key, col_key = key
        if isinstance(row_key, (bool, str)):
            return _select_columns(df, key)
        selection = _select_columns(df, col_key)
        if selection.is_empty() if isinstance(selection, Series) else selection.width == 0:
            return selection
        if isinstance(selection, Series):
            return series_item(selection, row_key)
        return _select_rows(selection, row_key)
    if isinstance(key, str):
        return df.get_column(key)
    try:
        return _select_rows(df, key)
    except TypeError:
        return _select_columns(df, key)
