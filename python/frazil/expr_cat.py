"""Polars' `Expr.cat` namespace for Categorical and Enum expressions (Polars 2.1's names:
ends_with, len_bytes, len_chars, physical, slice, starts_with, to). The string functions run
once per category and are gathered by code in the engine."""
from __future__ import annotations

from typing import Any

from frazil.expr import Expr, wrap


class ExprCatNameSpace:
    """Polars' `Expr.cat` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def _fn(self, name: str, **options: Any) -> Expr:
        return wrap(self._expr._pyexpr.function("cat." + name, [], **options))

    def len_bytes(self) -> Expr:
        """The length of each category's string in UTF-8 bytes, as UInt32."""
        return self._fn("len_bytes")

    def len_chars(self) -> Expr:
        """The length of each category's string in Unicode code points, as UInt32."""
        return self._fn("len_chars")

    def starts_with(self, prefix: str) -> Expr:
        """Whether each category starts with `prefix` (a str)."""
        if not isinstance(prefix, str):
            raise TypeError(f"'prefix' must be a string; found {type(prefix)!r}")
        return self._fn("starts_with", prefix=prefix)

    def ends_with(self, suffix: str) -> Expr:
        """Whether each category ends with `suffix` (a str)."""
        if not isinstance(suffix, str):
            raise TypeError(f"'suffix' must be a string; found {type(suffix)!r}")
        return self._fn("ends_with", suffix=suffix)

    def slice(self, offset: int, length: int | None = None) -> Expr:
        """The characters of each category from `offset` (negative counts from the end),
        `length` of them (to the end when None), as String."""
        return self._fn("slice", offset=offset, length=length)

    def physical(self) -> Expr:
        """The codes: UInt32 for Categorical, the smallest unsigned type holding an Enum's."""
        return self._fn("physical")

    def to(self, dtype: Any, *, strict: bool = True) -> Expr:
        """Integer codes read as `dtype` (a Categorical or Enum); a code that is not a category
        raises with strict, else becomes null."""
        from frazil.expr import _dtype_arg

        return self._fn("to", dtype=_dtype_arg(dtype), strict=strict)
