"""LazyFrame and DataFrame methods composed from the core operations, as Polars composes them.

Polars writes most frame methods as a select, with_columns, filter or sort of column
expressions (`LazyFrame.sum()` is `select(pl.all().sum())`), and most DataFrame methods as
the LazyFrame method collected. The same here: `LAZY_METHODS` are installed on LazyFrame,
and every Polars DataFrame method that Polars derives from LazyFrame is installed on
DataFrame as `self.lazy().<method>(...).collect()`. A method a class defines itself wins.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

def _columns(lf: Any, subset: Any) -> list[str]:
    if subset is None:
        return lf.collect_schema().names()
    return [subset] if isinstance(subset, str) else list(subset)


# ---------------------------------------------------------------- LazyFrame methods


def _all_columns(name: str, doc: str) -> Callable[..., Any]:
    """A method that is `select(pl.all().<name>(...))`."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        from frazil.functions import all as all_columns

        return self.select(getattr(all_columns(), name)(*args, **kwargs))

    method.__name__ = name
    method.__doc__ = doc
    return method


def _numeric_reduce(name: str, *, temporal: bool, boolean: bool = True) -> Callable[..., Any]:
    """A reduction of the numeric (and, where it has a meaning, temporal) columns; other
    columns give a null of their dtype, as Polars' frame reductions do."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        from frazil.datatypes import Boolean
        from frazil.functions import col, lit

        exprs = []
        for n, t in self.collect_schema().items():
            if t.is_numeric() or (boolean and t == Boolean) or (temporal and t.is_temporal()):
                exprs.append(getattr(col(n), name)(*args, **kwargs))
            else:
                exprs.append(lit(None).cast(t).alias(n))
        return self.select(*exprs)

    method.__name__ = name
    method.__doc__ = f"One row: the {name} of every numeric column (null for the others)."
    return method


def cast(self: Any, dtypes: Any, *, strict: bool = True) -> Any:
    """Columns cast: one dtype for all, or a mapping of column name (or dtype) to dtype."""
    from collections.abc import Mapping

    from frazil.functions import col

    schema = self.collect_schema()
    if not isinstance(dtypes, Mapping):
        return self.with_columns(*[col(n).cast(dtypes, strict=strict) for n in schema.names()])
    exprs = []
    for key, dtype in dtypes.items():
        if isinstance(key, str):
            exprs.append(col(key).cast(dtype, strict=strict))
        else:
            exprs += [col(n).cast(dtype, strict=strict) for n, t in schema.items() if t == key]
    return self.with_columns(*exprs) if exprs else self


def clear(self: Any, n: int = 0) -> Any:
    """A frame of this schema with n rows of nulls (none by default)."""
    if n == 0:
        return self.head(0)
    return self.collect().clear(n).lazy()


def clone(self: Any) -> Any:
    """The same query (plans are immutable: nothing is copied)."""
    return type(self)._from_native(self._ldf)


def count(self: Any) -> Any:
    """One row: the number of non-null values of every column."""
    from frazil.functions import all as all_columns

    return self.select(all_columns().count())


def drop_nans(self: Any, subset: Any = None) -> Any:
    """The rows without NaN in the float columns of subset (all columns by default)."""
    from frazil.functions import col

    schema = self.collect_schema()
    names = [n for n in _columns(self, subset) if schema[n].is_float()]
    if not names:
        return self
    keep = None
    for n in names:
        term = col(n).is_nan().not_().fill_null(True)
        keep = term if keep is None else keep & term
    return self.filter(keep)


def fill_nan(self: Any, value: Any) -> Any:
    """NaN in the float columns replaced by value."""
    from frazil.functions import col

    schema = self.collect_schema()
    exprs = [col(n).fill_nan(value) for n, t in schema.items() if t.is_float()]
    return self.with_columns(*exprs) if exprs else self


def fill_null(self: Any, value: Any = None, strategy: str | None = None, limit: int | None = None, *,
              matches_supertype: bool = True) -> Any:
    """Nulls filled with value (in the columns whose dtype it fits, as Polars' matches_supertype)
    or by strategy."""
    from frazil.datatypes import Boolean, Null, String
    from frazil.expr import Expr
    from frazil.functions import col

    schema = self.collect_schema()
    if value is not None and not isinstance(value, Expr):
        def fits(t: Any) -> bool:
            if t == Null:
                return True
            if isinstance(value, bool):
                return t == Boolean
            if isinstance(value, (int, float)):
                return t.is_numeric()
            if isinstance(value, str):
                return t == String
            return True

        names = [n for n, t in schema.items() if fits(t)]
    else:
        names = schema.names()
    kwargs = {} if strategy is None else {"strategy": strategy}
    if limit is not None:
        kwargs["limit"] = limit
    exprs = [col(n).fill_null(value, **kwargs) if value is not None else col(n).fill_null(**kwargs) for n in names]
    return self.with_columns(*exprs) if exprs else self


def pipe(self: Any, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """function(self, *args, **kwargs): chains a user function into a query."""
    return function(self, *args, **kwargs)


def remove(self: Any, *predicates: Any, **constraints: Any) -> Any:
    """The rows for which the predicates (combined with &) are not true: rows where they are
    null are kept, as Polars' remove. Predicates are read as filter reads them."""
    from frazil import predicates as P

    names = (lambda: self.collect_schema().names()) if hasattr(self, "collect_schema") else (lambda: self.columns)
    parsed = P.parse(predicates, constraints, names, invert=True)
    if parsed is P.KEEP_ALL:
        return self
    if parsed is P.DROP_ALL:
        return self.clear()
    combined = parsed[0]
    for t in parsed[1:]:
        combined = combined & t
    return self.filter(combined.not_().fill_null(True))


def reverse(self: Any) -> Any:
    """The rows in reverse order."""
    from frazil.functions import all as all_columns

    return self.select(all_columns().reverse())


def shift(self: Any, n: int = 1, *, fill_value: Any = None) -> Any:
    """Every column shifted by n rows (filled with fill_value or nulls)."""
    from frazil.functions import all as all_columns

    return self.select(all_columns().shift(n, fill_value=fill_value))


def _by_list(by: Any) -> list:
    return [by] if isinstance(by, str) or not isinstance(by, Sequence) else list(by)


def top_k(self: Any, k: int, *, by: Any, reverse: bool | Sequence[bool] = False) -> Any:
    """The k rows with the largest values of by (smallest with reverse=True), nulls last."""
    by = _by_list(by)
    rev = [reverse] * len(by) if isinstance(reverse, bool) else list(reverse)
    return self.sort(*by, descending=[not r for r in rev], nulls_last=True, maintain_order=True).head(k)


def bottom_k(self: Any, k: int, *, by: Any, reverse: bool | Sequence[bool] = False) -> Any:
    """The k rows with the smallest values of by (largest with reverse=True), nulls last."""
    by = _by_list(by)
    rev = [reverse] * len(by) if isinstance(reverse, bool) else list(reverse)
    return self.sort(*by, descending=list(rev), nulls_last=True, maintain_order=True).head(k)


def unpivot(self: Any, on: Any = None, *, index: Any = None, variable_name: str | None = None,
            value_name: str | None = None) -> Any:
    """Wide to long: one row per (index row, `on` column), the column's name in variable_name
    and its value (at the columns' common supertype) in value_name."""
    from frazil.functions import coalesce, col, concat, lit

    names = self.collect_schema().names()
    index = [] if index is None else _columns(self, index)
    on = [n for n in names if n not in index] if on is None else _columns(self, on)
    variable_name = variable_name or "variable"
    value_name = value_name or "value"
    if not on:
        return self.select(*[col(i) for i in index], lit(None).cast(str).alias(variable_name)).head(0)
    # The values' dtype: the supertype coalesce resolves for the `on` columns.
    value_dtype = self.select(coalesce(*[col(n) for n in on]).alias(value_name)).collect_schema()[value_name]
    parts = [self.select(*[col(i) for i in index], lit(n).alias(variable_name),
                         col(n).cast(value_dtype).alias(value_name)) for n in on]
    return concat(parts)


_SHOW_OPTIONS = ("decimal_separator", "thousands_separator", "float_precision", "fmt_float", "fmt_str_lengths",
                 "fmt_table_cell_list_len", "tbl_cell_alignment", "tbl_cell_numeric_alignment", "tbl_cols",
                 "tbl_column_data_type_inline", "tbl_dataframe_shape_below", "tbl_formatting",
                 "tbl_hide_column_data_types", "tbl_hide_column_names", "tbl_hide_dtype_separator",
                 "tbl_hide_dataframe_shape", "tbl_width_chars")


def show(self: Any, limit: int | None = 5, *, ascii_tables: bool | None = None, decimal_separator: str | None = None,
         thousands_separator: str | bool | None = None, float_precision: int | None = None, fmt_float: Any = None,
         fmt_str_lengths: int | None = None, fmt_table_cell_list_len: int | None = None,
         tbl_cell_alignment: Any = None, tbl_cell_numeric_alignment: Any = None, tbl_cols: int | None = None,
         tbl_column_data_type_inline: bool | None = None, tbl_dataframe_shape_below: bool | None = None,
         tbl_formatting: Any = None, tbl_hide_column_data_types: bool | None = None,
         tbl_hide_column_names: bool | None = None, tbl_hide_dtype_separator: bool | None = None,
         tbl_hide_dataframe_shape: bool | None = None, tbl_width_chars: int | None = None,
         trim_decimal_zeros: bool | None = True) -> None:
    """Prints the first `limit` rows (all with None; all but the last -limit when negative),
    with the given display options of pl.Config applied while printing. A LazyFrame collects
    its first `limit` rows and shows them as a DataFrame (limit=None is refused there)."""
    from frazil.config import Config

    given = dict(locals())
    display = {k: given[k] for k in _SHOW_OPTIONS}
    if hasattr(self, "collect"):
        if limit is None:
            raise ValueError("LazyFrame.show needs a limit (limit=None would collect the whole query)")
        self.head(limit).collect().show(limit, ascii_tables=ascii_tables, trim_decimal_zeros=trim_decimal_zeros,
                                        **display)
        return
    frame = self if limit is None else self.head(limit)
    rows = -1 if limit is None else frame.height
    if ascii_tables is not None and tbl_formatting is not None:
        raise ValueError("Can not set `ascii_tables` and `tbl_formatting` at the same time.")
    if ascii_tables is not None:
        display["tbl_formatting"] = "ASCII_FULL_CONDENSED" if ascii_tables else "UTF8_FULL_CONDENSED"
    options = {k: v for k, v in display.items() if v is not None}
    with Config(tbl_rows=rows, trim_decimal_zeros=trim_decimal_zeros, **options):
        print(frame)


def cache(self: Any) -> Any:
    """This query: frazil finds the shared subplans to cache itself (comm_subplan_elim)."""
    return self


LAZY_METHODS: dict[str, Any] = {
    "bottom_k": bottom_k, "cache": cache, "cast": cast, "clear": clear, "clone": clone, "count": count,
    "drop_nans": drop_nans, "fill_nan": fill_nan, "fill_null": fill_null, "pipe": pipe, "remove": remove,
    "reverse": reverse, "shift": shift, "show": show, "top_k": top_k, "unpivot": unpivot,
    "max": _all_columns("max", "One row: the largest value of every column."),
    "min": _all_columns("min", "One row: the smallest value of every column."),
    "null_count": _all_columns("null_count", "One row: the number of nulls of every column."),
    "mean": _numeric_reduce("mean", temporal=True), "median": _numeric_reduce("median", temporal=True),
    "quantile": _numeric_reduce("quantile", temporal=True, boolean=False),
    "sum": _numeric_reduce("sum", temporal=False), "std": _numeric_reduce("std", temporal=False),
    "var": _numeric_reduce("var", temporal=False),
    "gather_every": _all_columns("gather_every", "Every n-th row, from offset."),
    "interpolate": _all_columns("interpolate", "Nulls between values interpolated in every column."),
}

# Polars' DataFrame methods that Polars derives from LazyFrame (collected).
DATAFRAME_FROM_LAZY = (
    "bottom_k", "count", "drop_nans", "fill_nan", "fill_null", "gather_every", "interpolate", "max", "mean",
    "median", "min", "null_count", "quantile", "remove", "reverse", "shift", "std", "sum", "top_k", "unpivot",
    "var",
)


def _collected(name: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.lazy(), name)(*args, **kwargs).collect()

    method.__name__ = name
    return method


# ---------------------------------------------------------------- DataFrame-only methods


def _from_series(frame_cls: type, columns: list) -> Any:
    from frazil import _frazil

    return frame_cls._from_native(_frazil.PyDataFrame([s._col for s in columns]))


def get_column_index(self: Any, name: str) -> int:
    """The position of column `name`."""
    from frazil.exceptions import ColumnNotFoundError

    try:
        return self.columns.index(name)
    except ValueError:
        raise ColumnNotFoundError(f'"{name}" not found') from None


def insert_column(self: Any, index: int, column: Any) -> Any:
    """Inserts a Series (or a named expression over this frame) at position index, in place."""
    from frazil.series import Series

    # A negative index counts from the end as Python's list.insert does (-1: before the last).
    position = self.width + index if index < 0 else index
    if not 0 <= position <= self.width:
        raise IndexError(f"column index {index} is out of range (frame has {self.width} columns)")
    index = position
    if not isinstance(column, Series):
        column = self.select(column).to_series(0)
    columns = self.get_columns()
    columns.insert(index, column)
    self._df = _from_series(type(self), columns)._df
    return self


def replace_column(self: Any, index: int, column: Any) -> Any:
    """Replaces the column at index by a Series, in place."""
    columns = self.get_columns()
    columns[index] = column
    self._df = _from_series(type(self), columns)._df
    return self


def drop_in_place(self: Any, name: str) -> Any:
    """Removes column `name` from this frame and returns it."""
    out = self.get_column(name)
    self._df = _from_series(type(self), [c for c in self.get_columns() if c.name != name])._df
    return out


def hstack(self: Any, columns: Any, *, in_place: bool = False) -> Any:
    """This frame with the given Series (or another frame's columns) added on the right."""
    added = columns.get_columns() if hasattr(columns, "get_columns") else list(columns)
    out = _from_series(type(self), self.get_columns() + added)
    if in_place:
        self._df = out._df
        return self
    return out


def extend(self: Any, other: Any) -> Any:
    """Appends other's rows to this frame, in place."""
    self._df = self.vstack(other)._df
    return self


def iter_columns(self: Any) -> Any:
    """The columns, as Series, one at a time."""
    return iter(self.get_columns())


def iter_slices(self: Any, n_rows: int = 10_000) -> Any:
    """The frame in slices of n_rows rows."""
    for offset in range(0, self.height, n_rows):
        yield self.slice(offset, n_rows)


def n_unique(self: Any, subset: Any = None) -> int:
    """The number of distinct rows (over subset's columns)."""
    return self.unique(subset=subset).height


def partition_by(self: Any, by: Any, *more_by: Any, maintain_order: bool = True, include_key: bool = True,
                 as_dict: bool = False) -> Any:
    """One frame per distinct value of the key columns (a dict keyed by tuples with as_dict)."""
    from frazil.functions import col, lit

    if as_dict and not include_key and not maintain_order:
        # (Polars: the dict's keys would not say which group is which frame's.)
        raise ValueError("cannot use `partition_by` with `maintain_order=False, include_key=False, as_dict=True`")
    keys = _by_list(by) + list(more_by)
    groups = self.select(*[col(k) for k in keys]).unique(maintain_order=maintain_order)
    out = {}
    for row in groups.rows():
        pred = None
        for k, v in zip(keys, row):
            term = col(k).is_null() if v is None else col(k) == lit(v)
            pred = term if pred is None else pred & term
        part = self.filter(pred)
        out[row] = part if include_key else part.drop(*keys)
    return out if as_dict else list(out.values())


def to_numpy(self: Any, *, order: str = "fortran", writable: bool = False, allow_copy: bool = True) -> Any:
    """The values as a 2-D NumPy array (columns stacked; nulls in numeric columns become NaN)."""
    import numpy as np

    columns = [s.to_numpy() for s in self.get_columns()]
    if not columns:
        return np.empty((self.height, 0))
    return np.asfortranarray(np.column_stack(columns)) if order == "fortran" else np.column_stack(columns)


def transpose(self: Any, *, include_header: bool = False, header_name: str = "column",
              column_names: Any = None) -> Any:
    """Rows become columns (values at their common supertype)."""
    import itertools

    frame_cls = type(self)
    names = None
    if isinstance(column_names, str):
        names = [str(v) for v in self.get_column(column_names).to_list()]
        self = self.drop(column_names)
    elif column_names is not None:
        # One name per row, taken from any iterable (a generator may be endless, as Polars allows).
        names = list(itertools.islice(column_names, self.height))
        if len(names) < self.height:
            raise ValueError(f"expected {self.height} column names, got {len(names)}")
    rows = self.rows()
    names = names if names is not None else [f"column_{i}" for i in range(len(rows))]
    data = {n: list(rows[i]) for i, n in enumerate(names)}
    out = frame_cls(data) if data else frame_cls({})
    if include_header:
        header = frame_cls({header_name: self.columns})
        out = hstack(header, out.get_columns()) if data else header
    return out


def product(self: Any) -> Any:
    """One row: the product of every column."""
    from frazil.functions import all as all_columns

    return self.select(all_columns().product())


def fold(self: Any, operation: Callable[[Any, Any], Any]) -> Any:
    """The columns combined left to right with operation (Series -> Series)."""
    columns = self.get_columns()
    acc = columns[0]
    for s in columns[1:]:
        acc = operation(acc, s)
    return acc


def _horizontal(name: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        import frazil.functions as F

        # Named after the reduction ("sum", "max", ...), as Polars names the frame method's result.
        out = getattr(F, name)(F.all(), *args, **kwargs).alias(name.removesuffix("_horizontal"))
        return self.select(out).to_series(0)

    method.__name__ = name
    method.__doc__ = f"One Series: `pl.{name}` over every column."
    return method


def shrink_to_fit(self: Any, *, in_place: bool = False) -> Any:
    """This frame (frazil allocates its buffers to size)."""
    return self if in_place else self.clone()


DATAFRAME_METHODS: dict[str, Any] = {
    "get_column_index": get_column_index, "insert_column": insert_column, "replace_column": replace_column,
    "drop_in_place": drop_in_place, "hstack": hstack, "extend": extend, "iter_columns": iter_columns,
    "iter_slices": iter_slices, "n_unique": n_unique, "partition_by": partition_by, "to_numpy": to_numpy,
    "transpose": transpose, "product": product, "fold": fold, "shrink_to_fit": shrink_to_fit,
}
# pl.<name>_horizontal(pl.all()) where frazil has the function.
HORIZONTAL = ("max_horizontal", "min_horizontal", "sum_horizontal", "mean_horizontal")


def install(lazy_cls: type, frame_cls: type) -> None:
    """Adds the composed methods to LazyFrame and the collected forms to DataFrame."""
    for name, fn in LAZY_METHODS.items():
        if name in lazy_cls.__dict__:
            continue
        setattr(lazy_cls, name, fn)
    for name in DATAFRAME_FROM_LAZY:
        if name in frame_cls.__dict__ or not hasattr(lazy_cls, name):
            continue
        method = _collected(name)
        method.__doc__ = getattr(lazy_cls, name).__doc__
        setattr(frame_cls, name, method)
    for name, fn in DATAFRAME_METHODS.items():
        if name not in frame_cls.__dict__:
            setattr(frame_cls, name, fn)
    import frazil.functions as F

    for name in HORIZONTAL:
        if name not in frame_cls.__dict__ and callable(getattr(F, name, None)):
            setattr(frame_cls, name, _horizontal(name))
    if "pipe" not in frame_cls.__dict__:
        frame_cls.pipe = pipe
    if "show" not in frame_cls.__dict__:
        frame_cls.show = show
