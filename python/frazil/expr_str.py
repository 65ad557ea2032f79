"""Polars' `Expr.str` namespace: matching, slicing, splitting, padding, case, parsing and
encoding of String expressions."""
from __future__ import annotations

from typing import Any

from frazil.expr import Expr


class ExprStringNameSpace:
    """Polars' `Expr.str` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def _fn(self, name: str, *extra: Any, **options: Any) -> Expr:
        return self._expr._fn("str." + name, *extra, **options)

    def contains(self, pattern: str, *, literal: bool = False, strict: bool = True) -> Expr:
        return self._fn("contains", pattern=pattern, literal=literal)

    def starts_with(self, prefix: str) -> Expr:
        return self._fn("starts_with", prefix=prefix)

    def ends_with(self, suffix: str) -> Expr:
        return self._fn("ends_with", suffix=suffix)

    def slice(self, offset: int, length: int | None = None) -> Expr:
        return self._fn("slice", offset=offset, length=length)

    def head(self, n: int) -> Expr:
        return self.slice(0, n)

    def len_bytes(self) -> Expr:
        return self._fn("len_bytes")

    def len_chars(self) -> Expr:
        return self._fn("len_chars")

    def to_uppercase(self) -> Expr:
        return self._fn("to_uppercase")

    def to_lowercase(self) -> Expr:
        return self._fn("to_lowercase")

    def strip_chars(self, characters: str | None = None) -> Expr:
        return self._fn("strip_chars", characters=characters)

    def replace(self, pattern: str, value: str, *, literal: bool = False, n: int = 1) -> Expr:
        return self._fn("replace", pattern=pattern, value=value, literal=literal)

    def replace_all(self, pattern: str, value: str, *, literal: bool = False) -> Expr:
        return self._fn("replace_all", pattern=pattern, value=value, literal=literal)
