"""String functions with Polars' names: concat_str, format, escape_regex."""
from __future__ import annotations

from typing import Any

from frazil.expr import Expr, parse_many, wrap


def concat_str(exprs: Any, *more_exprs: Any, separator: str = "", ignore_nulls: bool = False) -> Expr:
    """Row-wise concatenation of expressions (strings are column names), others cast to
    String; a null gives a null unless `ignore_nulls`."""
    natives = parse_many([exprs, *more_exprs], str_as_lit=False)
    if not natives:
        raise ValueError("concat_str needs at least one expression")
    return wrap(natives[0].function("concat_str", natives[1:], separator=separator, ignore_nulls=ignore_nulls))


def format(f_string: str, *args: Any) -> Expr:  # noqa: A001 - Polars' name
    """`f_string` with each "{}" replaced by the next argument's value, as Polars' pl.format."""
    from frazil.expr import parse_into_expression
    from frazil.functions import lit

    if f_string.count("{}") != len(args):
        raise ValueError("number of placeholders should equal the number of arguments")
    pieces: list = []
    arguments = iter(args)
    for i, s in enumerate(f_string.split("{}")):
        if i > 0:
            pieces.append(wrap(parse_into_expression(next(arguments), str_as_lit=False)))
        if len(s) > 0:
            pieces.append(lit(s))
    return concat_str(pieces, separator="")


def escape_regex(s: str) -> str:
    """`s` with every regex metacharacter escaped (the regex crate's escape)."""
    if isinstance(s, Expr):
        raise TypeError("escape_regex takes a Python str; use `Expr.str.escape_regex` for expressions")
    if not isinstance(s, str):
        raise TypeError(f"escape_regex takes a Python str, got {type(s).__name__}")
    return "".join("\\" + c if c in "\\.+*?()|[]{}^$#&-~" else c for c in s)


__all__ = ["concat_str", "escape_regex", "format"]
