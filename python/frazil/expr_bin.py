"""Polars' `Expr.bin` namespace: byte-level matching, sizes, slices, single bytes, hex and
base64 encoding, and bytes reinterpreted as numbers, over Binary expressions."""
from __future__ import annotations

from typing import Any

from frazil.expr import Expr, _dtype_arg


class ExprBinaryNameSpace:
    """Polars' `Expr.bin` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def contains(self, literal: Any) -> Expr:
        """Whether each value contains the bytes of `literal`."""
        return self._expr._fn("bin.contains", literal)

    def starts_with(self, prefix: Any) -> Expr:
        return self._expr._fn("bin.starts_with", prefix)

    def ends_with(self, suffix: Any) -> Expr:
        return self._expr._fn("bin.ends_with", suffix)

    def size(self, unit: str = "b") -> Expr:
        """The size of each value in bytes (UInt32), or in kb/mb/gb/tb (Float64)."""
        return self._expr._fn("bin.size", unit=unit)

    def slice(self, offset: Any, length: Any = None) -> Expr:
        """Bytes from `offset` (negative: from the end), `length` of them (None: to the end)."""
        from frazil.functions import lit

        # An untyped null length is "to the end"; a null in a per-row length gives a null row.
        return self._expr._fn("bin.slice", offset, lit(None) if length is None else length)

    def head(self, n: Any = 5) -> Expr:
        return self._expr._fn("bin.head", n)

    def tail(self, n: Any = 5) -> Expr:
        return self._expr._fn("bin.tail", n)

    def get(self, index: Any, *, null_on_oob: bool = False) -> Expr:
        """The byte at `index` as UInt8."""
        return self._expr._fn("bin.get", index, null_on_oob=null_on_oob)

    def encode(self, encoding: str) -> Expr:
        """Each value as "hex" or "base64" text."""
        return self._expr._fn("bin.encode", encoding=encoding)

    def decode(self, encoding: str, *, strict: bool = True) -> Expr:
        """Each value's "hex" or "base64" text decoded into bytes."""
        return self._expr._fn("bin.decode", encoding=encoding, strict=strict)

    def reinterpret(self, *, dtype: Any, endianness: str = "little") -> Expr:
        """Each value of the dtype's width read as a number of `dtype` (other sizes: null)."""
        return self._expr._fn("bin.reinterpret", dtype=_dtype_arg(dtype), endianness=endianness)
