"""Python types and type annotations read as frazil dtypes, as Polars reads them
(polars.datatypes._parse): `int`, `datetime` (and its subclasses: Datetime("us")), `list[int]`
and `tuple[str, ...]` (Lists of their one inner type), `int | None` and `Optional[int]`
(the one non-null member), ForwardRef("date") (the text of an annotation, e.g. a NamedTuple's
under `from __future__ import annotations`) and Python Enum classes (an Enum of their values).
Anything else is Polars' TypeError ("cannot parse input ... into Polars data type").
"""
from __future__ import annotations

import datetime as _dt
import decimal as _decimal
import enum as _enum
import re
from types import NoneType, UnionType
from typing import Any, ForwardRef, NoReturn, Union, get_args, get_origin


def _raise_on_invalid_dtype(obj: Any) -> NoReturn:
    what = obj if type(obj) is type else f"of type {type(obj).__name__!r}"
    given = "" if type(obj) is type else f" (given: {obj!r})"
    raise TypeError(f"cannot parse input {what} into Polars data type{given}")


def parse_py_type_into_dtype(obj: Any) -> Any:
    """A Python type (or a generic alias of list/tuple) as a dtype."""
    from frazil import datatypes as d

    simple = {int: d.Int64, float: d.Float64, str: d.String, bool: d.Boolean, _dt.time: d.Time,
              bytes: d.Binary, NoneType: d.Null}
    if obj in simple:
        return simple[obj]()
    if isinstance(obj, type):
        # Subclasses count (pandas' Timestamp is a datetime, its Timedelta a timedelta).
        if issubclass(obj, _dt.datetime):
            return d.Datetime("us")
        if issubclass(obj, _dt.date):
            return d.Date()
        if issubclass(obj, _dt.timedelta):
            return d.Duration
        if issubclass(obj, _enum.Enum):
            return d.Enum(obj)
    if obj is _decimal.Decimal:
        return d.Decimal
    if obj is list or obj is tuple:
        return d.List
    if get_origin(obj) is not None and get_args(obj):
        return _parse_generic_into_dtype(obj)
    _raise_on_invalid_dtype(obj)


def _parse_generic_into_dtype(obj: Any) -> Any:
    """list[T] or tuple[T, ...] (or tuple[T, T]): a List of T."""
    from frazil import datatypes as d

    if get_origin(obj) not in (list, tuple):
        _raise_on_invalid_dtype(obj)
    args = get_args(obj)
    if any(a is not args[0] and a is not Ellipsis for a in args[1:]):
        _raise_on_invalid_dtype(obj)
    inner = parse_py_type_into_dtype(args[0])
    return d.List(inner() if isinstance(inner, type) else inner)


def _forward_ref_types() -> dict:
    from frazil import datatypes as d

    return {"Decimal": d.Decimal, "NoneType": d.Null(), "bool": d.Boolean(), "bytes": d.Binary(), "date": d.Date(),
            "datetime": d.Datetime("us"), "float": d.Float64(), "int": d.Int64(), "list": d.List, "str": d.String(),
            "time": d.Time(), "timedelta": d.Duration, "tuple": d.List}


def _parse_forward_ref_into_dtype(obj: ForwardRef) -> Any:
    """The text of an annotation ("int | None"): nullability dropped, frazil columns are nullable."""
    text = re.sub(r"(^None \|)|(\| None$)", "", obj.__forward_arg__).strip()
    types = _forward_ref_types()
    if text not in types:
        _raise_on_invalid_dtype(obj)
    return types[text]


def _parse_union_type_into_dtype(obj: Any) -> Any:
    """`T | None` or Optional[T]: T's dtype; a union of several non-null types is a TypeError."""
    from frazil.datatypes import parse_into_dtype

    members = [t for t in get_args(obj) if t is not NoneType]
    if len(members) != 1:
        _raise_on_invalid_dtype(obj)
    return parse_into_dtype(members[0])


def is_annotation(obj: Any) -> bool:
    """Whether parse_into_dtype should read `obj` here (an annotation, not a dtype or a name)."""
    return (isinstance(obj, (ForwardRef, UnionType)) or get_origin(obj) is Union
            or (get_origin(obj) in (list, tuple) and bool(get_args(obj)))
            or (isinstance(obj, type) and issubclass(obj, (_dt.date, _dt.timedelta, _enum.Enum))))


def parse_annotation(obj: Any) -> Any:
    if isinstance(obj, ForwardRef):
        return _parse_forward_ref_into_dtype(obj)
    if isinstance(obj, UnionType) or get_origin(obj) is Union:
        return _parse_union_type_into_dtype(obj)
    return parse_py_type_into_dtype(obj)
