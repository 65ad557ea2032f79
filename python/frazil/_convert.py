"""Turning user data into native frames and columns, and back.

pyarrow, polars and pandas are imported only here, lazily, and only when the user
passes such an object or asks for such output: they are never runtime dependencies.
"""
from __future__ import annotations

import datetime as _dt
import functools
import re
from collections.abc import Mapping, Sequence

from frazil import _frazil
from frazil.datatypes import from_native, parse_into_dtype, to_native


def _module_of(obj) -> str:
    return getattr(type(obj), "__module__", "") or ""


def is_pandas_frame(obj) -> bool:
    return _module_of(obj).startswith("pandas") and type(obj).__name__ == "DataFrame"


def is_pandas_series(obj) -> bool:
    return _module_of(obj).startswith("pandas") and type(obj).__name__ == "Series"


def is_numpy_array(obj) -> bool:
    return _module_of(obj) == "numpy" and type(obj).__name__ == "ndarray"


def trusts_utf8(obj) -> bool:
    """Whether a producer's strings are UTF-8 by construction, so importing them need not
    read them: Polars' String type guarantees it. pyarrow does not (Array.from_buffers
    accepts any bytes), nor does an unknown producer: their strings are validated."""
    return _module_of(obj).startswith("polars")


@functools.lru_cache(maxsize=64)
def tzinfo_for(name: str) -> _dt.tzinfo:
    """The tzinfo of a time zone name: an IANA key or a fixed offset like '+01:00'."""
    m = re.fullmatch(r"([+-])(\d{2}):?(\d{2})", name)
    if m:
        sign = 1 if m.group(1) == "+" else -1
        return _dt.timezone(sign * _dt.timedelta(hours=int(m.group(2)), minutes=int(m.group(3))))
    import zoneinfo

    return zoneinfo.ZoneInfo(name)


class _StreamCapsule:
    """Hands an already exported Arrow stream capsule to a consumer that asks for
    ``__arrow_c_stream__`` (pyarrow's RecordBatchReader.from_stream)."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __arrow_c_stream__(self, requested_schema=None):
        return self._capsule


class _ArrayCapsules:
    """The same for an exported (schema, array) capsule pair: ``__arrow_c_array__``."""

    def __init__(self, capsules):
        self._capsules = capsules

    def __arrow_c_array__(self, requested_schema=None):
        return self._capsules


def arrow_to_pandas(data, use_pyarrow_extension_array: bool, kwargs: dict):
    """pyarrow Table/Array -> pandas, with the options Polars' to_pandas uses."""
    if use_pyarrow_extension_array:
        import pandas as pd

        return data.to_pandas(types_mapper=pd.ArrowDtype, **kwargs)
    kwargs.setdefault("date_as_object", False)
    return data.to_pandas(**kwargs)


# ---- columns -------------------------------------------------------------------------

def column_from_arrow(obj, name: str = ""):
    """A native column from an object with __arrow_c_array__ or __arrow_c_stream__."""
    trusted = trusts_utf8(obj)
    if hasattr(obj, "__arrow_c_array__"):
        schema, array = obj.__arrow_c_array__()
        return _frazil.PyColumn.from_arrow_array(schema, array, name, trusted)
    if hasattr(obj, "__arrow_c_stream__"):
        return _frazil.PyColumn.from_arrow_stream(obj.__arrow_c_stream__(), name, trusted)
    raise TypeError(f"cannot read an Arrow array from {type(obj).__name__}")


def zone_for_aware_datetimes(values, dtype):
    """A Series of offset-aware datetimes given a zone-less Datetime dtype is UTC in Polars
    (the instants are kept; a DataFrame schema keeps the dtype as given)."""
    from frazil.datatypes import Datetime

    zone_less = dtype is Datetime or (isinstance(dtype, Datetime) and dtype.time_zone is None)
    if not zone_less or not isinstance(values, (list, tuple)):
        return dtype
    aware = any(isinstance(v, _dt.datetime) and v.tzinfo is not None for v in values)
    return Datetime(getattr(dtype, "time_unit", None) or "us", "UTC") if aware else dtype


def column_from_values(name: str, values, dtype=None):
    """A native column from a sequence of Python values (or an Arrow-compatible array)."""
    from frazil.datatypes import Decimal
    from frazil.series import Series

    if dtype is Decimal or (isinstance(dtype, type) and dtype.__name__ == "Decimal"
                            and type(dtype).__module__.startswith("polars")):
        # The Decimal class without precision and scale: Polars infers the scale from the
        # values (Decimal(38, 0) for integers), where Decimal() would round them to scale 0.
        col = column_from_values(name, values, None)
        if isinstance(from_native(col.dtype), Decimal):
            return col
        dtype = Decimal(38, 0)
    native_dtype = None if dtype is None else to_native(dtype)
    if isinstance(values, Series):
        col = values._col.rename(name)
    elif is_pandas_series(values):
        import pyarrow as pa

        col = column_from_arrow(pa.array(values, from_pandas=True), name).rename(name)
    elif hasattr(values, "__arrow_c_array__") or hasattr(values, "__arrow_c_stream__"):
        col = column_from_arrow(values, name).rename(name)
    elif is_numpy_array(values) and values.ndim >= 2:
        from frazil.series_arr import column_from_ndarray

        return column_from_ndarray(name, values, dtype)
    elif is_numpy_array(values) and values.ndim == 1 and values.dtype.kind in "biufMm" and _has_pyarrow():
        # Numbers, Booleans and datetimes through Arrow: the dtype is kept (int32 stays
        # Int32) and numeric buffers are shared, not converted value by value.
        import pyarrow as pa

        col = column_from_arrow(pa.array(values), name).rename(name)
    else:
        if is_numpy_array(values):
            values = values.tolist()
        elif not isinstance(values, (list, tuple)):
            values = list(values)
        first = next((v for v in values if v is not None), None)
        if isinstance(first, Series):
            # Series values (as s[i] gives for List columns) are List values of their dtype.
            values = [v.to_list() if isinstance(v, Series) else v for v in values]
            if native_dtype is None:
                from frazil.datatypes import List

                native_dtype = to_native(List(first.dtype))
        return _frazil.PyColumn.from_values(name, values, native_dtype)
    if dtype is not None and from_native(col.dtype) != parse_into_dtype(dtype):
        col = Series._from_native(col).cast(dtype)._col
    return col


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


# ---- frames --------------------------------------------------------------------------

def _schema_items(schema):
    if schema is None:
        return None
    if isinstance(schema, Mapping):
        return list(schema.items())
    items = []
    for entry in schema:
        if isinstance(entry, str):
            items.append((entry, None))
        else:
            name, dtype = entry
            items.append((name, dtype))
    return items


def frame_from_arrow(obj):
    """A native frame from an object with __arrow_c_stream__ or __arrow_c_array__."""
    trusted = trusts_utf8(obj)
    if hasattr(obj, "__arrow_c_stream__"):
        return _frazil.PyDataFrame.from_arrow_stream(obj.__arrow_c_stream__(), trusted)
    if hasattr(obj, "__arrow_c_array__"):
        schema, array = obj.__arrow_c_array__()
        return _frazil.PyDataFrame.from_arrow_array(schema, array, trusted)
    raise TypeError(f"cannot read Arrow data from {type(obj).__name__}")


def _apply_schema(df, schema_items):
    """Renames / checks the columns of an imported frame against a user schema."""
    if schema_items is None:
        return df
    from frazil.exceptions import InvalidOperationError, ShapeError

    if len(schema_items) != df.width:
        raise ShapeError(
            f"the schema has {len(schema_items)} columns but the data has {df.width}"
        )
    cols = []
    for col, (name, dtype) in zip(df.get_columns(), schema_items):
        if dtype is not None and from_native(col.dtype) != parse_into_dtype(dtype):
            raise InvalidOperationError(
                f"column '{col.name}' has dtype {from_native(col.dtype)!r}, not "
                f"{parse_into_dtype(dtype)!r}; casting is not supported here yet"
            )
        cols.append(col.rename(name))
    if not cols:
        return df
    return _frazil.PyDataFrame(cols)


def _is_scalar_value(v) -> bool:
    from frazil.series import Series

    if isinstance(v, (str, bytes, bytearray, Mapping)) or v is None:
        return True
    if isinstance(v, Series) or hasattr(v, "__arrow_c_array__") or hasattr(v, "__arrow_c_stream__"):
        return False
    return not hasattr(v, "__iter__")


def _broadcast_scalars(data):
    """Polars' dict constructor: a scalar value is repeated to the other columns' length."""
    if not any(_is_scalar_value(v) for v in data.values()):
        return data
    lengths = [len(v) for v in data.values() if not _is_scalar_value(v) and hasattr(v, "__len__")]
    n = max(lengths) if lengths else 1
    return {k: ([v] * n if _is_scalar_value(v) else v) for k, v in data.items()}


def _columns_of_rows(rows, items) -> dict:
    """Rows given as mappings as columns: the schema's names when given (a name no row has is
    an all-null column; keys outside the schema are dropped), else every key in order of
    first appearance; a None row is a row of nulls (Polars)."""
    names: list = [n for n, _ in items or ()]
    if not names:
        seen = set()
        for row in rows:
            for k in row or ():
                if k not in seen:
                    seen.add(k)
                    names.append(k)
    return {n: [None if row is None else row.get(n) for row in rows] for n in names}


def frame_from_data(data, schema=None):
    """A native frame from anything frazil.DataFrame accepts."""
    from frazil.dataframe import DataFrame
    from frazil.series import Series

    items = _schema_items(schema)
    if data is None or (isinstance(data, (Mapping, list, tuple)) and len(data) == 0):
        if not items:
            return _frazil.PyDataFrame([])
        cols = []
        for name, dtype in items:
            cols.append(_frazil.PyColumn.from_values(name, [], None if dtype is None else to_native(dtype)))
        return _frazil.PyDataFrame(cols)
    if isinstance(data, DataFrame):
        return _apply_schema(data._df, items)
    if isinstance(data, Mapping):
        dtypes = dict(items) if items else {}
        names = [n for n, _ in items or ()]
        if items and names != list(data.keys()):
            if sorted(names, key=str) == sorted(data.keys(), key=str):
                data = {n: data[n] for n in names}  # the same names in the schema's order
            elif isinstance(schema, Mapping) or len(items) != len(data):
                if not isinstance(schema, Mapping):
                    raise ValueError(f"dimensions of columns arg ({len(items)}) must match data dimensions "
                                     f"({len(data)})")
                raise ValueError("the given column-schema names do not match the data dictionary")
            else:
                # A list of other names renames the columns positionally (Polars).
                data = {n: v for n, v in zip(names, data.values())}
            dtypes = dict(items)
        data = _broadcast_scalars(data)
        cols = [column_from_values(str(name), values, dtypes.get(name)) for name, values in data.items()]
        return _frazil.PyDataFrame(cols)
    if is_pandas_frame(data):
        import pyarrow as pa

        table = pa.Table.from_pandas(data, preserve_index=False)
        return _apply_schema(frame_from_arrow(table), items)
    if hasattr(data, "__arrow_c_stream__") or hasattr(data, "__arrow_c_array__"):
        return _apply_schema(frame_from_arrow(data), items)
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        if all(isinstance(s, Series) for s in data):
            return _apply_schema(_frazil.PyDataFrame([s._col for s in data]), items)
        if all(isinstance(r, Mapping) or r is None for r in data) and any(r is not None for r in data):
            return frame_from_data(_columns_of_rows(data, items), schema)
        if not any(isinstance(v, (Mapping, Series)) or (isinstance(v, Sequence) and not isinstance(v, (str, bytes)))
                   for v in data):
            # A flat sequence of values: one column (Polars).
            if len(items or ()) > 1:
                from frazil.exceptions import ShapeError

                raise ShapeError(f"the schema has {len(items)} columns but the data is one column of values")
            name, dtype = items[0] if items else ("column_0", None)
            return _frazil.PyDataFrame([column_from_values(str(name), list(data), dtype)])
    raise TypeError(f"cannot build a DataFrame from an object of type {type(data).__name__}")
