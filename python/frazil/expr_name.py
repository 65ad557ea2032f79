"""Polars' `Expr.name` namespace: rules naming an expression's output after its own output
name. They are resolved when the query is planned, so `pl.all().name.suffix("_x")` names
each column it expands into."""
from __future__ import annotations

from typing import Any, Callable

from frazil import _frazil
from frazil.expr import Expr, wrap


class ExprNameNameSpace:
    """Polars' `Expr.name` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def _native(self) -> Any:
        return self._expr._pyexpr

    def keep(self) -> Expr:
        """The name of the expression's root column (aliases undone)."""
        return wrap(_frazil.name_keep(self._native()))

    def map(self, function: Callable[[str], str]) -> Expr:
        """The output name through `function`."""
        return wrap(_frazil.name_map(self._native(), function, ".name.map()"))

    def prefix(self, prefix: str) -> Expr:
        return wrap(_frazil.name_prefix(self._native(), prefix))

    def suffix(self, suffix: str) -> Expr:
        return wrap(_frazil.name_suffix(self._native(), suffix))

    def to_lowercase(self) -> Expr:
        return wrap(_frazil.name_to_lowercase(self._native()))

    def to_uppercase(self) -> Expr:
        return wrap(_frazil.name_to_uppercase(self._native()))

    def strip_prefix(self, prefix: str) -> Expr:
        return wrap(_frazil.name_strip_prefix(self._native(), prefix))

    def strip_suffix(self, suffix: str) -> Expr:
        return wrap(_frazil.name_strip_suffix(self._native(), suffix))

    def replace(self, pattern: str, value: str, *, literal: bool = False) -> Expr:
        """Every match of `pattern` (a regex unless literal) in the name replaced by `value`."""
        return wrap(_frazil.name_replace(self._native(), pattern, value, literal))

    def prefix_fields(self, prefix: str) -> Expr:
        """A Struct expression with `prefix` before each field name."""
        return wrap(_frazil.name_prefix_fields(self._native(), prefix))

    def suffix_fields(self, suffix: str) -> Expr:
        """A Struct expression with `suffix` after each field name."""
        return wrap(_frazil.name_suffix_fields(self._native(), suffix))

    def map_fields(self, function: Callable[[str], str]) -> Expr:
        """A Struct expression with each field name through `function` (called at planning)."""
        from frazil.udf import field_names_call

        return self._expr._fn("name.map_fields", function=field_names_call(function))
