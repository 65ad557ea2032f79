"""The eager DataFrame: named columns of equal length, held by the native module."""
from __future__ import annotations

from frazil import _args, _convert, _frazil
from frazil._convert import _StreamCapsule
from frazil.compat_level import CompatLevel, string_layout
from frazil.datatypes import DataType, Schema, from_native
from frazil.getitem import value_at
from frazil.series import Series


def _is_plain_iterable(data) -> bool:
    """An iterator, or an iterable that is no sequence, mapping, array, frame or Arrow data."""
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    if isinstance(data, Iterator):
        return not hasattr(data, "__arrow_c_stream__")
    return (isinstance(data, Iterable) and not isinstance(data, (Sequence, Mapping, str, bytes, set, frozenset))
            and not any(hasattr(data, a) for a in ("__array__", "__arrow_c_stream__", "__arrow_c_array__",
                                                   "_df", "_col", "to_pandas", "columns")))


def _oriented(data, schema, orient):
    """Rows or columns given as sequences of sequences, as a dict of columns (Polars'
    `orient`: "row", "col", or inferred from the schema's width); scalars in a dict of
    columns repeated to the other columns' length."""
    from collections.abc import Mapping, Sequence

    if isinstance(data, Mapping) and data:
        def is_scalar(v):
            return v is None or isinstance(v, (int, float, str, bool, bytes)) or type(v).__module__ == "datetime"

        lengths = [len(v) for v in data.values() if not is_scalar(v) and hasattr(v, "__len__")]
        if any(is_scalar(v) for v in data.values()):
            n = max(lengths) if lengths else 1
            return {k: ([v] * n if is_scalar(v) else v) for k, v in data.items()}
        return data

    if _is_plain_iterable(data):
        # A generator or other iterable: rows unless orient says columns (Polars).
        data, orient = list(data), orient or "row"
    if not isinstance(data, Sequence) or isinstance(data, (str, bytes)) or len(data) == 0:
        return data
    if not all(isinstance(r, (list, tuple)) for r in data):
        return data
    names = None
    if schema is not None:
        names = list(schema.keys()) if isinstance(schema, Mapping) else [
            s if isinstance(s, str) else s[0] for s in schema]
    width = len(data[0])
    if orient is None:
        orient = "row" if names is not None and len(names) == width and len(names) != len(data) else "col"
    if orient == "row":
        if any(len(r) != width for r in data):
            from frazil.exceptions import ShapeError

            raise ShapeError("rows of different lengths")
        names = names or [f"column_{i}" for i in range(width)]
        return {n: [r[i] for r in data] for i, n in enumerate(names)}
    names = names or [f"column_{i}" for i in range(len(data))]
    return {n: list(c) for n, c in zip(names, data)}


_NO_DEFAULT = object()


def _only_nulls_in(dtype) -> bool:
    """Whether a dtype can hold nothing but nulls (Null, or nested types built of it)."""
    from frazil.datatypes import Array, List, Null, Struct

    if isinstance(dtype, Null) or dtype == Null:
        return True
    if isinstance(dtype, (List, Array)):
        return _only_nulls_in(dtype.inner)
    if isinstance(dtype, Struct):
        return bool(dtype.fields) and all(_only_nulls_in(f.dtype) for f in dtype.fields)
    return False


def _in_bounds(index: int, length: int) -> int:
    """`index` (negative from the end) as a position, or Python's IndexError, as Polars."""
    if not -length <= index < length:
        raise IndexError(f"index {index} is out of bounds for sequence of length {length}")
    return index % length


class DataFrame:
    """A table of named, equally long columns, as Polars' DataFrame.

    ``data`` may be a dict of sequences (Python values, Series, pyarrow or numpy arrays),
    a sequence of Series or of dicts (rows), a pyarrow Table / RecordBatch, a Polars or
    pandas DataFrame, or any object with ``__arrow_c_stream__``. ``schema`` is an
    optional mapping (or sequence of pairs) of column name to dtype.
    """

    def __init__(self, data=None, schema=None, *, schema_overrides=None, strict=True, orient=None,
                 infer_schema_length=100, nan_to_null=False, height=None):
        from collections.abc import Mapping

        if height is not None and data is None and not schema:
            # A frame of no columns but `height` rows (Polars' height=).
            if height < 0:
                raise ValueError(f"`height` must not be negative, got {height}")
            self._df = _frazil.PyDataFrame.empty_with_height(height)
            return

        if orient not in (None, "row", "col"):
            raise ValueError(f"`orient` must be one of {{'col', 'row', None}}, got {orient!r}")
        if isinstance(data, Series):
            data = [data]  # one Series: a frame of that column (Polars)
        data = _oriented(data, schema, orient)
        if schema_overrides:
            # Overridden columns are built with their dtype where the data allows it.
            if schema is None and isinstance(data, Mapping):
                schema = [(k, schema_overrides.get(k)) for k in data]
            elif schema is not None:
                items = schema.items() if isinstance(schema, Mapping) else [
                    (e, None) if isinstance(e, str) else tuple(e) for e in schema]
                schema = [(k, schema_overrides.get(k, v)) for k, v in items]
        self._df = _convert.frame_from_data(data, schema)
        if schema_overrides:
            from frazil.datatypes import parse_into_dtype
            from frazil.functions import col

            casts = [col(k).cast(v) for k, v in schema_overrides.items()
                     if k in self.columns and self.schema[k] != parse_into_dtype(v)]
            if casts:
                self._df = self.lazy().with_columns(casts).collect()._df

    def __getattr__(self, name: str):
        # Only reached for a name the class lacks: Polars' notice for one it removed.
        from frazil.removed_api import missing_attribute

        missing_attribute(self, "DataFrame", name)

    @classmethod
    def _from_native(cls, native) -> DataFrame:
        df = cls.__new__(cls)
        df._df = native
        return df

    # ---- shape and schema -------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        """(height, width)."""
        return (self._df.height, self._df.width)

    @property
    def height(self) -> int:
        """The number of rows."""
        return self._df.height

    @property
    def width(self) -> int:
        """The number of columns."""
        return self._df.width

    @property
    def columns(self) -> list[str]:
        """The column names, in order."""
        return self._df.columns()

    @columns.setter
    def columns(self, names) -> None:
        names = list(names)
        if len(names) != self.width:
            from frazil.exceptions import ShapeError

            raise ShapeError(f"{len(names)} column names given for a frame of {self.width} columns")
        self._df = self.rename(dict(zip(self.columns, names)))._df

    @property
    def schema(self) -> Schema:
        """The column names and dtypes."""
        return Schema([(name, from_native(d)) for name, d in self._df.schema()])

    @property
    def dtypes(self) -> list[DataType]:
        """The column dtypes, in order."""
        return [from_native(d) for _, d in self._df.schema()]

    def collect_schema(self) -> Schema:
        """The schema (as LazyFrame.collect_schema)."""
        return self.schema

    def __len__(self) -> int:
        return self._df.height

    def is_empty(self) -> bool:
        """Whether the frame has no rows."""
        return self._df.height == 0

    def __contains__(self, name: str) -> bool:
        return name in self._df.columns()

    def n_chunks(self, strategy: str = "first"):
        """How many chunks the first column is made of (strategy='all': a list, one count per column)."""
        counts = [c.n_chunks() for c in self._df.get_columns()]
        if strategy == "all":
            return counts
        return counts[0] if counts else 0

    # ---- access -----------------------------------------------------------------------

    def get_column(self, name: str, *, default=_NO_DEFAULT) -> Series:
        """The column of that name as a Series (`default` when given and there is none)."""
        if default is not _NO_DEFAULT and name not in self.columns:
            return default
        return Series._from_native(self._df.column(name))

    def get_columns(self) -> list[Series]:
        """Every column as a Series."""
        return [Series._from_native(c) for c in self._df.get_columns()]

    def to_series(self, index: int = 0) -> Series:
        """The column at that position as a Series."""
        if not -self.width <= index < self.width:
            raise IndexError(f"index {index} is out of bounds for sequence of length {self.width}")
        return Series._from_native(self._df.column_at(index if index >= 0 else self.width + index))

    def _row_encode(self, *, unordered: bool = False, descending: list[bool] | None = None,
                    nulls_last: list[bool] | None = None) -> Series:
        """One order-preserving Binary key per row (frazil/row_encoding.py)."""
        from frazil.row_encoding import frame_row_encode

        return frame_row_encode(self, unordered=unordered, descending=descending, nulls_last=nulls_last)

    def __iter__(self):
        return iter(self.get_columns())

    def __reversed__(self):
        return reversed(self.get_columns())

    def _ipython_key_completions_(self) -> list[str]:
        return self.columns

    def __getitem__(self, key):
        """Rows, columns or one value, as Polars reads the key (frazil.getitem)."""
        from frazil.getitem import frame_item

        return frame_item(self, key)

    def head(self, n: int = 5) -> DataFrame:
        """The first n rows."""
        if n > _args.UINT64[1]:
            raise OverflowError("int too big to convert")
        n = max(0, self.height + n) if n < 0 else min(n, self.height)
        return DataFrame._from_native(self._df.head(n))

    def tail(self, n: int = 5) -> DataFrame:
        """The last n rows."""
        if n > _args.UINT64[1]:
            raise OverflowError("int too big to convert")
        n = max(0, self.height + n) if n < 0 else min(n, self.height)
        return DataFrame._from_native(self._df.slice(self.height - n, n))

    def limit(self, n: int = 5) -> DataFrame:
        """Another name for head()."""
        return self.head(n)

    def slice(self, offset: int, length: int | None = None) -> DataFrame:
        """length rows starting at offset (zero-copy)."""
        _args.int_in(offset, _args.INT64)
        if length is None:
            length = self.height
        elif length < 0:
            # Polars: a negative length stops that many rows before the end.
            length = self.height - offset + length
            if length < 0:
                raise OverflowError("can't convert negative int to unsigned")
        start, n = _args.slice_window(self.height, offset, length)
        return DataFrame._from_native(self._df.slice(start, n))

    def rechunk(self) -> DataFrame:
        """The same frame with each column in one contiguous chunk."""
        return DataFrame._from_native(self._df.rechunk())

    def clone(self) -> DataFrame:
        """A copy (cheap: the buffers are shared and immutable)."""
        return DataFrame._from_native(self._df)

    def item(self, row: int | None = None, column: int | str | None = None):
        """The one value of a 1x1 frame, or the value at (row, column)."""
        if row is None and column is None:
            if self.shape != (1, 1):
                raise ValueError(
                    'can only call `.item()` without "row" or "column" values if the DataFrame '
                    f"has a single element; shape={self.shape}"
                )
            return value_at(Series._from_native(self._df.column_at(0)), 0)
        if row is None or column is None:
            raise ValueError("cannot call `.item()` with only one of `row` or `column`")
        if isinstance(column, str):
            col = self._df.column(column)
        else:
            col = self._df.column_at(_in_bounds(column, self.width))
        return value_at(Series._from_native(col), _in_bounds(row, self.height))

    def row(self, index: int | None = None, *, by_predicate=None, named: bool = False):
        """The row at index (or the one row `by_predicate` selects) as a tuple, a dict with
        named=True; a frame of one row needs neither."""
        from frazil.exceptions import NoRowsReturnedError, OutOfBoundsError, TooManyRowsReturnedError
        from frazil.expr import Expr

        if index is None and by_predicate is None:
            if self.height != 1:
                raise ValueError('can only call `.row()` without "index" or "by_predicate" values '
                                 f"if the DataFrame has a single row; shape={self.shape!r}")
            index = 0
        elif index is not None and by_predicate is not None:
            raise ValueError("cannot set both 'index' and 'by_predicate'; mutually exclusive")
        elif isinstance(index, Expr):
            raise TypeError("expressions should be passed to the `by_predicate` parameter")
        if index is not None:
            if not -self.height <= index < self.height:
                raise OutOfBoundsError(f"index {index} is out of bounds for sequence of length {self.height}")
            values = tuple(c.get(index % self.height) for c in self._df.get_columns())
        else:
            if not isinstance(by_predicate, Expr):
                raise TypeError(f"expected `by_predicate` to be an expression, got {type(by_predicate).__name__!r}")
            rows = self.filter(by_predicate).rows()
            if len(rows) > 1:
                raise TooManyRowsReturnedError(f"predicate <{by_predicate!s}> returned {len(rows)} rows")
            if not rows:
                raise NoRowsReturnedError(f"predicate <{by_predicate!s}> returned no rows")
            values = rows[0]
        return dict(zip(self.columns, values)) if named else values

    def rows(self, *, named: bool = False) -> list:
        """Every row as a tuple (dicts with named=True)."""
        columns = [c.to_list() for c in self._df.get_columns()]
        if named:
            names = self.columns
            return [dict(zip(names, r)) for r in zip(*columns)]
        if not columns:
            return []
        return list(zip(*columns))

    def iter_rows(self, *, named: bool = False, buffer_size: int = 512):
        """Iterates over the rows as tuples (dicts with named=True), converting `buffer_size`
        rows to Python at a time (all at once when 0)."""
        step = buffer_size if buffer_size and buffer_size > 0 else max(self.height, 1)
        for offset in range(0, self.height, step):
            yield from self.slice(offset, step).rows(named=named)

    def to_dict(self, *, as_series: bool = True) -> dict:
        """The columns as a name -> Series (or list, with as_series=False) mapping."""
        if as_series:
            return {s.name: s for s in self.get_columns()}
        return {c.name: c.to_list() for c in self._df.get_columns()}

    def to_dicts(self) -> list[dict]:
        """The rows as a list of name -> value dicts."""
        return self.rows(named=True)

    def equals(self, other: DataFrame, *, null_equal: bool = True) -> bool:
        """Whether both frames have the same schema and values (nulls equal to nulls)."""
        if not isinstance(other, DataFrame):
            raise TypeError(f"expected `other` to be a 'DataFrame', not {type(other).__name__!r}")
        return self._df.equals(other._df)

    # ---- interchange ------------------------------------------------------------------

    def __arrow_c_stream__(self, requested_schema=None):
        """The Arrow PyCapsule stream of the frame: string and binary views unless the
        consumer's ``requested_schema`` asks for (large) strings or binary."""
        return self._df.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self):
        return self._df.__arrow_c_schema__()

    def to_arrow(self, *, compat_level: CompatLevel | None = None):
        """The frame as a pyarrow Table.

        Numbers, booleans, temporals and lists share frazil's memory. Strings and binary
        are copied into ``large_string`` / ``large_binary`` by default (the oldest
        compat level, as Polars does), which every pyarrow compute function accepts;
        ``compat_level=CompatLevel.newest()`` shares them as ``string_view`` instead.
        """
        import pyarrow as pa

        capsule = self._df.__arrow_c_stream__(None, string_layout(compat_level))
        return pa.RecordBatchReader.from_stream(_StreamCapsule(capsule)).read_all()

    def to_polars(self):
        """A Polars DataFrame sharing frazil's memory."""
        import polars as pl

        return pl.DataFrame(self)

    def to_pandas(self, *, use_pyarrow_extension_array: bool = False, **kwargs):
        """The frame as a pandas DataFrame, converted by pyarrow.

        Dates become ``datetime64`` columns (not Python objects), as Polars gives them;
        ``use_pyarrow_extension_array=True`` keeps every column Arrow-backed
        (``pd.ArrowDtype``). Other keyword arguments go to ``pyarrow.Table.to_pandas``.
        """
        if self.width == 0:
            import pandas as pd

            return pd.DataFrame(index=range(self.height))
        return _convert.arrow_to_pandas(self.to_arrow(), use_pyarrow_extension_array, kwargs)

    # ---- display ----------------------------------------------------------------------

    def __str__(self) -> str:
        from frazil import frame_table
        from frazil.config import display_limits

        if frame_table.layout_options_set():
            return frame_table.render(self.shape, self._df.display_cells(*display_limits()))
        return self._df.to_string(*display_limits())

    __repr__ = __str__

    def _repr_html_(self, *, _from_series: bool = False) -> str:
        from frazil.frame_html import frame_html

        return frame_html(self, from_series=_from_series)


    # ---- lazy operations, run eagerly (each one is `self.lazy().<op>(...).collect()`) ----

    def cast(self, dtypes, *, strict: bool = True) -> DataFrame:
        """The frame with columns cast: one dtype for all, or a mapping of name (or dtype) to dtype
        (LazyFrame.cast, collected)."""
        return self.lazy().cast(dtypes, strict=strict).collect()

    def clear(self, n: int = 0) -> DataFrame:
        """A frame of this schema with n rows of nulls (none by default)."""
        from frazil.functions import col

        empty = DataFrame._from_native(self._df.head(0))
        if n == 0:
            return empty
        return DataFrame({name: [None] * n for name in self.columns}).lazy().select(
            *[col(name).cast(t) for name, t in self.schema.items()]).collect()

    def sql(self, query: str, *, table_name: str = "self") -> DataFrame:
        """Runs SQL over this frame, registered as `table_name`."""
        from frazil.sql import SQLContext

        return SQLContext({table_name: self}, eager=True).execute(query)

    def lazy(self):
        """A LazyFrame over this frame, to build a query on it."""
        from frazil.lazyframe import LazyFrame

        return LazyFrame._from_native(_frazil.PyLazyFrame.from_frame(self._df))

    def select(self, *exprs, **named_exprs) -> DataFrame:
        """A frame of the given expressions only (runs select() on the lazy frame)."""
        return self.lazy().select(*exprs, **named_exprs).collect()

    def with_columns(self, *exprs, **named_exprs) -> DataFrame:
        """The frame with the given expressions added or replacing columns."""
        return self.lazy().with_columns(*exprs, **named_exprs).collect()

    def filter(self, *predicates, **constraints) -> DataFrame:
        """The rows for which every predicate is true."""
        return self.lazy().filter(*predicates, **constraints).collect()

    def drop_nulls(self, subset=None) -> DataFrame:
        """The rows without a null in subset (all columns by default)."""
        return self.lazy().drop_nulls(subset).collect()

    def sort(self, by, *more_by, descending=False, nulls_last=False, maintain_order=False,
             multithreaded=True) -> DataFrame:
        """The rows ordered by the given columns or expressions."""
        return self.lazy().sort(by, *more_by, descending=descending, nulls_last=nulls_last,
                                maintain_order=maintain_order).collect()

    def rolling(self, index_column, *, period, offset=None, closed: str = "right", group_by=None):
        """Polars' rolling group_by: `.agg(...)` gives the aggregations over each row's window."""
        return _EagerRolling(self.lazy().rolling(index_column, period=period, offset=offset, closed=closed,
                                                 group_by=group_by))

    def set_sorted(self, column, *more_columns, descending=False, nulls_last=False):
        """A hint Polars uses for fast paths; frazil does not need it (the frame is unchanged)."""
        return self

    def group_by(self, *by, maintain_order: bool = False, **named_by):
        """Groups the rows by the given keys; aggregate with .agg(...)."""
        return GroupBy(self, by, named_by, maintain_order)

    def join(self, other: DataFrame, on=None, how: str = "inner", **kwargs) -> DataFrame:
        """Joins with another frame on equal keys (see LazyFrame.join)."""
        if not isinstance(other, DataFrame):
            raise TypeError(f"expected `other` to be a 'DataFrame', not {type(other).__name__!r}")
        return self.lazy().join(other.lazy(), on=on, how=how, **kwargs).collect()

    def unique(self, subset=None, *, keep: str = "any", maintain_order: bool = False) -> DataFrame:
        """The rows with distinct values of subset."""
        return self.lazy().unique(subset, keep=keep, maintain_order=maintain_order).collect()

    def rename(self, mapping, *, strict: bool = True) -> DataFrame:
        """The frame with columns renamed."""
        return self.lazy().rename(mapping, strict=strict).collect()

    def drop(self, *columns, strict: bool = True) -> DataFrame:
        """The frame without the given columns."""
        return self.lazy().drop(*columns, strict=strict).collect()

    def with_row_index(self, name: str = "index", offset: int = 0) -> DataFrame:
        """The frame with a first column counting the rows."""
        return self.lazy().with_row_index(name, offset).collect()

    def explode(self, columns, *more_columns, empty_as_null: bool = False, keep_nulls: bool = True) -> DataFrame:
        """Each element of the given List columns on a row of its own, the other columns repeated."""
        return self.lazy().explode(columns, *more_columns, empty_as_null=empty_as_null,
                                   keep_nulls=keep_nulls).collect()

    def write_csv(self, file=None, **kwargs):
        """Writes the frame as CSV (returns the text when no file is given)."""
        from frazil.io import write_csv

        return write_csv(self, file, **kwargs)

    def write_parquet(self, file, **kwargs) -> None:
        """Writes the frame as a Parquet file."""
        from frazil.io import write_parquet

        write_parquet(self, file, **kwargs)

    def write_ipc(self, file, **kwargs):
        from frazil.io import write_ipc

        return write_ipc(self, file, **kwargs)

    def write_ndjson(self, file=None, **kwargs):
        from frazil.io import write_ndjson

        return write_ndjson(self, file, **kwargs)

    def write_json(self, file=None):
        from frazil.io import write_json

        return write_json(self, file)

    def write_ipc_stream(self, file, **kwargs):
        from frazil.io import write_ipc_stream

        return write_ipc_stream(self, file, **kwargs)

    def vstack(self, other: DataFrame, *, in_place: bool = False) -> DataFrame:
        """This frame's rows followed by another's (same schema; chunks are kept, not copied);
        in_place: this frame becomes the result."""
        from frazil.functions import col, concat

        if not isinstance(other, DataFrame):
            raise TypeError(f"expected `other` to be a 'DataFrame', not {type(other).__name__!r}")
        # Columns of other that are null where this frame has a dtype (Null, List(Null), a
        # struct of nulls) take this frame's dtype, as Polars appends them.
        mine = self.schema
        casts = [col(n).cast(mine[n]) for n, t in other.schema.items()
                 if n in mine and t != mine[n] and _only_nulls_in(t)]
        if casts:
            other = other.with_columns(casts)
        out = concat([self, other])
        if in_place:
            self._df = out._df
            return self
        return out


class GroupBy:
    """The result of DataFrame.group_by: call .agg(...) or .len()."""

    def __init__(self, df: DataFrame, by, named_by, maintain_order: bool) -> None:
        self._lazy = df.lazy().group_by(*by, maintain_order=maintain_order, **named_by)
        self._df, self._by, self._named_by = df, by, named_by

    def __iter__(self):
        """(key tuple, frame of the group's rows) for each group, in order of first appearance
        (Polars' iteration over a GroupBy; the frames hold the original columns)."""
        keys, exprs = [], []
        for i, k in enumerate(list(self._by) + [e.alias(n) for n, e in self._named_by.items()]):
            for item in (k if isinstance(k, (list, tuple)) else [k]):
                if isinstance(item, str):
                    keys.append(item)
                else:
                    name = f"__frazil_key_{i}_{len(exprs)}"
                    exprs.append(item.alias(name))
                    keys.append(name)
        frame = self._df.with_columns(*exprs) if exprs else self._df
        hidden = [e for e in keys if e.startswith("__frazil_key_")]
        for key, part in frame.partition_by(keys, maintain_order=True, as_dict=True).items():
            yield key, part.drop(*hidden) if hidden else part

    def agg(self, *aggs, **named_aggs) -> DataFrame:
        """One row per group: the keys and the given aggregations."""
        return self._lazy.agg(*aggs, **named_aggs).collect()

    def len(self, name: str | None = None) -> DataFrame:
        """The number of rows of each group."""
        return self._lazy.len(name).collect()

    def count(self) -> DataFrame:
        """The number of rows of each group (as len())."""
        return self._lazy.count().collect()

    def sum(self) -> DataFrame:
        """The sum of every other column per group."""
        return self._lazy.sum().collect()

    def mean(self) -> DataFrame:
        """The mean of every other column per group."""
        return self._lazy.mean().collect()

    def min(self) -> DataFrame:
        """The smallest value of every other column per group."""
        return self._lazy.min().collect()

    def max(self) -> DataFrame:
        """The largest value of every other column per group."""
        return self._lazy.max().collect()

    def first(self, *, ignore_nulls: bool = False) -> DataFrame:
        """The first value (ignore_nulls: the first non-null one) of every other column per group."""
        return self._lazy.first(ignore_nulls=ignore_nulls).collect()

    def last(self, *, ignore_nulls: bool = False) -> DataFrame:
        """The last value (ignore_nulls: the last non-null one) of every other column per group."""
        return self._lazy.last(ignore_nulls=ignore_nulls).collect()

    def n_unique(self) -> DataFrame:
        """The number of distinct values of every other column per group."""
        return self._lazy.n_unique().collect()

    def median(self) -> DataFrame:
        """The median of every other column per group."""
        return self._lazy.median().collect()

    def quantile(self, quantile: float, interpolation: str = "nearest") -> DataFrame:
        """The given quantile of every other column per group."""
        return self._lazy.quantile(quantile, interpolation).collect()

    def all(self) -> DataFrame:
        """Every other column's values of each group, as a list."""
        return self._lazy.all().collect()

    def head(self, n: int = 5) -> DataFrame:
        """The first n rows of each group."""
        return self._lazy.head(n).collect()

    def tail(self, n: int = 5) -> DataFrame:
        """The last n rows of each group."""
        return self._lazy.tail(n).collect()

    def having(self, *predicates) -> GroupBy:
        """Only the groups for which every (aggregated) predicate holds, for the agg that follows."""
        out = GroupBy.__new__(GroupBy)
        out._lazy = self._lazy.having(*predicates)
        out._df, out._by, out._named_by = self._df, self._by, self._named_by
        return out


def from_dict(data, schema=None, *, schema_overrides=None, strict: bool = True):
    """A DataFrame from a mapping of column name to values."""
    return DataFrame(data, schema=schema, schema_overrides=schema_overrides)


def from_dicts(data, schema=None, *, schema_overrides=None, strict: bool = True, infer_schema_length=None):
    """A DataFrame from a sequence of rows given as mappings."""
    return DataFrame(list(data), schema=schema, schema_overrides=schema_overrides)


def from_arrow(data, schema=None):
    """A DataFrame from a pyarrow Table / RecordBatch / reader (or anything with
    ``__arrow_c_stream__``), or a Series from a pyarrow Array / ChunkedArray."""
    if _convert.is_pandas_frame(data):
        return DataFrame(data, schema=schema)
    mod = type(data).__module__ or ""
    name = type(data).__name__
    if mod.startswith("pyarrow") and name in ("Array", "ChunkedArray") or (
        mod.startswith("pyarrow") and name.endswith("Array")
    ):
        return Series._from_native(_convert.column_from_arrow(data, ""))
    return DataFrame._from_native(_convert._apply_schema(_convert.frame_from_arrow(data), _convert._schema_items(schema)))


class _EagerRolling:
    """`DataFrame.rolling(...)`: its `agg` collects the lazy rolling group_by."""

    def __init__(self, lazy) -> None:
        self._lazy = lazy

    def agg(self, *aggs, **named_aggs):
        return self._lazy.agg(*aggs, **named_aggs).collect()
