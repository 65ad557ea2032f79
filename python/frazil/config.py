"""Process-wide settings: the memory limit and the thread count.

`Config.set_memory_limit("4G")` (or the environment variable FRAZIL_MEMORY_LIMIT, read at
import) caps the memory frazil's column buffers may take; a query that would need more
raises MemoryError naming the limit instead of growing until the system kills the
process. Spilling to disk is not implemented: a query over the limit fails.
"""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from frazil import _frazil


def _bytes(limit: int | str | None) -> int:
    if limit is None:
        return 0
    if isinstance(limit, bool) or not isinstance(limit, (int, str)):
        raise TypeError(f"memory limit must be a number of bytes or a text like '512M', not {type(limit).__name__}")
    if isinstance(limit, str):
        return _frazil.parse_memory_size(limit.strip())
    if limit < 0:
        raise ValueError("memory limit must not be negative")
    return limit


# Polars' display options live in these environment variables (so that they carry over to
# child processes and Config.save() can write them); frazil's repr reads the ones it applies.
_CFG_ENV_VARS = (
    "POLARS_WARN_UNSTABLE", "POLARS_FMT_MAX_COLS", "POLARS_FMT_MAX_ROWS", "POLARS_FMT_NUM_DECIMAL",
    "POLARS_FMT_NUM_GROUP_SEPARATOR", "POLARS_FMT_NUM_LEN", "POLARS_FMT_STR_LEN", "POLARS_FMT_TABLE_CELL_ALIGNMENT",
    "POLARS_FMT_TABLE_CELL_LIST_LEN", "POLARS_FMT_TABLE_CELL_NUMERIC_ALIGNMENT",
    "POLARS_FMT_TABLE_DATAFRAME_SHAPE_BELOW", "POLARS_FMT_TABLE_FORMATTING", "POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES",
    "POLARS_FMT_TABLE_HIDE_COLUMN_NAMES", "POLARS_FMT_TABLE_HIDE_COLUMN_SEPARATOR",
    "POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION", "POLARS_FMT_TABLE_INLINE_COLUMN_DATA_TYPE",
    "POLARS_FMT_TABLE_ROUNDED_CORNERS", "POLARS_STREAMING_CHUNK_SIZE", "POLARS_TABLE_WIDTH", "POLARS_VERBOSE",
    "POLARS_MAX_EXPR_DEPTH", "POLARS_ENGINE_AFFINITY", "POLARS_QUERY_MONITORING",
)
_TABLE_FORMATS = (
    "ASCII_FULL", "ASCII_FULL_CONDENSED", "ASCII_NO_BORDERS", "ASCII_BORDERS_ONLY", "ASCII_BORDERS_ONLY_CONDENSED",
    "ASCII_HORIZONTAL_ONLY", "ASCII_MARKDOWN", "MARKDOWN", "UTF8_FULL", "UTF8_FULL_CONDENSED", "UTF8_NO_BORDERS",
    "UTF8_BORDERS_ONLY", "UTF8_HORIZONTAL_ONLY", "NOTHING",
)
# Options that are not environment variables: (default, current value).
_DIRECT_DEFAULTS = {
    "set_fmt_float": "mixed", "set_float_precision": None, "set_thousands_separator": "",
    "set_decimal_separator": ".", "set_trim_decimal_zeros": False,
}
_direct = dict(_DIRECT_DEFAULTS)
_runtime = {"set_engine_affinity": None, "set_default_credential_provider": "auto"}


def _set_env(name: str, value: Any) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = str(value)


def _flag(name: str, active: Any) -> None:
    _set_env(name, None if active is None else str(int(bool(active))))


def _positive(name: str, n: Any, what: str) -> None:
    if n is not None and n <= 0:
        raise ValueError(f"{what} must be > 0")
    _set_env(name, n)


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        return default


def display_limits() -> tuple[int, int, int]:
    """(rows, columns, string length) a frame's repr shows, from the Config options
    (tbl_rows, tbl_cols, fmt_str_lengths; -1 means all rows or columns)."""
    rows = _env_int("POLARS_FMT_MAX_ROWS", 10)
    cols = _env_int("POLARS_FMT_MAX_COLS", 8)
    width = _env_int("POLARS_FMT_STR_LEN", 30)
    return (rows if rows >= 0 else 2**31 - 1), (cols if cols >= 0 else 2**31 - 1), width


class Config(contextlib.ContextDecorator):
    """Settings of this process: Polars' display options (`Config(tbl_rows=20)`, as a context
    manager or a decorator; `Config.set_tbl_rows(20)`), kept in Polars' environment variables,
    and frazil's resource limits (`Config.set_memory_limit`).

    The repr of frames applies tbl_rows, tbl_cols, fmt_str_lengths and the layout options
    (tbl_formatting, rounded corners, tbl_hide_*, tbl_column_data_type_inline,
    tbl_dataframe_shape_below: frazil/frame_table.py); the number formatting and alignment
    options are accepted, kept and saved, but frazil's table does not read them yet."""

    _context_options: dict | None = None
    _original_state: str = ""

    def __init__(self, *, restore_defaults: bool = False, apply_on_context_enter: bool = False,
                 **options: Any) -> None:
        self._original_state = self.save()
        self._original_runtime = dict(_runtime)
        if restore_defaults:
            self.restore_defaults()
        if apply_on_context_enter:
            self._context_options = options
        else:
            self._set_config_params(**options)
            self._context_options = None

    def __enter__(self) -> "Config":
        self._original_state = self._original_state or self.save()
        if self._context_options:
            self._set_config_params(**self._context_options)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.restore_defaults().load(self._original_state)
        _runtime.update(self._original_runtime)
        self._original_state = ""

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Config) and self._original_state == other._original_state
                and self._context_options == other._context_options)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def _set_config_params(self, **options: Any) -> None:
        for opt, value in options.items():
            if not hasattr(self, opt) and not opt.startswith("set_"):
                opt = f"set_{opt}"
            if not hasattr(self, opt):
                raise AttributeError(f"`Config` has no option {opt!r}")
            getattr(self, opt)(value)

    # ---- state -------------------------------------------------------------------------

    @classmethod
    def load(cls, cfg: str) -> "Config":
        """Sets the options saved by Config.save() (a JSON string)."""
        try:
            options = json.loads(cfg)
        except json.JSONDecodeError as err:
            raise ValueError("invalid Config string (did you mean to use `load_from_file`?)") from err
        out = Config()
        for key, value in options.get("environment", {}).items():
            _set_env(key, value)
        for name, value in options.get("direct", {}).items():
            if hasattr(out, name):
                getattr(out, name)(value)
        return out

    @classmethod
    def load_from_file(cls, file: Any) -> "Config":
        """Sets the options saved by Config.save_to_file()."""
        try:
            text = Path(os.path.expanduser(str(file))).read_text()
        except OSError as err:
            raise ValueError(f"invalid Config file (did you mean to use `load`?)\n{err}") from err
        return cls.load(text)

    @classmethod
    def restore_defaults(cls) -> type:
        """Every option back to its default."""
        for var in _CFG_ENV_VARS:
            os.environ.pop(var, None)
        _direct.update(_DIRECT_DEFAULTS)
        _runtime.update({"set_engine_affinity": None, "set_default_credential_provider": "auto"})
        return cls

    @classmethod
    def save(cls, *, if_set: bool = False) -> str:
        """The options as a JSON string (if_set: only those set)."""
        env = {k: os.environ.get(k) for k in sorted(_CFG_ENV_VARS) if not if_set or os.environ.get(k) is not None}
        return json.dumps({"environment": env, "direct": dict(_direct)}, separators=(",", ":"))

    @classmethod
    def save_to_file(cls, file: Any) -> None:
        """Writes Config.save() to a file."""
        Path(os.path.expanduser(str(file))).write_text(cls.save())

    @classmethod
    def state(cls, *, if_set: bool = False, env_only: bool = False) -> dict:
        """The options by name (environment variables, then the other options)."""
        out: dict = {k: os.environ.get(k) for k in sorted(_CFG_ENV_VARS)
                     if not if_set or os.environ.get(k) is not None}
        if not env_only:
            out.update(_direct)
        return out

    @classmethod
    def reload_env_vars(cls) -> None:
        """Polars re-reads its environment here; frazil reads it at each use."""

    # ---- display options (Polars' names) -------------------------------------------------

    @classmethod
    def set_ascii_tables(cls, active: bool | None = True) -> type:
        _set_env("POLARS_FMT_TABLE_FORMATTING",
                 None if active is None else ("ASCII_FULL_CONDENSED" if active else "UTF8_FULL_CONDENSED"))
        return cls

    @classmethod
    def set_auto_structify(cls, active: bool | None = False) -> type:
        _flag("POLARS_AUTO_STRUCTIFY", active)
        return cls

    @classmethod
    def set_decimal_separator(cls, separator: str | None = None) -> type:
        if separator is not None and len(separator) != 1:
            raise ValueError(f"`separator` must be a single character; found {separator!r}")
        _direct["set_decimal_separator"] = "." if separator is None else separator
        return cls

    @classmethod
    def set_thousands_separator(cls, separator: str | bool | None = None) -> type:
        if separator is True:
            separator = ","
        elif not separator:
            separator = ""
        elif len(separator) > 1:
            raise ValueError(f"`separator` must be a single character; found {separator!r}")
        _direct["set_thousands_separator"] = separator
        return cls

    @classmethod
    def set_float_precision(cls, precision: int | None = None) -> type:
        _direct["set_float_precision"] = precision
        return cls

    @classmethod
    def set_fmt_float(cls, fmt: str | None = "mixed") -> type:
        if fmt is not None and fmt not in ("mixed", "full"):
            raise ValueError(f"invalid float format {fmt!r}; expected 'mixed' or 'full'")
        _direct["set_fmt_float"] = fmt or "mixed"
        return cls

    @classmethod
    def set_trim_decimal_zeros(cls, active: bool | None = True) -> type:
        _direct["set_trim_decimal_zeros"] = bool(active)
        return cls

    @classmethod
    def set_fmt_str_lengths(cls, n: int | None) -> type:
        _positive("POLARS_FMT_STR_LEN", n, "number of characters")
        return cls

    @classmethod
    def set_fmt_table_cell_list_len(cls, n: int | None) -> type:
        _set_env("POLARS_FMT_TABLE_CELL_LIST_LEN", n)
        return cls

    @classmethod
    def set_streaming_chunk_size(cls, size: int | None) -> type:
        if size is not None and size < 1:
            raise ValueError("number of rows per chunk must be >= 1")
        _set_env("POLARS_STREAMING_CHUNK_SIZE", size)
        return cls

    @classmethod
    def _alignment(cls, name: str, format: str | None) -> type:
        if format is not None and format not in ("LEFT", "CENTER", "RIGHT"):
            raise ValueError(f"invalid alignment: {format!r}")
        _set_env(name, format)
        return cls

    @classmethod
    def set_tbl_cell_alignment(cls, format: str | None) -> type:
        return cls._alignment("POLARS_FMT_TABLE_CELL_ALIGNMENT", format)

    @classmethod
    def set_tbl_cell_numeric_alignment(cls, format: str | None) -> type:
        return cls._alignment("POLARS_FMT_TABLE_CELL_NUMERIC_ALIGNMENT", format)

    @classmethod
    def set_tbl_cols(cls, n: int | None) -> type:
        _set_env("POLARS_FMT_MAX_COLS", n)
        return cls

    @classmethod
    def set_tbl_column_data_type_inline(cls, active: bool | None = True) -> type:
        _flag("POLARS_FMT_TABLE_INLINE_COLUMN_DATA_TYPE", active)
        return cls

    @classmethod
    def set_tbl_dataframe_shape_below(cls, active: bool | None = True) -> type:
        _flag("POLARS_FMT_TABLE_DATAFRAME_SHAPE_BELOW", active)
        return cls

    @classmethod
    def set_tbl_formatting(cls, format: str | None = None, rounded_corners: bool | None = False) -> type:
        if format is not None and format.upper() not in _TABLE_FORMATS:
            raise ValueError(f"invalid table format name: {format!r}\nExpected one of: {', '.join(_TABLE_FORMATS)}")
        _set_env("POLARS_FMT_TABLE_FORMATTING", None if format is None else format.upper())
        _flag("POLARS_FMT_TABLE_ROUNDED_CORNERS", rounded_corners)
        return cls

    @classmethod
    def set_tbl_hide_column_data_types(cls, active: bool | None = True) -> type:
        _flag("POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES", active)
        return cls

    @classmethod
    def set_tbl_hide_column_names(cls, active: bool | None = True) -> type:
        _flag("POLARS_FMT_TABLE_HIDE_COLUMN_NAMES", active)
        return cls

    @classmethod
    def set_tbl_hide_dtype_separator(cls, active: bool | None = True) -> type:
        _flag("POLARS_FMT_TABLE_HIDE_COLUMN_SEPARATOR", active)
        return cls

    @classmethod
    def set_tbl_hide_dataframe_shape(cls, active: bool | None = True) -> type:
        _flag("POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION", active)
        return cls

    @classmethod
    def set_tbl_rows(cls, n: int | None) -> type:
        _set_env("POLARS_FMT_MAX_ROWS", n)
        return cls

    @classmethod
    def set_tbl_width_chars(cls, width: int | None) -> type:
        _set_env("POLARS_TABLE_WIDTH", width)
        return cls

    @classmethod
    def set_verbose(cls, active: bool | None = True) -> type:
        _flag("POLARS_VERBOSE", active)
        return cls

    @classmethod
    def warn_unstable(cls, active: bool | None = True) -> type:
        _flag("POLARS_WARN_UNSTABLE", active)
        return cls

    @classmethod
    def set_expr_depth_warning(cls, limit: int) -> type:
        if limit < 0:
            raise ValueError("limit should be positive")
        _set_env("POLARS_MAX_EXPR_DEPTH", limit)
        return cls

    @classmethod
    def set_engine_affinity(cls, engine: Any = None) -> type:
        from frazil.engine import Engine

        if engine is not None and not isinstance(engine, Engine) and engine not in ("auto", "in-memory", "streaming",
                                                                                    "gpu"):
            raise ValueError(f"invalid engine: {engine!r}")
        _runtime["set_engine_affinity"] = engine
        _set_env("POLARS_ENGINE_AFFINITY", engine if isinstance(engine, str) else None)
        return cls

    @classmethod
    def enable_monitoring(cls, active: bool | None = True) -> type:
        _flag("POLARS_QUERY_MONITORING", active)
        return cls

    @classmethod
    def set_default_credential_provider(cls, credential_provider: Any = "auto") -> type:
        _runtime["set_default_credential_provider"] = credential_provider
        return cls

    # ---- frazil's resource limits --------------------------------------------------------

    @staticmethod
    def set_memory_limit(limit: int | str | None) -> None:
        """Bytes (int), or a text like "512M", "8G"; None or 0 removes the limit."""
        _frazil.set_memory_limit(_bytes(limit))

    @staticmethod
    def memory_limit() -> int:
        """The limit in bytes; 0 when there is none."""
        return _frazil.memory_limit()

    @staticmethod
    def memory_in_use() -> int:
        """Bytes of column buffers alive now."""
        return _frazil.memory_in_use()


def thread_pool_size() -> int:
    """Threads frazil computes with (FRAZIL_MAX_THREADS or POLARS_MAX_THREADS, else the cores)."""
    return _frazil.thread_pool_size()


def _apply_environment() -> None:
    # A malformed FRAZIL_* (or POLARS_MAX_THREADS) value is an error at import naming the
    # variable, not a silently ignored setting.
    _frazil.check_environment()


def engine_affinity_object() -> Any:
    """The Engine object given to Config.set_engine_affinity, if one was (a name lives in
    POLARS_ENGINE_AFFINITY instead)."""
    from frazil.engine import Engine

    value = _runtime.get("set_engine_affinity")
    return value if isinstance(value, Engine) else None
