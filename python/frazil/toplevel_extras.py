"""Top-level names of Polars 2.1 built on frazil's existing pieces: engine objects for
collect(engine=...), cumulative folds (cum_fold, cum_reduce, cum_sum_horizontal), read_lines
/ scan_lines, json_normalize and wrap_df / wrap_s."""
from __future__ import annotations

import json
from typing import Any, Callable


# ---- cumulative folds ----
def _fold_inputs(exprs: Any) -> list:
    from frazil.expr import Expr
    from frazil.functions import col

    items = [exprs] if isinstance(exprs, (str, Expr)) else list(exprs)
    out = [col(e) if isinstance(e, str) else e for e in items]
    for e in out:
        if e.meta.has_multiple_outputs():
            from frazil.exceptions import InvalidOperationError

            raise InvalidOperationError(
                f"cumulative folds take single-column expressions; expand {e} into its columns first")
    return out


def _cumulative(name: str, acc: Any, function: Callable, items: list, return_dtype: Any, include_init: bool) -> Any:
    from frazil.expr_struct import struct

    fields = []
    if include_init:
        fields.append(acc)
    for e in items:
        acc = function(acc, e)
        fields.append(acc.alias(e.meta.output_name()))
    if return_dtype is not None:
        fields = [f.cast(return_dtype) for f in fields]
    return struct(fields).alias(name)


def cum_fold(acc: Any, function: Callable, exprs: Any, *, returns_scalar: bool = False, return_dtype: Any = None,
             include_init: bool = False) -> Any:
    """acc = function(acc, e) over the expressions, every intermediate kept: a Struct with one
    field per expression (named after it), as Polars' cum_fold. `function` combines
    expressions (lambda acc, x: acc + x); the fields take the accumulator's dtype."""
    from frazil.expr import Expr
    from frazil.functions import lit

    start = acc if isinstance(acc, Expr) else lit(acc)
    items = _fold_inputs(exprs)
    if return_dtype is None:
        step = function

        def function(a: Any, e: Any) -> Any:  # noqa: F811 - as fold: results cast like the initial value
            return step(a, e)._fn("cast_like", start)
    return _cumulative("cum_fold", start, function, items, return_dtype, include_init)


def cum_reduce(function: Callable, exprs: Any, *, returns_scalar: bool = False, return_dtype: Any = None) -> Any:
    """As cum_fold with the first expression as the initial value (its own field first)."""
    items = _fold_inputs(exprs)
    if not items:
        raise ValueError("cum_reduce needs at least one expression")
    from frazil.functions import coalesce

    first = items[0].alias(items[0].meta.output_name())
    supertype = coalesce(items)  # as Polars: the fields after the first take every input's supertype
    step = function if return_dtype is not None else (lambda a, e: function(a, e)._fn("cast_like", supertype))
    return _cumulative("cum_reduce", first, step, items[1:], return_dtype, True)


def cum_sum_horizontal(*exprs: Any) -> Any:
    """The running sum across the columns: a Struct named cum_sum, one field per column."""
    items: list = []
    for e in exprs:
        items.extend(e if isinstance(e, (list, tuple)) else [e])
    from frazil.expr_struct import struct
    from frazil.functions import sum_horizontal

    items = _fold_inputs(items)
    if not items:
        raise ValueError("cum_sum_horizontal needs at least one expression")
    # Every field in the supertype of all the inputs, as Polars (the total's dtype).
    total = sum_horizontal(*items)
    fields, acc = [], None
    for e in items:
        acc = e if acc is None else acc + e
        fields.append(acc._fn("cast_like", total).alias(e.meta.output_name()))
    return struct(fields).alias("cum_sum")


# ---- lines ----
def _split_lines(data: bytes) -> list[str]:
    text = data.decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # a final newline ends the last line; it does not start another
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def read_lines(source: Any, *, name: str = "line", n_rows: int | None = None, row_index_name: str | None = None,
               row_index_offset: int = 0, glob: bool = True, storage_options: Any = None,
               credential_provider: Any = "auto", include_file_paths: str | None = None) -> Any:
    """The lines of one or more text files (or bytes / file objects) as a String column,
    without their line endings (\\n or \\r\\n)."""
    import glob as globlib
    import os

    from frazil.dataframe import DataFrame
    from frazil.io import _read_bytes

    sources = source if isinstance(source, list) else [source]
    values: list[str] = []
    paths: list[str] = []
    for src in sources:
        if isinstance(src, (str, os.PathLike)) and glob and any(ch in str(src) for ch in "*?["):
            expanded = sorted(globlib.glob(str(src)))
            if not expanded:
                raise FileNotFoundError(f"no files match {src}")
        else:
            expanded = [src]
        for one in expanded:
            if isinstance(one, (str, os.PathLike)):
                with open(os.fspath(one), "rb") as f:
                    data = f.read()
            else:
                data = _read_bytes(one)
            lines = _split_lines(data)
            values.extend(lines)
            paths.extend([str(one)] * len(lines))
    if n_rows is not None:
        values, paths = values[:n_rows], paths[:n_rows]
    df = DataFrame({name: values}, schema={name: "String"} if not values else None)
    if include_file_paths:
        from frazil.series import Series

        df = df.with_columns(Series(include_file_paths, paths, dtype="String"))
    if row_index_name:
        df = df.with_row_index(row_index_name, offset=row_index_offset)
    return df


def scan_lines(source: Any, **kwargs: Any) -> Any:
    """read_lines as a LazyFrame. The files are read when scan_lines is called (not at
    collect, as Polars does), so later changes to them are not seen."""
    return read_lines(source, **kwargs).lazy()


# ---- json_normalize ----
def _flatten(record: Any, prefix: str, separator: str, level: int, max_level: int | None, out: dict,
             encoder: Any) -> None:
    for key, value in record.items():
        name = f"{prefix}{separator}{key}" if prefix else str(key)
        if isinstance(value, dict):
            if max_level is not None and level >= max_level:
                out[name] = json.dumps(value, cls=encoder) if encoder else json.dumps(value)
            else:
                _flatten(value, name, separator, level + 1, max_level, out, encoder)
        else:
            out[name] = value


def json_normalize(data: Any, *, separator: str = ".", max_level: int | None = None, schema: Any = None,
                   strict: bool = True, infer_schema_length: int | None = 100, encoder: Any = None) -> Any:
    """Nested records (dicts) flattened into columns named by their key paths ("b.c"); a
    nested value past `max_level` becomes its JSON text."""
    from frazil.dataframe import DataFrame

    records = [data] if isinstance(data, dict) else list(data)
    rows = []
    for r in records:
        flat: dict = {}
        if isinstance(r, dict):
            _flatten(r, "", separator, 0, max_level, flat, encoder)
        rows.append(flat)
    names: dict = {}
    for row in rows:
        for k in row:
            names.setdefault(k, None)
    columns = {k: [row.get(k) for row in rows] for k in names}
    return DataFrame(columns, schema=schema, strict=strict) if schema is not None else DataFrame(columns)


# ---- wrapping native objects ----
def wrap_df(df: Any) -> Any:
    """A DataFrame around a native frame (frazil._frazil's)."""
    from frazil.dataframe import DataFrame

    return DataFrame._from_native(df)


def wrap_s(s: Any) -> Any:
    """A Series around a native column (frazil._frazil's)."""
    from frazil.series import Series

    return Series._from_native(s)


# ---- map_groups ----
def map_groups(exprs: Any, function: Callable, return_dtype: Any = None, *, is_elementwise: bool = False,
               returns_scalar: bool = False) -> Any:
    """A Python function over the Series of several expressions, per group inside agg()
    (over the whole columns elsewhere); with returns_scalar its one value per group."""
    from frazil.udf import map_batches_function

    out = map_batches_function(exprs, function, return_dtype, is_elementwise=is_elementwise,
                               returns_scalar=returns_scalar)
    return out.first() if returns_scalar else out


# ---- Parquet footer ----
def read_parquet_metadata(source: Any, storage_options: Any = None, credential_provider: Any = "auto") -> dict:
    """The key-value metadata of a Parquet file's footer (a path, bytes or a file object)."""
    import os

    from frazil import _frazil
    from frazil.io import _path_str, _read_bytes

    if isinstance(source, (str, os.PathLike)):
        return _frazil.parquet_key_values(_path_str(source))
    return _frazil.parquet_key_values(_read_bytes(source))


# ---- pyarrow datasets ----
def scan_pyarrow_dataset(source: Any, *, allow_pyarrow_filter: bool = True, batch_size: int | None = None) -> Any:
    """A pyarrow Dataset as a LazyFrame. The dataset is read (through pyarrow) when
    scan_pyarrow_dataset is called, not at collect; filters then run in frazil."""
    from frazil.dataframe import from_arrow

    table = source.to_table(batch_size=batch_size) if batch_size else source.to_table()
    return from_arrow(table).lazy()


# ---- defer ----
def defer(function: Callable[[], Any], *, schema: Any, validate_schema: bool = True) -> Any:
    """A LazyFrame whose data is `function()`, called when the query is collected (each
    time), of the given schema (or a callable giving it). Filters and projections run in
    frazil after the function."""
    from frazil.lazyframe import LazyFrame

    resolved = schema() if callable(schema) else schema
    if not resolved:
        from frazil.exceptions import InvalidOperationError

        raise InvalidOperationError("defer needs a schema with at least one column")
    return LazyFrame(schema=resolved).map_batches(lambda _: function(), schema=resolved,
                                                  validate_output_schema=validate_schema)
