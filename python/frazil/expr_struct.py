"""Polars' `Expr.struct` namespace and pl.struct / pl.field: building structs from
expressions, reading, renaming and replacing their fields, and encoding rows as JSON."""
from __future__ import annotations

from typing import Any, Iterable

from frazil import _frazil
from frazil.expr import Expr, parse_into_expression, wrap


def _flatten_exprs(items: Iterable[Any]) -> list:
    """Expressions as Polars reads struct inputs: str is a column name, lists are flattened."""
    out = []
    for item in items:
        if isinstance(item, (list, tuple)):
            out.extend(_flatten_exprs(item))
        else:
            out.append(parse_into_expression(item, str_as_lit=False))
    return out


def _named(named_exprs: dict) -> list:
    return [wrap(parse_into_expression(v, str_as_lit=False)).alias(k)._pyexpr for k, v in named_exprs.items()]


class ExprStructNameSpace:
    """Polars' `Expr.struct` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def __getitem__(self, item: Any) -> Expr:
        if isinstance(item, str):
            return self.field(item)
        if isinstance(item, int) and not isinstance(item, bool):
            return self._expr._fn("struct.field_by_index", index=item)
        raise TypeError(f"expected type 'int | str', got {type(item).__name__!r}")

    def drop(self, names: Any, *, strict: bool = True) -> Expr:
        """The struct without the named fields (strict: each must exist)."""
        return self._expr._fn("struct.drop", names=[names] if isinstance(names, str) else list(names), strict=strict)

    def field(self, name: str | list[str], *more_names: str) -> Expr:
        """The field(s) named (a name, "*" or a "^...$" regex), each named after its field."""
        names = ([name] if isinstance(name, str) else list(name)) + list(more_names)
        if len(names) == 1:
            return wrap(_frazil.struct_field(self._expr._pyexpr, names[0]))
        return wrap(_frazil.struct_fields(self._expr._pyexpr, names))

    def unnest(self) -> Expr:
        """Every field as its own column."""
        return wrap(_frazil.struct_fields(self._expr._pyexpr, ["*"]))

    def rename_fields(self, names: Iterable[str]) -> Expr:
        """The struct with its fields renamed, in order."""
        return wrap(_frazil.struct_rename_fields(self._expr._pyexpr, list(names)))

    def json_encode(self) -> Expr:
        """Each struct row as a JSON object string."""
        return wrap(_frazil.struct_json_encode(self._expr._pyexpr))

    def with_fields(self, *exprs: Any, **named_exprs: Any) -> Expr:
        """The struct with fields added or replaced (by output name); pl.field(name) reads its fields."""
        natives = _flatten_exprs(exprs) + _named(named_exprs)
        return wrap(_frazil.struct_with_fields(self._expr._pyexpr, natives))

    def eval(self, *exprs: Any, **named_exprs: Any) -> Expr:
        """A struct of only the fields the expressions give (pl.field reads this struct's fields)."""
        natives = _flatten_exprs(exprs) + _named(named_exprs)
        return wrap(_frazil.struct_eval(self._expr._pyexpr, natives))


def struct(*exprs: Any, schema: Any = None, eager: bool = False, **named_exprs: Any) -> Any:
    """A Struct column with one field per expression, named by the expressions' output names."""
    natives = _flatten_exprs(exprs)
    if schema is not None:
        from frazil.functions import col

        items = list(schema.items()) if hasattr(schema, "items") else list(schema)
        if not natives:
            natives = [col(n)._pyexpr for n, _ in items]
        # Each field cast to the schema's dtype, by position (Polars' schema= argument).
        natives = [wrap(e).cast(items[i][1])._pyexpr if i < len(items) else e for i, e in enumerate(natives)]
    natives += _named(named_exprs)
    out = wrap(_frazil.as_struct(natives))
    if eager:
        from frazil.dataframe import DataFrame

        return DataFrame().select(out).to_series()
    return out


def field(name: str | list[str], *more_names: str) -> Expr:
    """A field of the struct `struct.with_fields` is applied to."""
    names = ([name] if isinstance(name, str) else list(name)) + list(more_names)
    if len(names) != 1:
        raise NotImplementedError("pl.field with several names is not supported yet")
    return wrap(_frazil.field(names[0]))


def series_struct_namespace(series: Any) -> Any:
    """`Series.struct`: the Expr namespace over the series, plus what needs the series' dtype."""
    from frazil.series_dispatch import SeriesNameSpace

    class SeriesStructNameSpace(SeriesNameSpace):
        @property
        def fields(self) -> list:
            return [f.name for f in self._series.dtype.fields]

        @property
        def schema(self) -> Any:
            from frazil.datatypes import Schema

            return Schema({f.name: f.dtype for f in self._series.dtype.fields})

        def unnest(self) -> Any:
            return self._series.to_frame().unnest(self._series.name)

        def __getitem__(self, item: Any) -> Any:
            if isinstance(item, str):
                return self.field(item)
            return self._series.to_frame().select(wrap(_frazil.col(self._series.name)).struct[item]).to_series()

        def _ipython_key_completions_(self) -> list:
            return self.fields

    return SeriesStructNameSpace(series, "struct")
