"""List constructors of the top-level namespace: pl.concat_list."""
from __future__ import annotations

from typing import Any

from frazil.expr import Expr, parse_many, wrap


def concat_list(exprs: Any, *more_exprs: Any) -> Expr:
    """Row by row, the lists (or values) of the inputs one after the other, in one list
    (strings are column names); a null list in any input gives a null row."""
    natives = parse_many([exprs, *more_exprs], str_as_lit=False)
    if not natives:
        raise ValueError("concat_list needs at least one expression")
    return wrap(natives[0].function("concat_list", natives[1:]))
