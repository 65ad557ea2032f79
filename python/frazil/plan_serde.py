"""LazyFrame.serialize / deserialize, Expr (de)serialization and pickling of both (issue #24).

The bytes are frazil's plan format (src/frazil/serde/): a versioned binary encoding of what a
LazyFrame holds before optimization, with in-memory frames as Arrow IPC. It is not Polars'
format (Polars does not promise its own across versions either); frazil refuses bytes of a
newer format version, naming both versions. Python UDFs (map_batches, map_elements) travel as
pickles of their function (cloudpickle when installed, else pickle: a lambda then cannot be
serialized). A LazyFrame's "json" format (deprecated in Polars 2.1, with its UserWarning) is
a JSON object holding those bytes in base64, not Polars' JSON; expressions are binary only.
"""
from __future__ import annotations

import atexit
import io
import pickle
from pathlib import Path
from typing import Any

_FORMATS = ("binary", "json")


def _check_format(format: str, what: str, json_allowed: bool = False, warn: bool = False) -> None:  # noqa: A002 - Polars' name
    from frazil.exceptions import InvalidOperationError

    if format not in _FORMATS:
        raise ValueError(f"`format` must be one of {{'binary', 'json'}}, got {format!r}")
    if format == "json" and json_allowed:
        if not warn:
            return
        import warnings

        warnings.warn("'json' serialization format of LazyFrame is deprecated", UserWarning, stacklevel=4)
    elif format == "json":
        raise InvalidOperationError(
            f"frazil serializes {what} in the binary format only: the 'json' format (deprecated in Polars) is not"
            " supported; use format='binary'"
        )


def _write(data: bytes, file: Any) -> Any:
    if file is None:
        return data
    if isinstance(file, (str, Path)):
        Path(file).expanduser().write_bytes(data)
        return None
    if isinstance(file, io.TextIOBase):
        raise TypeError("the binary format needs a binary file (open it with 'wb')")
    file.write(data)
    return None


def _read(source: Any) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, io.StringIO):
        return source.getvalue().encode()
    if isinstance(source, (str, Path)):
        return Path(source).expanduser().read_bytes()
    if hasattr(source, "read"):
        data = source.read()
        return data.encode() if isinstance(data, str) else bytes(data)
    raise TypeError(f"cannot deserialize from {type(source).__name__}: give bytes, a path or a file object")


# ---- Python UDFs: the engine holds only their id; the callables are kept here by id ----
def _pickler() -> Any:
    try:
        import cloudpickle  # type: ignore[import-not-found]

        return cloudpickle
    except ImportError:
        return pickle


def _encode_udf(udf_id: int) -> bytes:
    from frazil import udf

    fn = udf.registered_callable(udf_id)
    if fn is None:
        raise ValueError(f"the user-defined function {udf_id} was not registered from Python")
    try:
        return _pickler().dumps(fn)
    except Exception as e:  # pickle raises several kinds for an unpicklable function
        raise ValueError(
            f"its function cannot be pickled ({e}); define it at module level (a lambda or a local function"
            " needs cloudpickle)"
        ) from e


def _decode_udf(data: bytes) -> int:
    from frazil import udf

    return udf.register_callable(pickle.loads(data))


_codec_installed = [False]


def _install_codec() -> None:
    from frazil import _frazil

    if not _codec_installed[0]:
        _codec_installed[0] = True
        _frazil.set_udf_codec(_encode_udf, _decode_udf)
        # Released before the interpreter tears down the Python objects it holds.
        atexit.register(_frazil.set_udf_codec, None, None)


# ---- LazyFrame ----
def lazy_serialize(self: Any, file: Any = None, *, format: str = "binary") -> Any:  # noqa: A002
    """The plan of this LazyFrame (before optimization) as bytes, or written to `file`."""
    from frazil import _frazil

    _check_format(format, "a LazyFrame", json_allowed=True, warn=True)
    _install_codec()
    data = _frazil.serialize_plan(self._ldf)
    if format == "json":
        return _write_text(_plan_json(data), file)
    return _write(data, file)


_JSON_KEY = "frazil_plan"


def _plan_json(data: bytes) -> str:
    import base64
    import json

    return json.dumps({_JSON_KEY: base64.b64encode(data).decode()})


def _plan_from_json(data: bytes) -> bytes:
    import base64
    import binascii
    import json

    from frazil.exceptions import ComputeError

    try:
        doc = json.loads(data.decode("utf-8", errors="replace"))
    except json.JSONDecodeError as e:
        what = "expected value" if e.msg == "Expecting value" else e.msg
        raise ComputeError(f"{what} at line {e.lineno} column {e.colno}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(_JSON_KEY), str):
        raise ComputeError(f"not a frazil plan in JSON: expected an object with the key {_JSON_KEY!r}")
    try:
        return base64.b64decode(doc[_JSON_KEY], validate=True)
    except binascii.Error as e:
        raise ComputeError(f"the {_JSON_KEY!r} value is not base64: {e}") from None


def _write_text(text: str, file: Any) -> Any:
    if file is None:
        return text
    if isinstance(file, (str, Path)):
        Path(file).expanduser().write_text(text)
        return None
    file.write(text if isinstance(file, io.TextIOBase) else text.encode())
    return None


def lazy_deserialize(source: Any, *, format: str = "binary") -> Any:  # noqa: A002
    """A LazyFrame from bytes (a path, a file object or bytes) that LazyFrame.serialize wrote."""
    from frazil import _frazil
    from frazil.lazyframe import LazyFrame

    _check_format(format, "a LazyFrame", json_allowed=True)
    _install_codec()
    data = _read(source)
    if format == "json":
        data = _plan_from_json(data)
    return LazyFrame._from_native(_frazil.deserialize_plan(data))


def lazy_getstate(self: Any) -> bytes:
    return lazy_serialize(self)


def lazy_setstate(self: Any, state: bytes) -> None:
    self._ldf = lazy_deserialize(state)._ldf


# ---- Expr ----
def expr_serialize(expr: Any, file: Any = None, *, format: str = "binary") -> Any:  # noqa: A002
    """The expression as bytes, or written to `file` (Polars' Expr.meta.serialize)."""
    from frazil import _frazil

    _check_format(format, "an expression")
    _install_codec()
    return _write(_frazil.serialize_expr(expr._pyexpr), file)


def expr_deserialize(source: Any, *, format: str = "binary") -> Any:  # noqa: A002
    """An expression from bytes that Expr.meta.serialize wrote (Polars' Expr.deserialize)."""
    from frazil import _frazil
    from frazil.expr import wrap

    _check_format(format, "an expression")
    _install_codec()
    return wrap(_frazil.deserialize_expr(_read(source)))


def expr_getstate(self: Any) -> bytes:
    return expr_serialize(self)


def expr_setstate(self: Any, state: bytes) -> None:
    self._pyexpr = expr_deserialize(state)._pyexpr


# ---- FRAZIL_SERDE_ROUNDTRIP=1: every collect() runs its plan through serialize/deserialize ----
# (a test mode: the whole test suite then checks the round trip of every plan it collects).
# Plans the format refuses (selectors, lambdas) run as they are; with =strict they raise.
roundtrip_counts = {"round_tripped": 0, "refused": 0}


def _round_trip_collect(collect: Any, strict: bool) -> Any:
    from frazil.exceptions import ComputeError

    def collect_round_tripped(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            data = lazy_serialize(self)
        except ComputeError:
            if strict:
                raise
            roundtrip_counts["refused"] += 1
            return collect(self, *args, **kwargs)
        roundtrip_counts["round_tripped"] += 1
        return collect(lazy_deserialize(data), *args, **kwargs)

    collect_round_tripped.__doc__ = collect.__doc__
    return collect_round_tripped


def install(lazy_cls: type, expr_cls: type) -> None:
    import os

    mode = os.environ.get("FRAZIL_SERDE_ROUNDTRIP", "")
    if mode in ("1", "strict"):
        lazy_cls.collect = _round_trip_collect(lazy_cls.collect, strict=mode == "strict")
        import sys

        atexit.register(lambda: print(f"FRAZIL_SERDE_ROUNDTRIP: {roundtrip_counts}", file=sys.stderr))
    if "serialize" not in lazy_cls.__dict__:
        lazy_cls.serialize = lazy_serialize
    if "deserialize" not in lazy_cls.__dict__:
        lazy_cls.deserialize = staticmethod(lazy_deserialize)
    if "__getstate__" not in lazy_cls.__dict__:
        lazy_cls.__getstate__ = lazy_getstate
        lazy_cls.__setstate__ = lazy_setstate
    if "deserialize" not in expr_cls.__dict__:
        expr_cls.deserialize = staticmethod(expr_deserialize)
    if "__getstate__" not in expr_cls.__dict__:
        expr_cls.__getstate__ = expr_getstate
        expr_cls.__setstate__ = expr_setstate
