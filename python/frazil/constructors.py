"""Frames from other libraries' objects (Polars' pl.from_numpy, from_pandas, from_records,
from_dataframe), through Arrow where the data is columnar so that buffers are shared."""
from __future__ import annotations

from typing import Any


def _names(schema: Any, width: int) -> list[str]:
    if schema is None:
        return [f"column_{i}" for i in range(width)]
    if isinstance(schema, dict):
        return list(schema)
    return [s if isinstance(s, str) else s[0] for s in schema]


def from_numpy(data: Any, schema: Any = None, *, schema_overrides: Any = None, orient: str | None = None) -> Any:
    """A DataFrame from a 1-D (one column) or 2-D NumPy array; a 2-D array's columns are its
    columns unless orient="row" (or the schema's width says they are its rows)."""
    import numpy as np

    from frazil.dataframe import DataFrame
    from frazil.series import Series

    arr = np.asarray(data)
    if arr.ndim == 1:
        names = _names(schema, 1)
        columns = [arr]
    elif arr.ndim == 2:
        if orient is None:
            width = len(_names(schema, 0)) if schema is not None else None
            orient = "col" if width is not None and width == arr.shape[0] and width != arr.shape[1] else "row"
        if orient not in ("row", "col"):
            raise ValueError(f"`orient` must be one of {{'col', 'row', None}}, got {orient!r}")
        columns = list(arr.T) if orient == "row" else list(arr)
        names = _names(schema, len(columns))
    else:
        raise ValueError(f"cannot create DataFrame from array with more than two dimensions; shape = {arr.shape}")
    if len(names) != len(columns):
        raise ValueError(f"dimensions of columns arg ({len(names)}) must match data dimensions ({len(columns)})")
    frame = DataFrame([Series(n, np.ascontiguousarray(c)) for n, c in zip(names, columns)])
    dtypes = dict(schema) if isinstance(schema, dict) else {}
    dtypes.update(schema_overrides or {})
    dtypes = {k: v for k, v in dtypes.items() if v is not None}
    return frame.cast(dtypes) if dtypes else frame


def from_pandas(data: Any, *, schema_overrides: Any = None, rechunk: bool = True, nan_to_null: bool = True,
                include_index: bool = False) -> Any:
    """A DataFrame from a pandas DataFrame (a Series from a pandas Series or Index), converted
    by pyarrow; NaN in float columns becomes null unless nan_to_null=False."""
    import pandas as pd
    import pyarrow as pa

    from frazil.dataframe import DataFrame
    from frazil.series import Series

    if isinstance(data, (pd.Series, pd.Index)):
        values = pa.array(data, from_pandas=nan_to_null)
        return Series("" if data.name is None else str(data.name), values)
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"expected pandas DataFrame or Series, got {type(data).__name__}")
    default_index = isinstance(data.index, pd.RangeIndex) and data.index.name is None and data.index.start == 0 \
        and data.index.step == 1
    if include_index and not default_index:  # as Polars: only an index that carries information
        data = data.reset_index()
    columns = [Series(str(name), pa.array(data[name], from_pandas=nan_to_null)) for name in data.columns]
    frame = DataFrame(columns)
    return frame.cast(dict(schema_overrides)) if schema_overrides else frame


def from_records(data: Any, schema: Any = None, *, schema_overrides: Any = None, strict: bool = True,
                 orient: str | None = None, infer_schema_length: int | None = 100) -> Any:
    """A DataFrame from a sequence of rows (tuples, lists, or dicts)."""
    from frazil.dataframe import DataFrame, from_dicts

    rows = list(data)
    if rows and isinstance(rows[0], dict):
        return from_dicts(rows, schema=schema, schema_overrides=schema_overrides)
    return DataFrame(rows, schema=schema, schema_overrides=schema_overrides, orient=orient or "row")


def from_dataframe(df: Any, *, rechunk: bool = True) -> Any:
    """A DataFrame from any object exporting the Arrow PyCapsule interface (pyarrow, Polars,
    DuckDB relations, pandas 2.2+), without copying where the layouts agree."""
    from frazil.dataframe import from_arrow

    if not (hasattr(df, "__arrow_c_stream__") or hasattr(df, "__arrow_c_array__")):
        raise TypeError(f"`df` of type {type(df).__name__} does not export the Arrow PyCapsule interface")
    return from_arrow(df)
