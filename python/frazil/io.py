"""File I/O with Polars' names: read_*/scan_* (lazy scans with pushdown), write_*/sink_*."""
from __future__ import annotations

import os
import tempfile
from typing import Any

from frazil import _frazil


def _path(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    raise TypeError(f"expected a path (str or os.PathLike), got {type(source).__name__}")


def _native_schema(schema: Any) -> list | None:
    if schema is None:
        return None
    from frazil.datatypes import parse_into_dtype, to_native

    items = schema.items() if hasattr(schema, "items") else schema
    return [(name, to_native(parse_into_dtype(dtype))) for name, dtype in items]


def _csv_options(**kw: Any) -> dict:
    opts: dict = {}
    null_values = kw.pop("null_values", None)
    if isinstance(null_values, str):
        opts["null_values_all"] = [null_values]
    elif isinstance(null_values, dict):
        opts["null_values_per_column"] = list(null_values.items())
    elif null_values is not None:
        opts["null_values_all"] = list(null_values)
    schema = kw.pop("schema", None)
    if schema is not None:
        opts["schema"] = _native_schema(schema)
    overrides = kw.pop("schema_overrides", None) or kw.pop("dtypes", None)
    if overrides is not None:
        opts["schema_overrides"] = _native_schema(overrides)
    infer_schema = kw.pop("infer_schema", True)
    if not infer_schema:
        kw["infer_schema_length"] = 0
    columns = kw.pop("columns", None)
    if columns is not None:
        if isinstance(columns, str):
            columns = [columns]
        opts["columns"] = list(columns)
    for ignored in ("n_threads", "batch_size", "low_memory", "rechunk", "use_pyarrow", "storage_options",
                    "glob", "cache", "credential_provider", "retries", "include_file_paths", "sample_size"):
        kw.pop(ignored, None)
    opts.update({k: v for k, v in kw.items()})
    if "quote_char" not in opts:
        opts["quote_char"] = '"'
    return opts


def scan_csv(source: Any, *, has_header: bool = True, separator: str = ",", comment_prefix: str | None = None,
             quote_char: str | None = '"', skip_rows: int = 0, schema: Any = None, schema_overrides: Any = None,
             null_values: Any = None, missing_utf8_is_empty_string: bool = False, ignore_errors: bool = False,
             try_parse_dates: bool = False, infer_schema: bool = True, infer_schema_length: int | None = 100,
             n_rows: int | None = None, encoding: str = "utf8", skip_rows_after_header: int = 0,
             row_index_name: str | None = None, row_index_offset: int = 0, eol_char: str = "\n",
             new_columns: list | None = None, raise_if_empty: bool = True, truncate_ragged_lines: bool = False,
             decimal_comma: bool = False, **ignored: Any) -> Any:
    """A lazy scan of a CSV file (or glob): nothing is read until the query is collected, and then only the columns and rows it needs."""
    from frazil.lazyframe import LazyFrame

    opts = _csv_options(has_header=has_header, separator=separator, comment_prefix=comment_prefix,
                        quote_char=quote_char, skip_rows=skip_rows, schema=schema,
                        schema_overrides=schema_overrides, null_values=null_values,
                        missing_utf8_is_empty_string=missing_utf8_is_empty_string, ignore_errors=ignore_errors,
                        try_parse_dates=try_parse_dates, infer_schema=infer_schema,
                        infer_schema_length=infer_schema_length, n_rows=n_rows, encoding=encoding,
                        skip_rows_after_header=skip_rows_after_header, row_index_name=row_index_name,
                        row_index_offset=row_index_offset, eol_char=eol_char, new_columns=new_columns,
                        raise_if_empty=raise_if_empty, truncate_ragged_lines=truncate_ragged_lines,
                        decimal_comma=decimal_comma, **ignored)
    return LazyFrame._from_native(_frazil.scan_csv(_path(source), opts))


def read_csv(source: Any, *, columns: Any = None, **kwargs: Any) -> Any:
    """Reads a CSV file into a DataFrame (the eager form of scan_csv)."""
    if hasattr(source, "read") and not isinstance(source, (str, os.PathLike)):
        data = source.read()
        source = data
    if isinstance(source, (bytes, bytearray)):
        with tempfile.NamedTemporaryFile(suffix=".csv", delete=False) as f:
            f.write(source)
            tmp = f.name
        try:
            return read_csv(tmp, columns=columns, **kwargs)
        finally:
            os.unlink(tmp)
    if columns is not None:
        kwargs["columns"] = [columns] if isinstance(columns, str) else list(columns)
    return scan_csv(source, **kwargs).collect()


def scan_parquet(source: Any, *, n_rows: int | None = None, hive_partitioning: bool | None = None,
                 parallel: str = "auto", columns: Any = None, **ignored: Any) -> Any:
    """A lazy scan of a Parquet file, directory or glob; the query's columns, filters and row limit are pushed into the reader, which skips row groups by their statistics."""
    from frazil.lazyframe import LazyFrame

    opts = {"n_rows": n_rows, "hive_partitioning": hive_partitioning}
    lf = LazyFrame._from_native(_frazil.scan_parquet(_path(source), opts))
    if columns is not None:
        lf = lf.select(columns)
    return lf


def read_parquet(source: Any, *, columns: Any = None, n_rows: int | None = None, **kwargs: Any) -> Any:
    """Reads a Parquet file, directory or glob into a DataFrame (the eager form of scan_parquet)."""
    return scan_parquet(source, n_rows=n_rows, columns=columns, **kwargs).collect()


def write_csv(df: Any, file: Any = None, *, include_header: bool = True, separator: str = ",",
              line_terminator: str = "\n", quote_char: str = '"', date_format: str | None = None,
              datetime_format: str | None = None, time_format: str | None = None,
              float_precision: int | None = None, float_scientific: bool | None = None,
              null_value: str | None = None, quote_style: str | None = None, include_bom: bool = False,
              decimal_comma: bool = False) -> str | None:
    """Writes a DataFrame as CSV to a path (or returns the text when no file is given)."""
    opts = dict(include_header=include_header, separator=separator, line_terminator=line_terminator,
                quote_char=quote_char, date_format=date_format, datetime_format=datetime_format,
                time_format=time_format, float_precision=float_precision, float_scientific=float_scientific,
                null_value=null_value, quote_style=quote_style, include_bom=include_bom,
                decimal_comma=decimal_comma)
    if file is None:
        return _frazil.write_csv(df._df, None, opts)
    if hasattr(file, "write") and not isinstance(file, (str, os.PathLike)):
        text = _frazil.write_csv(df._df, None, opts)
        file.write(text if not hasattr(file, "mode") or "b" not in getattr(file, "mode", "") else text.encode())
        return None
    _frazil.write_csv(df._df, _path(file), opts)
    return None


def write_parquet(df: Any, file: Any, *, compression: str = "zstd", compression_level: int | None = None,
                  statistics: bool = True, row_group_size: int | None = None,
                  data_page_size: int | None = None, **ignored: Any) -> None:
    """Writes a DataFrame as a Parquet file; a write that fails removes the partial file."""
    opts = dict(compression=compression, compression_level=compression_level, statistics=bool(statistics),
                row_group_size=row_group_size, data_page_size=data_page_size)
    _frazil.write_parquet(df._df, _path(file), opts)
