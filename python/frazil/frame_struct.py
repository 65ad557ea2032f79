"""Frame methods of the struct part: LazyFrame/DataFrame.unnest (each struct column
replaced by its fields, as a projection: projection pushdown reaches through it, so a
query that reads one field reads only that struct) and DataFrame.to_struct."""
from __future__ import annotations

from typing import Any


def _unnest_columns(schema: Any, columns: Any, more_columns: tuple) -> list[str]:
    from frazil.selectors import expand_selector, is_selector

    if columns is None and not more_columns:
        return [n for n, t in schema.items() if t.is_nested() and type(t).__name__ == "Struct"]
    items = []
    for c in ((columns,) if isinstance(columns, str) or is_selector(columns) else tuple(columns or ())) + more_columns:
        if is_selector(c):
            items.extend(expand_selector(schema, c))
        else:
            items.append(c)
    return items


def unnest(self: Any, columns: Any = None, *more_columns: Any, separator: str | None = None) -> Any:
    """Each named Struct column replaced by one column per field (in place)."""
    from frazil.exceptions import ColumnNotFoundError, InvalidOperationError
    from frazil.functions import col

    schema = self.collect_schema()
    names = _unnest_columns(schema, columns, more_columns)
    for n in names:
        if n not in schema:
            raise ColumnNotFoundError(f'unable to find column "{n}"; valid columns: {schema.names()}')
        if type(schema[n]).__name__ != "Struct":
            raise InvalidOperationError(f"invalid dtype: expected Struct, got {schema[n]} for column '{n}'")
    wanted = set(names)
    exprs = []
    for n in schema.names():
        if n not in wanted:
            exprs.append(col(n))
        elif separator is None:
            exprs.append(col(n).struct.unnest())
        else:
            exprs += [col(n).struct.field(f.name).alias(f"{n}{separator}{f.name}") for f in schema[n].fields]
    return self.select(exprs)


def to_struct(self: Any, name: str = "") -> Any:
    """The frame's rows as one Struct series."""
    from frazil.expr_struct import struct
    from frazil.functions import all as all_columns

    return self.select(struct(all_columns()).alias(name)).to_series()


def install(lazy_cls: type, frame_cls: type) -> None:
    if "unnest" not in lazy_cls.__dict__:
        lazy_cls.unnest = unnest
    if "unnest" not in frame_cls.__dict__:
        frame_cls.unnest = unnest
    if "to_struct" not in frame_cls.__dict__:
        frame_cls.to_struct = to_struct
