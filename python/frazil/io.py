"""File I/O with Polars' names: read_*/scan_* (lazy scans with pushdown), write_*/sink_*.

Sources are what Polars takes: a path (str or os.PathLike, `~` expanded), a glob, a
directory, a list of those, bytes, or a file-like object (BytesIO, an open file: read
from its current position), or a list of in-memory sources. Every rule lives in C++; this
module only turns Python arguments into the option dicts the bindings read.
"""
from __future__ import annotations

import io as _io
import os
from typing import Any

from frazil import _frazil
from frazil.exceptions import ComputeError, NoDataError


# ------------------------------------------------------------------------- sources

def _is_path(obj: Any) -> bool:
    return isinstance(obj, (str, os.PathLike))


def _path_str(obj: Any) -> str:
    s = os.fspath(obj)
    if isinstance(s, bytes):
        s = os.fsdecode(s)
    if s.startswith("file:"):
        from urllib.parse import unquote

        s = unquote(s[len("file://"):] if s.startswith("file://") else s[len("file:"):])
    return os.path.expanduser(s)


def _read_bytes(obj: Any) -> bytes:
    """The bytes of an in-memory source, from a file-like object's current position."""
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return bytes(obj)
    if isinstance(obj, _io.BytesIO):
        return bytes(obj.getbuffer()[obj.tell():])  # the position stays, as Polars leaves it
    if hasattr(obj, "read"):
        pos = obj.tell() if hasattr(obj, "seekable") and obj.seekable() else None
        data = obj.read()
        if pos is not None:
            obj.seek(pos)
        if isinstance(data, str):
            data = data.encode("utf-8")
        return bytes(data)
    raise TypeError(f"expected a path, bytes or a file-like object as source, got {type(obj).__name__}")


def _sources(source: Any) -> list:
    """A list of paths (str) or of bytes, as the scan bindings take them."""
    if _is_path(source):
        return [_path_str(source)]
    if isinstance(source, (list, tuple)):
        if not source:
            from frazil.exceptions import ComputeError

            raise ComputeError("expected at least 1 source: the list of sources is empty")
        if all(_is_path(s) for s in source):
            return [_path_str(s) for s in source]
        if any(_is_path(s) for s in source):
            raise TypeError("a list of sources cannot mix paths and in-memory sources")
        return [_read_bytes(s) for s in source]
    return [_read_bytes(source)]


def _native_schema(schema: Any) -> list | None:
    if schema is None:
        return None
    from frazil.datatypes import parse_into_dtype, to_native

    items = schema.items() if hasattr(schema, "items") else schema
    return [(name, to_native(parse_into_dtype(dtype))) for name, dtype in items]


def _cast_options(cast_options: Any) -> dict | None:
    """ScanCastOptions as the policy flags of io::CastPolicy."""
    if cast_options is None:
        return None

    def many(v: Any) -> set:
        if v is None:
            return set()
        return {v} if isinstance(v, str) else set(v)

    ints = many(getattr(cast_options, "integer_cast", "forbid"))
    floats = many(getattr(cast_options, "float_cast", "forbid"))
    dts = many(getattr(cast_options, "datetime_cast", "forbid"))
    return {
        "integer_upcast": "upcast" in ints,
        "integer_to_float": "allow-float" in ints,
        "float_upcast": "upcast" in floats,
        "float_downcast": "downcast" in floats,
        # "downcast" / "upcast" are Polars' aggregates of the unit-wise options.
        "datetime_nanoseconds_downcast": bool({"nanosecond-downcast", "downcast"} & dts),
        "datetime_microseconds_downcast": bool({"microsecond-downcast", "downcast"} & dts),
        "datetime_microseconds_upcast": bool({"microsecond-upcast", "upcast"} & dts),
        "datetime_milliseconds_upcast": bool({"millisecond-upcast", "upcast"} & dts),
        "datetime_convert_timezone": "convert-timezone" in dts,
        "missing_struct_fields_insert": getattr(cast_options, "missing_struct_fields", "raise") == "insert",
        "extra_struct_fields_ignore": getattr(cast_options, "extra_struct_fields", "raise") == "ignore",
    }


class ScanCastOptions:
    """How a scan casts files whose dtypes differ from the scan's schema (Polars' names)."""

    def __init__(self, *, integer_cast: Any = "forbid", float_cast: Any = "forbid", datetime_cast: Any = "forbid",
                 missing_struct_fields: str = "raise", extra_struct_fields: str = "raise",
                 categorical_to_string: str = "forbid", _internal_call: bool = False) -> None:
        self.integer_cast = integer_cast
        self.float_cast = float_cast
        self.datetime_cast = datetime_cast
        self.missing_struct_fields = missing_struct_fields
        self.extra_struct_fields = extra_struct_fields
        self.categorical_to_string = categorical_to_string

    @staticmethod
    def _default() -> ScanCastOptions:
        return ScanCastOptions()


def _scan_args(*, hidden_file_prefix: Any = None, n_rows: int | None = None, row_index_name: str | None = None, row_index_offset: int = 0,
               glob: bool = True, hive_partitioning: bool | None = None, hive_schema: Any = None,
               try_parse_hive_dates: bool = True, include_file_paths: str | None = None, schema: Any = None,
               missing_columns: str | None = None, extra_columns: str | None = None,
               cast_options: Any = None, allow_missing_columns: bool | None = None) -> dict:
    if allow_missing_columns is not None and missing_columns is None:
        missing_columns = "insert" if allow_missing_columns else "raise"
    if n_rows is not None and n_rows < 0:
        raise ValueError("n_rows must be non-negative")
    if isinstance(hidden_file_prefix, str):
        hidden_file_prefix = [hidden_file_prefix]
    return {
        "hidden_file_prefix": list(hidden_file_prefix) if hidden_file_prefix is not None else None,
        "n_rows": n_rows, "row_index_name": row_index_name, "row_index_offset": row_index_offset, "glob": glob,
        "hive_partitioning": hive_partitioning, "hive_schema": _native_schema(hive_schema),
        "try_parse_hive_dates": try_parse_hive_dates, "include_file_paths": include_file_paths,
        "schema": _native_schema(schema), "missing_columns": missing_columns, "extra_columns": extra_columns,
        "cast": _cast_options(cast_options),
    }


def _lazy(native: Any) -> Any:
    from frazil.lazyframe import LazyFrame

    return LazyFrame._from_native(native)


def _select_columns(lf: Any, columns: Any, row_index_name: str | None = None) -> Any:
    """read_*(columns=...): names or positions, in the order given (the row index, if one
    is made, stays first)."""
    if columns is None:
        return lf
    if isinstance(columns, (str, int)):
        columns = [columns]
    columns = list(columns)
    if columns and all(isinstance(c, int) for c in columns):
        names = lf.collect_schema().names()
        for c in columns:
            if c >= len(names) or c < -len(names):
                from frazil.exceptions import ColumnNotFoundError

                raise ColumnNotFoundError(f"column index {c} is out of bounds for {len(names)} columns")
        columns = [names[c] for c in columns]
    if row_index_name is not None and row_index_name not in columns:
        columns = [row_index_name] + columns
    return lf.select(columns)


# ------------------------------------------------------------------------------ CSV

_CSV_IGNORED = ("n_threads", "batch_size", "low_memory", "rechunk", "use_pyarrow", "storage_options", "cache",
                "credential_provider", "retries", "sample_size")


def _csv_options(*, null_values: Any = None, schema: Any = None, schema_overrides: Any = None, dtypes: Any = None,
                 infer_schema: bool = True, empty_string_is_null: bool = True, quote_char: str | None = '"',
                 **kw: Any) -> dict:
    opts: dict = {}
    if isinstance(null_values, str):
        opts["null_values_all"] = [null_values]
    elif isinstance(null_values, dict):
        opts["null_values_per_column"] = list(null_values.items())
    elif null_values is not None:
        opts["null_values_all"] = list(null_values)
    if schema is not None:
        opts["schema"] = _native_schema(schema)
    overrides = schema_overrides if schema_overrides is not None else dtypes
    if overrides is not None and hasattr(overrides, "items"):  # by position: scan_csv maps them
        opts["schema_overrides"] = _native_schema(overrides)
    if not infer_schema:
        kw["infer_schema_length"] = 0
    if kw.get("infer_schema_files") is not None and kw["infer_schema_files"] <= 0:
        raise ValueError("infer_schema_files: invalid zero value")
    if not empty_string_is_null:
        opts["missing_utf8_is_empty_string"] = True
    for ignored in _CSV_IGNORED:
        kw.pop(ignored, None)
    if kw.get("truncate_ragged_lines") is None:
        kw.pop("truncate_ragged_lines", None)
    if kw.get("skip_lines") == 0:
        kw.pop("skip_lines")
    if kw.get("raise_if_empty") is None:
        kw["raise_if_empty"] = True
    opts.update(kw)
    opts["quote_char"] = quote_char
    return opts


def scan_csv(source: Any, *, has_header: bool = True, separator: str = ",", comment_prefix: str | None = None,
             quote_char: str | None = '"', skip_rows: int = 0, schema: Any = None, schema_overrides: Any = None,
             null_values: Any = None, missing_utf8_is_empty_string: bool = False, ignore_errors: bool = False,
             try_parse_dates: bool = False, infer_schema: bool = True, infer_schema_length: int | None = 100,
             n_rows: int | None = None, encoding: str = "utf8", skip_rows_after_header: int = 0,
             row_index_name: str | None = None, row_index_offset: int = 0, eol_char: str = "\n",
             new_columns: list | None = None, raise_if_empty: bool | None = None,
             truncate_ragged_lines: bool | None = None, decimal_comma: bool = False, glob: bool = True,
             include_file_paths: str | None = None, missing_columns: str | None = None,
             extra_columns: str | None = None, empty_string_is_null: bool = True,
             hidden_file_prefix: Any = None, **ignored: Any) -> Any:
    opts = _csv_options(has_header=has_header, separator=separator, comment_prefix=comment_prefix,
                        quote_char=quote_char, skip_rows=skip_rows, schema=schema,
                        schema_overrides=schema_overrides, null_values=null_values,
                        ignore_errors=ignore_errors, try_parse_dates=try_parse_dates, infer_schema=infer_schema,
                        infer_schema_length=infer_schema_length, encoding=encoding,
                        skip_rows_after_header=skip_rows_after_header, eol_char=eol_char, new_columns=new_columns,
                        raise_if_empty=raise_if_empty, truncate_ragged_lines=truncate_ragged_lines,
                        decimal_comma=decimal_comma, empty_string_is_null=empty_string_is_null, **ignored)
    if missing_utf8_is_empty_string:
        opts["missing_utf8_is_empty_string"] = True
    with_column_names = opts.pop("with_column_names", None)
    positional = schema_overrides is not None and not hasattr(schema_overrides, "items")
    if with_column_names is not None or positional:
        # Both need the file's column names first: read them, then scan again.
        probe = dict(opts)
        probe.pop("schema_overrides", None)
        names = _lazy(_frazil.scan_csv_sources(_sources(source), _scan_args(glob=glob), probe)).collect_schema().names()
        if with_column_names is not None:
            names = list(with_column_names(list(names)))
            opts["new_columns"] = names
        if positional:
            opts["schema_overrides"] = _native_schema(list(zip(names, schema_overrides)))
    by_name = schema is not None and has_header and new_columns is None and with_column_names is None and (
        missing_columns is not None or extra_columns is not None or not _schema_matches_header(source, opts, schema))
    if by_name:
        # Polars matches a schema to a header by name: its dtypes parse the columns they
        # name, and the scan inserts / refuses / drops the others (missing_columns,
        # extra_columns), in the schema's order.
        opts.pop("schema", None)
        opts["schema_overrides"] = _native_schema(schema)
    args = _scan_args(n_rows=n_rows, row_index_name=row_index_name, row_index_offset=row_index_offset, glob=glob,
                      include_file_paths=include_file_paths, missing_columns=missing_columns,
                      extra_columns=extra_columns, hidden_file_prefix=hidden_file_prefix,
                      schema=schema if by_name else None)
    try:
        return _lazy(_frazil.scan_csv_sources(_sources(source), args, opts))
    except ComputeError as e:
        if str(e).startswith("empty CSV"):
            raise NoDataError(str(e)) from None
        raise


def _schema_matches_header(source: Any, opts: dict, schema: Any) -> bool:
    """Whether the first source's header names the schema's columns in its order (then the
    schema is read positionally, as the CSV reader does)."""
    probe = {k: v for k, v in opts.items() if k not in ("schema", "schema_overrides")}
    probe["infer_schema_length"] = 0
    try:
        names = _lazy(_frazil.scan_csv_sources(_sources(source), _scan_args(), probe)).collect_schema().names()
    except Exception:  # noqa: BLE001 - the real scan reports it
        return True
    return list(names) == list(dict(schema.items() if hasattr(schema, "items") else schema).keys())


def read_csv(source: Any, *, columns: Any = None, **kwargs: Any) -> Any:
    return _select_columns(scan_csv(source, **kwargs), columns, kwargs.get("row_index_name")).collect()


def write_csv(df: Any, file: Any = None, *, include_header: bool = True, separator: str = ",",
              line_terminator: str = "\n", quote_char: str = '"', date_format: str | None = None,
              datetime_format: str | None = None, time_format: str | None = None,
              float_precision: int | None = None, float_scientific: bool | None = None,
              null_value: str | None = None, quote_style: str | None = None, include_bom: bool = False,
              decimal_comma: bool = False, compression: str = "uncompressed", compression_level: int | None = None,
              check_extension: bool = True, batch_size: int = 1024, **ignored: Any) -> str | None:
    opts = dict(include_header=include_header, separator=separator, line_terminator=line_terminator,
                quote_char=quote_char, date_format=date_format, datetime_format=datetime_format,
                time_format=time_format, float_precision=float_precision, float_scientific=float_scientific,
                null_value=null_value, quote_style=quote_style, include_bom=include_bom,
                decimal_comma=decimal_comma)
    _check_text_compression(file, compression, check_extension)
    if file is None:
        if compression != "uncompressed":
            raise _invalid("compression needs a file to write to")
        return _frazil.write_csv(df._df, None, opts)
    if compression == "uncompressed" and _is_path(file):
        _frazil.write_csv(df._df, _path_str(file), opts)
        return None
    data = _frazil.write_csv(df._df, None, opts).encode("utf-8")
    _write_bytes(file, _frazil.compress_text(data, compression, compression_level), text_ok=compression == "uncompressed")
    return None


# -------------------------------------------------------------------------- Parquet

def _parquet_options(parallel: Any = "auto") -> dict:
    return {"parallel": parallel != "none"}


def scan_parquet(source: Any, *, n_rows: int | None = None, row_index_name: str | None = None,
                 row_index_offset: int = 0, parallel: str = "auto", hive_partitioning: bool | None = None,
                 glob: bool = True, schema: Any = None, hive_schema: Any = None, try_parse_hive_dates: bool = True,
                 include_file_paths: str | None = None, missing_columns: str | None = None,
                 allow_missing_columns: bool | None = None, extra_columns: str | None = None,
                 cast_options: Any = None, columns: Any = None, hidden_file_prefix: Any = None,
                 **ignored: Any) -> Any:
    args = _scan_args(hidden_file_prefix=hidden_file_prefix, n_rows=n_rows, row_index_name=row_index_name, row_index_offset=row_index_offset, glob=glob,
                      hive_partitioning=hive_partitioning, hive_schema=hive_schema,
                      try_parse_hive_dates=try_parse_hive_dates, include_file_paths=include_file_paths,
                      schema=schema, missing_columns=missing_columns, extra_columns=extra_columns,
                      cast_options=cast_options, allow_missing_columns=allow_missing_columns)
    lf = _lazy(_frazil.scan_parquet_sources(_sources(source), args, _parquet_options(parallel)))
    return _select_columns(lf, columns)


def read_parquet(source: Any, *, columns: Any = None, n_rows: int | None = None, use_pyarrow: bool = False,
                 pyarrow_options: Any = None, memory_map: bool = True, **kwargs: Any) -> Any:
    if use_pyarrow and kwargs.get("hive_schema") is not None:
        raise TypeError("cannot use `hive_partitions` with `use_pyarrow=True`")
    return _select_columns(scan_parquet(source, n_rows=n_rows, **kwargs), columns,
                           kwargs.get("row_index_name")).collect()


def read_parquet_schema(source: Any) -> dict:
    return _schema_dict(scan_parquet(source).collect_schema())


def write_parquet(df: Any, file: Any, *, compression: str = "zstd", compression_level: int | None = None,
                  statistics: Any = True, row_group_size: int | None = None,
                  data_page_size: int | None = None, mkdir: bool = False, partition_by: Any = None,
                  use_pyarrow: bool = False, pyarrow_options: dict | None = None, **ignored: Any) -> None:
    if use_pyarrow:
        _write_parquet_with_pyarrow(df, file, compression, compression_level, statistics, row_group_size,
                                    data_page_size, pyarrow_options)
        return
    if partition_by is not None:
        _write_partitioned(df, "parquet", PartitionBy(file, key=partition_by),
                           dict(compression=compression, compression_level=compression_level,
                                statistics=statistics, row_group_size=row_group_size, data_page_size=data_page_size))
        return
    opts = dict(compression=compression, compression_level=compression_level, statistics=bool(statistics),
                row_group_size=row_group_size, data_page_size=data_page_size)
    if _is_path(file):
        path = _path_str(file)
        _mkdir(path, mkdir)
        _frazil.write_parquet(df._df, path, opts)
        return
    _write_bytes(file, _frazil.write_parquet_bytes(df._df, opts))


def _write_parquet_with_pyarrow(df: Any, file: Any, compression: str, compression_level: int | None,
                                statistics: Any, row_group_size: int | None, data_page_size: int | None,
                                pyarrow_options: dict | None) -> None:
    """write_parquet(use_pyarrow=True), as Polars does it: pyarrow writes the Arrow table
    (a dataset of hive directories when pyarrow_options names partition_cols)."""
    import pyarrow.parquet as pq

    table = df.to_arrow()
    options = dict(pyarrow_options or {})
    if options.get("partition_cols"):
        pq.write_to_dataset(table=table, root_path=_path_str(file) if _is_path(file) else file, **options)
        return
    pq.write_table(table=table, where=_path_str(file) if _is_path(file) else file, row_group_size=row_group_size,
                   compression=None if compression == "uncompressed" else compression,
                   compression_level=compression_level, write_statistics=bool(statistics),
                   data_page_size=data_page_size, **options)


# ---------------------------------------------------------------------- Arrow IPC

def scan_ipc(source: Any, *, n_rows: int | None = None, row_index_name: str | None = None,
             row_index_offset: int = 0, glob: bool = True, hive_partitioning: bool | None = None,
             hive_schema: Any = None, try_parse_hive_dates: bool = True, include_file_paths: str | None = None,
             memory_map: bool = True, missing_columns: str | None = None, extra_columns: str | None = None,
             cast_options: Any = None, hidden_file_prefix: Any = None, **ignored: Any) -> Any:
    args = _scan_args(hidden_file_prefix=hidden_file_prefix, n_rows=n_rows, row_index_name=row_index_name, row_index_offset=row_index_offset, glob=glob,
                      hive_partitioning=hive_partitioning, hive_schema=hive_schema,
                      try_parse_hive_dates=try_parse_hive_dates, include_file_paths=include_file_paths,
                      missing_columns=missing_columns, extra_columns=extra_columns, cast_options=cast_options)
    return _lazy(_frazil.scan_ipc_sources(_sources(source), args, memory_map))


def read_ipc(source: Any, *, columns: Any = None, n_rows: int | None = None, use_pyarrow: bool = False,
             memory_map: bool = True, row_index_name: str | None = None, row_index_offset: int = 0,
             rechunk: bool = True, **ignored: Any) -> Any:
    lf = scan_ipc(source, n_rows=n_rows, row_index_name=row_index_name, row_index_offset=row_index_offset,
                  memory_map=memory_map)
    return _select_columns(lf, columns, row_index_name).collect()


def read_ipc_stream(source: Any, *, columns: Any = None, n_rows: int | None = None, use_pyarrow: bool = False,
                    row_index_name: str | None = None, row_index_offset: int = 0, rechunk: bool = True,
                    **ignored: Any) -> Any:
    # The reader tells the stream format from the file format by its magic bytes.
    return read_ipc(source, columns=columns, n_rows=n_rows, row_index_name=row_index_name,
                    row_index_offset=row_index_offset)


def read_ipc_schema(source: Any) -> dict:
    from frazil.datatypes import from_native

    src = _sources(source)[0]
    return {name: from_native(d) for name, d in _frazil.read_ipc_schema(src)}


def _ipc_options(compression: Any, compat_level: Any, record_batch_size: Any, stream: bool) -> dict:
    if compression is None:
        compression = "uncompressed"
    oldest = compat_level is not None and (compat_level is False or getattr(compat_level, "_version", 1) == 0)
    return {"compression": compression, "compat_oldest": oldest, "record_batch_size": record_batch_size,
            "stream": stream}


def write_ipc(df: Any, file: Any, *, compression: str = "uncompressed", compat_level: Any = None,
              record_batch_size: int | None = None, _stream: bool = False, **ignored: Any) -> Any:
    opts = _ipc_options(compression, compat_level, record_batch_size, _stream)
    if file is None:
        return _io.BytesIO(_frazil.write_ipc(df._df, None, opts))
    if _is_path(file):
        _frazil.write_ipc(df._df, _path_str(file), opts)
        return None
    _write_bytes(file, _frazil.write_ipc(df._df, None, opts))
    return None


def write_ipc_stream(df: Any, file: Any, *, compression: str = "uncompressed", compat_level: Any = None,
                     **ignored: Any) -> Any:
    return write_ipc(df, file, compression=compression, compat_level=compat_level, _stream=True)


# --------------------------------------------------------------------------- helpers

def _invalid(msg: str) -> Exception:
    from frazil.exceptions import InvalidOperationError

    return InvalidOperationError(msg)


def _check_text_compression(file: Any, compression: str, check_extension: bool) -> None:
    """Polars' checks of write_csv/write_ndjson compression against the file's extension."""
    if compression not in ("uncompressed", "gzip", "zstd"):
        raise _invalid(f"compression must be one of 'uncompressed', 'gzip', 'zstd', got {compression!r}")
    if not check_extension or not _is_path(file):
        return
    name = os.path.basename(os.fspath(file))
    ext = name.rsplit(".", 1)[1].lower() if "." in name else ""
    if compression == "uncompressed":
        if ext in ("gz", "zst", "zstd"):
            raise _invalid(f"the file name {name!r} says it is compressed: use the compression parameter "
                           "to compress it, or check_extension=False")
    elif ext and ext != {"gzip": "gz", "zstd": "zst"}[compression] and not (compression == "zstd" and ext == "zstd"):
        raise _invalid(f"the file name {name!r} does not end in the extension of {compression}; "
                       "pass check_extension=False to write it anyway")


def _mkdir(path: str, mkdir: bool) -> None:
    if mkdir:
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)


def _write_bytes(file: Any, data: bytes, *, text_ok: bool = True) -> None:
    """Bytes to a path (replaced only once complete) or to a file-like object."""
    if _is_path(file):
        _frazil.write_file_bytes(_path_str(file), data)
        return
    if isinstance(file, _io.TextIOBase):
        encoding = getattr(file, "encoding", None) or "utf-8"
        if encoding.lower() not in ("utf-8", "utf8"):
            raise _invalid("file encoding is not UTF-8")  # as Polars: the text would be re-encoded
        if not text_ok:
            raise TypeError("compressed output needs a binary file object")
        file.write(data.decode("utf-8"))
        return
    if not hasattr(file, "write"):
        raise TypeError(f"expected a path or a writable file object, got {type(file).__name__}")
    file.write(data)


def _schema_dict(schema: Any) -> dict:
    return dict(schema.items())


# ----------------------------------------------------------------------------- sinks

_SINK_ONLY = ("maintain_order", "storage_options", "credential_provider", "sync_on_close", "engine", "optimizations",
              "sinked_paths_callback", "_record_batch_statistics")


def _write_one(df: Any, fmt: str, target: Any, kwargs: dict) -> None:
    if fmt == "csv":
        write_csv(df, target, **kwargs)
    elif fmt == "parquet":
        write_parquet(df, target, **kwargs)
    elif fmt == "ipc":
        write_ipc(df, target, **kwargs)
    elif fmt == "ndjson":
        write_ndjson(df, target, **kwargs)


def sink(lf: Any, fmt: str, target: Any, kwargs: dict) -> Any:
    """LazyFrame.sink_*: runs the query and writes its result (collected first, for now)."""
    lazy = kwargs.pop("lazy", False)
    mkdir = kwargs.pop("mkdir", False)
    for k in _SINK_ONLY:
        kwargs.pop(k, None)
    if lazy:
        return LazySink(lf, fmt, target, dict(kwargs, mkdir=mkdir))
    if isinstance(target, PartitionBy):
        _write_partitioned(lf.collect(), fmt, target, kwargs)
        return None
    if _is_path(target):
        _mkdir(_path_str(target), mkdir)
        native = _native_sink_options(fmt, target, kwargs)
        if native is not None:
            # Streams: batches are written as the executor produces them.
            _frazil.sink_file(lf._ldf, fmt, _path_str(target), native, {})
            return None
    _write_one(lf.collect(), fmt, target, kwargs)
    return None


def _native_sink_options(fmt: str, target: Any, kwargs: dict) -> dict | None:
    """The options of a streaming sink, or None when the Python writer must do it
    (compressed text, which is compressed whole)."""
    kw = dict(kwargs)
    if fmt in ("csv", "ndjson"):
        compression = kw.pop("compression", "uncompressed")
        _check_text_compression(target, compression, kw.pop("check_extension", True))
        kw.pop("compression_level", None)
        kw.pop("batch_size", None)
        if compression != "uncompressed":
            return None
        if fmt == "ndjson":
            return {} if not kw else None
        return {k: v for k, v in kw.items()}
    if fmt == "parquet":
        statistics = kw.pop("statistics", True)
        for k in ("metadata", "arrow_schema", "encryption", "use_pyarrow", "pyarrow_options",
                  "partition_chunk_size_bytes"):
            kw.pop(k, None)
        kw["statistics"] = bool(statistics)
        return kw
    if fmt == "ipc":
        return _ipc_options(kw.get("compression"), kw.get("compat_level"), kw.get("record_batch_size"), False)
    return None


def sink_with_engine(lf: Any, fmt: str, target: Any, kwargs: dict) -> Any:
    """LazyFrame.sink_*: lazy=True gives the sink plan; otherwise the engine runs it (an
    Engine object's own sink_* method, which a backend may lack)."""
    from frazil.engine import is_distributed, select_engine

    if kwargs.get("lazy"):
        return sink(lf, fmt, target, kwargs)
    engine = kwargs.pop("engine", "auto")
    engine = select_engine("auto" if is_distributed(engine) else engine)
    kwargs.pop("lazy", None)
    return getattr(engine, f"sink_{fmt}")(lf, target, **kwargs)


class LazySink:
    """What sink_*(lazy=True) returns: the sink runs when it is collected."""

    def __init__(self, lf: Any, fmt: str, target: Any, kwargs: dict) -> None:
        self._lf, self._fmt, self._target, self._kwargs = lf, fmt, target, kwargs

    def collect(self, *args: Any, **kwargs: Any) -> Any:
        from frazil.dataframe import DataFrame

        sink(self._lf, self._fmt, self._target, dict(self._kwargs))
        return DataFrame()

    def explain(self, *args: Any, **kwargs: Any) -> str:
        return f"SINK ({self._fmt})\n" + self._lf.explain(*args, **kwargs)

    def lazy(self) -> LazySink:
        return self


def collect_all(frames: Any, **kwargs: Any) -> list:
    from frazil.engine import foreign_engine

    if (other := foreign_engine(kwargs.get("engine", "auto"))) is not None:
        return other.collect_all(list(frames), optimizations=kwargs.get("optimizations"))
    return [f.collect(**kwargs) for f in frames]


# ------------------------------------------------------------------ partitioned sinks

class FileProviderArgs:
    """What a PartitionBy file_path_provider is called with."""

    def __init__(self, index_in_partition: int, partition_keys: Any) -> None:
        self.index_in_partition = index_in_partition
        self.partition_keys = partition_keys


class PartitionBy:
    """Writes a sink to several files: by the values of key expressions (hive layout,
    `key=value/` directories) and/or at most max_rows_per_file rows per file."""

    def __init__(self, base_path: Any, *, file_path_provider: Any = None, key: Any = None,
                 include_key: bool | None = None, max_rows_per_file: int | None = None,
                 approximate_bytes_per_file: Any = "auto") -> None:
        if key is None and max_rows_per_file is None and approximate_bytes_per_file == "auto":
            raise ValueError("at least one of ('key', 'max_rows_per_file', 'approximate_bytes_per_file') "
                             "must be specified for PartitionBy")
        if key is None and include_key is not None:
            raise ValueError("cannot use 'include_key' without specifying 'key'")
        if approximate_bytes_per_file == "auto":
            approximate_bytes_per_file = 4_294_967_295 if max_rows_per_file is None else None
        if approximate_bytes_per_file is None:
            approximate_bytes_per_file = (1 << 64) - 1
        if max_rows_per_file is not None and max_rows_per_file <= 0:
            raise ValueError("max_rows_per_file must be positive")
        self.base_path = _path_str(base_path) if _is_path(base_path) else str(base_path)
        self.file_path_provider = file_path_provider
        self.key = _key_exprs(key)
        self.include_key = include_key
        self.max_rows_per_file = max_rows_per_file
        self.approximate_bytes_per_file = approximate_bytes_per_file
        self._pl_partition_by = self


def _key_exprs(key: Any) -> list | None:
    if key is None:
        return None
    from frazil.functions import col

    if isinstance(key, dict):
        return [e.alias(k) for k, e in key.items()]
    if isinstance(key, (str,)) or not isinstance(key, (list, tuple)):
        key = [key]
    return [col(k) if isinstance(k, str) else k for k in key]


def _hive_value(v: Any) -> str:
    if v is None:
        return "__HIVE_DEFAULT_PARTITION__"
    from urllib.parse import quote

    return quote(str(v), safe="")


def _partition_id(v: Any) -> Any:
    if isinstance(v, float):
        if v != v:
            return ("nan",)
        if v == 0.0:
            return 0.0  # -0.0 and 0.0 are one partition
    return v


def _write_partitioned(df: Any, fmt: str, pb: PartitionBy, kwargs: dict) -> None:
    from frazil.dataframe import DataFrame

    ext = {"csv": "csv", "parquet": "parquet", "ipc": "ipc", "ndjson": "jsonl"}[fmt]
    parts: list = []  # (key frame of one row or None, frame)
    if pb.key:
        keys = df.select(pb.key)
        names = keys.columns
        include = pb.include_key if pb.include_key is not None else True
        data = df.with_columns(pb.key) if include else df.drop([n for n in names if n in df.columns])
        # Rows grouped by their key values, in order of first appearance.
        key_rows = list(zip(*[keys[n].to_list() for n in names])) if df.height else []
        groups: dict = {}
        for i, row in enumerate(key_rows):
            groups.setdefault(tuple(_partition_id(v) for v in row), []).append(i)
        from frazil.functions import col

        with_idx = data.with_row_index("__frazil_row")
        for rows in groups.values():
            part = with_idx.filter(col("__frazil_row").is_in(rows)).drop("__frazil_row") \
                if len(groups) > 1 else data
            parts.append((keys.slice(rows[0], 1), part))
    else:
        parts.append((None, df))
    counter = 0
    for key_df, part in parts:
        step = pb.max_rows_per_file or max(part.height, 1)
        n_files = max(1, -(-part.height // step))
        for k in range(n_files):
            chunk = part.slice(k * step, step)
            if chunk.height == 0 and k > 0:
                break
            index = k if key_df is not None else counter
            counter += 1
            if pb.file_path_provider is not None:
                target = pb.file_path_provider(FileProviderArgs(index, key_df if key_df is not None else DataFrame()))
            else:
                target = f"{index:08}.{ext}"
                if key_df is not None:
                    dirs = "/".join(f"{n}={_hive_value(v)}" for n, v in zip(key_df.columns, key_df.row(0)))
                    target = f"{dirs}/{target}"
            if _is_path(target):
                path = _path_str(target)
                if not os.path.isabs(path) and not str(target).startswith("file://"):
                    path = os.path.join(pb.base_path, path)
                _mkdir(path, True)
                target = path
            _write_one(chunk, fmt, target, dict(kwargs))


# ----------------------------------------------------------------------- NDJSON, JSON

def _json_options(schema: Any = None, schema_overrides: Any = None, infer_schema_length: int | None = 100,
                  ignore_errors: bool = False) -> dict:
    if infer_schema_length is not None and infer_schema_length <= 0:
        raise ValueError("'infer_schema_length' should be positive")
    return {"schema": _native_schema(schema), "schema_overrides": _native_schema(schema_overrides),
            "infer_schema_length": infer_schema_length, "ignore_errors": ignore_errors}


def scan_ndjson(source: Any, *, schema: Any = None, schema_overrides: Any = None, infer_schema_length: int | None = 100,
                batch_size: int | None = 1024, n_rows: int | None = None, low_memory: bool = False,
                rechunk: bool = False, row_index_name: str | None = None, row_index_offset: int = 0,
                ignore_errors: bool = False, include_file_paths: str | None = None, glob: bool = True,
                hive_partitioning: bool | None = None, hidden_file_prefix: Any = None, **ignored: Any) -> Any:
    args = _scan_args(hidden_file_prefix=hidden_file_prefix, n_rows=n_rows, row_index_name=row_index_name, row_index_offset=row_index_offset, glob=glob,
                      include_file_paths=include_file_paths, hive_partitioning=hive_partitioning)
    opts = _json_options(schema, schema_overrides, infer_schema_length, ignore_errors)
    return _lazy(_frazil.scan_ndjson_sources(_sources(source), args, opts))


def read_ndjson(source: Any, **kwargs: Any) -> Any:
    return scan_ndjson(source, **kwargs).collect()


def read_json(source: Any, *, schema: Any = None, schema_overrides: Any = None,
              infer_schema_length: int | None = 100) -> Any:
    from frazil.dataframe import DataFrame

    if _is_path(source):
        with open(_path_str(source), "rb") as f:
            data = f.read()
    else:
        data = _read_bytes(source)
    opts = _json_options(schema, schema_overrides, infer_schema_length)
    return DataFrame._from_native(_frazil.read_json(data, opts))


def write_ndjson(df: Any, file: Any = None, *, compression: str = "uncompressed", compression_level: int | None = None,
                 check_extension: bool = True, _json_array: bool = False, **ignored: Any) -> str | None:
    _check_text_compression(file, compression, check_extension)
    if file is None:
        if compression != "uncompressed":
            raise _invalid("compression needs a file to write to")
        return _frazil.write_ndjson(df._df, _json_array).decode("utf-8")
    if compression == "uncompressed" and _is_path(file):
        _frazil.write_ndjson_file(df._df, _path_str(file), _json_array)
        return None
    data = _frazil.write_ndjson(df._df, _json_array)
    _write_bytes(file, _frazil.compress_text(data, compression, compression_level),
                 text_ok=compression == "uncompressed")
    return None


def write_json(df: Any, file: Any = None) -> str | None:
    return write_ndjson(df, file, _json_array=True, check_extension=False)
