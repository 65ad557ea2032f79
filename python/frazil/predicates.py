"""The predicates of `filter` and `remove`, read as Polars reads them.

Each positional argument is an expression, a column name (of a Boolean column), a list of
expressions, or a Boolean mask (a list/tuple of bools, a Boolean Series or NumPy array, one
value per row); `True`/`False` keep or drop every row. Anything else (numbers, other strings,
None, lists of non-expressions) is refused with Polars' "invalid predicate" TypeError rather
than read as a literal. Keyword arguments are `col(name) == value` constraints.
"""
from __future__ import annotations

from typing import Any

KEEP_ALL = object()  # the predicates keep every row
DROP_ALL = object()  # the predicates drop every row


def _is_bool_sequence(p: Any) -> bool:
    from frazil.datatypes import Boolean
    from frazil.series import Series

    if isinstance(p, Series):
        return p.dtype == Boolean
    if type(p).__module__ == "numpy" and type(p).__name__ == "ndarray":
        return p.dtype.kind == "b"
    return isinstance(p, (list, tuple)) and bool(p) and all(isinstance(x, bool) for x in p)


def _invalid(p: Any) -> TypeError:
    from frazil.series import Series

    shown = f"Series(…, dtype={p.dtype})" if isinstance(p, Series) else repr(p)
    return TypeError(f"invalid predicate for `filter`: {shown}")


def parse(predicates: tuple, constraints: dict, names: Any, *, invert: bool = False) -> Any:
    """The predicates as Boolean Exprs (a row passes when all are true; masks first), or
    KEEP_ALL / DROP_ALL. `names()` gives the frame's column names (asked only for a str)."""
    from collections.abc import Iterator

    from frazil.expr import Expr
    from frazil.functions import col, lit
    from frazil.series import Series

    exprs: list = []
    masks: list = []
    for p in predicates:
        if p is (not invert):  # filter(True) / remove(False): nothing is removed
            continue
        if p is invert:
            return DROP_ALL
        if isinstance(p, Iterator):  # a generator or iterator of predicates or booleans
            p = tuple(p)
        if _is_bool_sequence(p):
            masks.append(p if isinstance(p, Series) else Series("", list(p)))
        elif isinstance(p, (list, tuple)):
            if any(not isinstance(x, Expr) for x in p):
                raise _invalid(p)
            exprs.extend(p)
        elif isinstance(p, Expr):
            exprs.append(p)
        elif isinstance(p, str) and p in names():
            exprs.append(col(p))
        else:
            raise _invalid(p)
    exprs += [col(name) == lit(value) for name, value in constraints.items()]
    if masks:
        mask = masks[0]
        for m in masks[1:]:
            mask = mask & m
        exprs.insert(0, lit(mask.alias("")))
    return exprs or KEEP_ALL
