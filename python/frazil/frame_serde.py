"""DataFrame.serialize / deserialize and to_init_repr.

serialize writes the frame in frazil's plan format (plan_serde.py: Arrow IPC with the dtypes
IPC does not keep, Categorical and Enum, beside it): "binary" gives those bytes, "json" a
JSON object holding them in base64, with the schema for readers. deserialize also reads a
plain Arrow IPC file. Both round-trip every dtype frazil has. They are not Polars' byte
formats (Polars does not promise its own across versions either): a frame serialized by
Polars cannot be read here. LazyFrame plans: plan_serde.py.
"""
from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

_MAGIC = "frazil-dataframe-ipc"


def serialize(self: Any, file: Any = None, *, format: str = "binary") -> Any:  # noqa: A002 - Polars' name
    """The frame as bytes ("binary") or a JSON string ("json"); written to `file` if given."""
    if format not in ("binary", "json"):
        raise ValueError(f"`format` must be one of {{'binary', 'json'}}, got {format!r}")
    # The plan format's frame (plan_serde): Arrow IPC with the dtypes IPC does not keep
    # (Categorical, Enum) beside it.
    from frazil import _frazil

    data: Any = _frazil.serialize_frame(self._df)
    if format == "json":
        data = json.dumps({"format": _MAGIC, "schema": {n: str(t) for n, t in self.schema.items()},
                           "frame": base64.b64encode(data).decode("ascii")})
    if file is None:
        return data
    if isinstance(file, (str, Path)):
        Path(file).expanduser().write_bytes(data if isinstance(data, bytes) else data.encode())
        return None
    if isinstance(data, str) and isinstance(file, io.TextIOBase):
        file.write(data)
    else:
        file.write(data if isinstance(data, bytes) else data.encode())
    return None


def deserialize(source: Any, *, format: str = "binary") -> Any:  # noqa: A002
    """A frame written by DataFrame.serialize (bytes, a path, or a file object)."""
    from frazil.exceptions import ComputeError
    from frazil.io import read_ipc

    if format not in ("binary", "json"):
        raise ValueError(f"`format` must be one of {{'binary', 'json'}}, got {format!r}")
    if isinstance(source, (str, Path)) and not (isinstance(source, str) and source.lstrip().startswith("{")):
        raw: Any = Path(source).expanduser().read_bytes()
    elif hasattr(source, "read"):
        raw = source.read()
    else:
        raw = source
    if format == "json" or (isinstance(raw, (str, bytes)) and raw[:1] in ("{", b"{")):
        text = raw.decode() if isinstance(raw, bytes) else raw
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise ComputeError(f"cannot deserialize a DataFrame: {e}") from e
        if not isinstance(obj, dict) or obj.get("format") != _MAGIC:
            raise ComputeError("cannot deserialize a DataFrame: not written by frazil's DataFrame.serialize")
        raw = base64.b64decode(obj["frame"] if "frame" in obj else obj["ipc"])  # ("ipc": an older frazil's)
    if isinstance(raw, str):
        raw = raw.encode()
    if bytes(raw[:8]) == b"FRZLPLAN":
        from frazil import _frazil
        from frazil.dataframe import DataFrame

        return DataFrame._from_native(_frazil.deserialize_frame(bytes(raw)))
    return read_ipc(io.BytesIO(raw))


def to_init_repr(self: Any, n: int = 1000) -> str:
    """Python code that builds this frame (its first n rows)."""
    head = self.head(n)
    lines = ["pl.DataFrame(", "    ["]
    for c in head.columns:
        lines.append(f"        {series_init_repr(head[c], n)},")
    lines += ["    ]", ")", ""]
    return "\n".join(lines)


def series_init_repr(self: Any, n: int = 1000) -> str:
    """Python code that builds this Series (its first n values)."""
    return f"pl.Series({self.name!r}, {self.head(n).to_list()!r}, dtype=pl.{self.dtype!r})"


def _frame_from_bytes(data: bytes) -> Any:
    return deserialize(data)


def _series_from_bytes(data: bytes) -> Any:
    return deserialize(data).to_series(0)


def frame_reduce(self: Any) -> tuple:
    """Pickling: the frame as serialize() bytes."""
    return _frame_from_bytes, (serialize(self),)


def series_reduce(self: Any) -> tuple:
    """Pickling: the Series as a one-column frame's serialize() bytes."""
    return _series_from_bytes, (serialize(self.to_frame()),)
