"""The eager DataFrame: named columns of equal length, held by the native module."""
from __future__ import annotations

from frazil import _convert, _frazil
from frazil.datatypes import DataType, Schema, from_native
from frazil.series import Series


class DataFrame:
    """A table of named, equally long columns, as Polars' DataFrame.

    ``data`` may be a dict of sequences (Python values, Series, pyarrow or numpy arrays),
    a sequence of Series or of dicts (rows), a pyarrow Table / RecordBatch, a Polars or
    pandas DataFrame, or any object with ``__arrow_c_stream__``. ``schema`` is an
    optional mapping (or sequence of pairs) of column name to dtype.
    """

    def __init__(self, data=None, schema=None):
        self._df = _convert.frame_from_data(data, schema)

    @classmethod
    def _from_native(cls, native) -> DataFrame:
        df = cls.__new__(cls)
        df._df = native
        return df

    # ---- shape and schema -------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        return (self._df.height, self._df.width)

    @property
    def height(self) -> int:
        return self._df.height

    @property
    def width(self) -> int:
        return self._df.width

    @property
    def columns(self) -> list[str]:
        return self._df.columns()

    @property
    def schema(self) -> Schema:
        return Schema([(name, from_native(d)) for name, d in self._df.schema()])

    @property
    def dtypes(self) -> list[DataType]:
        return [from_native(d) for _, d in self._df.schema()]

    def collect_schema(self) -> Schema:
        return self.schema

    def __len__(self) -> int:
        return self._df.height

    def is_empty(self) -> bool:
        return self._df.height == 0

    def __contains__(self, name: str) -> bool:
        return name in self._df.columns()

    def n_chunks(self, strategy: str = "first"):
        counts = [c.n_chunks() for c in self._df.get_columns()]
        if strategy == "all":
            return counts
        return counts[0] if counts else 0

    # ---- access -----------------------------------------------------------------------

    def get_column(self, name: str) -> Series:
        return Series._from_native(self._df.column(name))

    def get_columns(self) -> list[Series]:
        return [Series._from_native(c) for c in self._df.get_columns()]

    def to_series(self, index: int = 0) -> Series:
        return Series._from_native(self._df.column_at(index if index >= 0 else self.width + index))

    def __iter__(self):
        return iter(self.get_columns())

    def __getitem__(self, key):
        if isinstance(key, str):
            return self.get_column(key)
        if isinstance(key, slice):
            start, stop, step = key.indices(self.height)
            if step != 1:
                raise ValueError("slices with a step are not supported")
            return self.slice(start, max(0, stop - start))
        if isinstance(key, (list, tuple)) and all(isinstance(k, str) for k in key):
            return DataFrame._from_native(self._df.select(list(key)))
        if isinstance(key, int):
            return self.row(key)
        raise TypeError(f"cannot index a DataFrame with {type(key).__name__}")

    def head(self, n: int = 5) -> DataFrame:
        if n < 0:
            n = max(0, self.height + n)
        return DataFrame._from_native(self._df.head(n))

    def tail(self, n: int = 5) -> DataFrame:
        if n < 0:
            n = max(0, self.height + n)
        n = min(n, self.height)
        return DataFrame._from_native(self._df.slice(self.height - n, n))

    def limit(self, n: int = 5) -> DataFrame:
        return self.head(n)

    def slice(self, offset: int, length: int | None = None) -> DataFrame:
        if length is None:
            length = self.height
        return DataFrame._from_native(self._df.slice(offset, length))

    def rechunk(self) -> DataFrame:
        return DataFrame._from_native(self._df.rechunk())

    def clone(self) -> DataFrame:
        return DataFrame._from_native(self._df)

    def item(self, row: int | None = None, column: int | str | None = None):
        if row is None and column is None:
            if self.shape != (1, 1):
                raise ValueError(
                    'can only call `.item()` without "row" or "column" values if the DataFrame '
                    f"has a single element; shape={self.shape}"
                )
            return self._df.column_at(0).get(0)
        if row is None or column is None:
            raise ValueError("cannot call `.item()` with only one of `row` or `column`")
        col = self._df.column(column) if isinstance(column, str) else self._df.column_at(column)
        if row < 0:
            row += self.height
        return col.get(row)

    def row(self, index: int, *, named: bool = False):
        if index < 0:
            index += self.height
        values = tuple(c.get(index) for c in self._df.get_columns())
        return dict(zip(self.columns, values)) if named else values

    def rows(self, *, named: bool = False) -> list:
        columns = [c.to_list() for c in self._df.get_columns()]
        if named:
            names = self.columns
            return [dict(zip(names, r)) for r in zip(*columns)]
        if not columns:
            return []
        return list(zip(*columns))

    def iter_rows(self, *, named: bool = False):
        return iter(self.rows(named=named))

    def to_dict(self, *, as_series: bool = True) -> dict:
        if as_series:
            return {s.name: s for s in self.get_columns()}
        return {c.name: c.to_list() for c in self._df.get_columns()}

    def to_dicts(self) -> list[dict]:
        return self.rows(named=True)

    def equals(self, other: DataFrame, *, null_equal: bool = True) -> bool:
        if not isinstance(other, DataFrame):
            return False
        return self._df.equals(other._df)

    # ---- interchange ------------------------------------------------------------------

    def __arrow_c_stream__(self, requested_schema=None):
        return self._df.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self):
        return self._df.__arrow_c_schema__()

    def to_arrow(self):
        """A pyarrow Table sharing frazil's memory (strings as string_view)."""
        import pyarrow as pa

        return pa.RecordBatchReader.from_stream(self).read_all()

    def to_polars(self):
        """A Polars DataFrame sharing frazil's memory."""
        import polars as pl

        return pl.DataFrame(self)

    def to_pandas(self, **kwargs):
        """A pandas DataFrame, through pyarrow's conversion."""
        return self.to_arrow().to_pandas(**kwargs)

    # ---- display ----------------------------------------------------------------------

    def __str__(self) -> str:
        return self._df.to_string()

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html

        return "<pre>" + html.escape(str(self)) + "</pre>"


    # ---- lazy operations, run eagerly (each one is `self.lazy().<op>(...).collect()`) ----

    def lazy(self):
        from frazil.lazyframe import LazyFrame

        return LazyFrame._from_native(_frazil.PyLazyFrame.from_frame(self._df))

    def select(self, *exprs, **named_exprs) -> DataFrame:
        return self.lazy().select(*exprs, **named_exprs).collect()

    def with_columns(self, *exprs, **named_exprs) -> DataFrame:
        return self.lazy().with_columns(*exprs, **named_exprs).collect()

    def filter(self, *predicates, **constraints) -> DataFrame:
        return self.lazy().filter(*predicates, **constraints).collect()

    def drop_nulls(self, subset=None) -> DataFrame:
        return self.lazy().drop_nulls(subset).collect()

    def sort(self, by, *more_by, descending=False, nulls_last=False, maintain_order=False,
             multithreaded=True) -> DataFrame:
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
        return GroupBy(self, by, named_by, maintain_order)

    def join(self, other: DataFrame, on=None, how: str = "inner", **kwargs) -> DataFrame:
        return self.lazy().join(other.lazy(), on=on, how=how, **kwargs).collect()

    def unique(self, subset=None, *, keep: str = "any", maintain_order: bool = False) -> DataFrame:
        return self.lazy().unique(subset, keep=keep, maintain_order=maintain_order).collect()

    def rename(self, mapping, *, strict: bool = True) -> DataFrame:
        return self.lazy().rename(mapping, strict=strict).collect()

    def drop(self, *columns, strict: bool = True) -> DataFrame:
        return self.lazy().drop(*columns, strict=strict).collect()

    def with_row_index(self, name: str = "index", offset: int = 0) -> DataFrame:
        return self.lazy().with_row_index(name, offset).collect()

    def explode(self, columns, *more_columns, empty_as_null: bool = False, keep_nulls: bool = True) -> DataFrame:
        return self.lazy().explode(columns, *more_columns, empty_as_null=empty_as_null,
                                   keep_nulls=keep_nulls).collect()

    def write_csv(self, file=None, **kwargs):
        from frazil.io import write_csv

        return write_csv(self, file, **kwargs)

    def write_parquet(self, file, **kwargs) -> None:
        from frazil.io import write_parquet

        write_parquet(self, file, **kwargs)

    def vstack(self, other: DataFrame) -> DataFrame:
        from frazil.functions import concat

        return concat([self, other])


class GroupBy:
    """The result of DataFrame.group_by: call .agg(...) or .len()."""

    def __init__(self, df: DataFrame, by, named_by, maintain_order: bool) -> None:
        self._lazy = df.lazy().group_by(*by, maintain_order=maintain_order, **named_by)

    def agg(self, *aggs, **named_aggs) -> DataFrame:
        return self._lazy.agg(*aggs, **named_aggs).collect()

    def len(self, name: str | None = None) -> DataFrame:
        return self._lazy.len(name).collect()

    def count(self) -> DataFrame:
        return self._lazy.count().collect()

    def sum(self) -> DataFrame:
        return self._lazy.sum().collect()

    def mean(self) -> DataFrame:
        return self._lazy.mean().collect()

    def min(self) -> DataFrame:
        return self._lazy.min().collect()

    def max(self) -> DataFrame:
        return self._lazy.max().collect()

    def first(self) -> DataFrame:
        return self._lazy.first().collect()

    def last(self) -> DataFrame:
        return self._lazy.last().collect()

    def n_unique(self) -> DataFrame:
        return self._lazy.n_unique().collect()


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
