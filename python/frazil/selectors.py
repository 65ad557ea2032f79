"""Polars' selectors (`import frazil.selectors as cs`): column selections by dtype, name or
position, combined with set operations (`|` union, `&` intersection, `-` difference, `^`
symmetric difference, `~` complement). A selector is an expression: it can stand wherever
column expressions do (select, with_columns, group_by, sort, ...) and is resolved against the
input's schema when the query is planned (the C++ Selector node calls back into `_resolve`).
A selector combined with a non-selector expression is an ordinary expression operator."""
from __future__ import annotations

import builtins
import re
from typing import Any, Callable, Collection, Iterable, Mapping

from frazil import _frazil
from frazil.expr import Expr, wrap

__all__ = [
    "Selector", "all", "alpha", "alphanumeric", "array", "binary", "boolean", "by_dtype", "by_index",
    "by_name", "categorical", "contains", "date", "datetime", "decimal", "digit", "duration", "empty",
    "ends_with", "enum", "exclude", "expand_selector", "first", "float", "integer", "is_selector", "last",
    "list", "matches", "nested", "numeric", "object", "signed_integer", "starts_with", "string", "struct",
    "temporal", "time", "unsigned_integer",
]

_builtin_all = all
_builtin_list = list

# A resolution: the schema's (name, dtype) pairs -> the names selected, in their order.
Resolve = Callable[[list], list]


class Selector(Expr):
    """A column selection resolved against a schema; an Expr everywhere else."""

    __slots__ = ("_resolve", "_repr")

    @classmethod
    def _make(cls, resolve: Resolve, text: str) -> "Selector":
        s = cls.__new__(cls)
        s._resolve = resolve
        s._repr = text

        def native_resolve(fields: Any) -> list:
            from frazil.datatypes import from_native

            return resolve([(n, from_native(d)) for n, d in fields])

        s._pyexpr = _frazil.selector(native_resolve, text)
        return s

    def __repr__(self) -> str:
        return self._repr

    def __hash__(self) -> int:
        return hash(self._repr)

    def as_expr(self) -> Expr:
        """The selection as a plain expression (operators are then the Expr operators)."""
        return wrap(self._pyexpr)

    # ---- set operations (with another selector) ----
    def _set_op(self, other: Any, symbol: str, keep: Callable[[bool, bool], bool]) -> "Selector":
        a, b = self._resolve, other._resolve

        def resolve(fields: list) -> list:
            sa, sb = set(a(fields)), set(b(fields))
            return [n for n, _ in fields if keep(n in sa, n in sb)]

        return Selector._make(resolve, f"[{self!r} {symbol} {other!r}]")

    def __or__(self, other: Any) -> Any:
        other = _column_selector(other)
        if isinstance(other, Selector):
            return self._set_op(other, "|", lambda x, y: x or y)
        return self.as_expr() | other

    def __and__(self, other: Any) -> Any:
        other = _column_selector(other)
        if isinstance(other, Selector):
            return self._set_op(other, "&", lambda x, y: x and y)
        return self.as_expr() & other

    def __sub__(self, other: Any) -> Any:
        # (a column on the right is arithmetic here, not a set difference, as in Polars)
        if isinstance(other, Selector):
            return self._set_op(other, "-", lambda x, y: x and not y)
        return self.as_expr() - other

    def __xor__(self, other: Any) -> Any:
        other = _column_selector(other)
        if isinstance(other, Selector):
            return self._set_op(other, "^", lambda x, y: x != y)
        return self.as_expr() ^ other

    def __ror__(self, other: Any) -> Any:
        return other | self.as_expr()

    def __rand__(self, other: Any) -> Any:
        return other & self.as_expr()

    def __invert__(self) -> "Selector":
        return all()._set_op(self, "-", lambda x, y: x and not y)

    def exclude(self, columns: Any, *more_columns: Any) -> "Selector":  # type: ignore[override]
        """This selection without the named columns (or the columns another selector picks)."""
        return self - _as_selector(columns, more_columns)


_COLUMN = re.compile(r'^col\("((?:[^"\\]|\\.)*)"\)$')


def _column_selector(other: Any) -> Any:
    """pl.col("a") as the selector by_name("a") (Polars reads a column as a selector in set
    operations); anything else as it is."""
    if isinstance(other, Expr) and not isinstance(other, Selector):
        m = _COLUMN.match(repr(other))
        if m:
            return by_name(m.group(1))
    return other


def _by_dtype_predicate(pred: Callable[[Any], bool], text: str) -> Selector:
    return Selector._make(lambda fields: [n for n, t in fields if pred(t)], text)


def _names_of(items: Iterable[Any]) -> _builtin_list:
    out = []
    for x in items:
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, Collection):
            out.extend(_names_of(x))
        else:
            raise TypeError(f"invalid name: {x!r}")
    return out


def _as_selector(columns: Any, more: tuple = ()) -> Selector:
    """Names, dtypes or selectors as one selector (their union)."""
    from frazil.datatypes import DataType, DataTypeClass

    items = ([columns] if isinstance(columns, (str, Selector, DataType, DataTypeClass)) or not isinstance(columns, Collection)
             else _builtin_list(columns)) + _builtin_list(more)
    out: Selector | None = None
    for x in items:
        s = x if isinstance(x, Selector) else by_name(x, require_all=False) if isinstance(x, str) else by_dtype(x)
        out = s if out is None else out | s
    return out if out is not None else empty()


# ---- every column / none / positions ----
def all() -> Selector:  # noqa: A001 - Polars' name
    """Every column."""
    return Selector._make(lambda fields: [n for n, _ in fields], "cs.all()")


def empty() -> Selector:
    """No column."""
    return Selector._make(lambda fields: [], "cs.empty()")


def first(*, strict: bool = True) -> Selector:
    """The first column."""
    return Selector._make(lambda fields: [fields[0][0]] if fields else [], "cs.first(require=true)")


def last(*, strict: bool = True) -> Selector:
    """The last column."""
    return Selector._make(lambda fields: [fields[-1][0]] if fields else [], "cs.last(require=true)")


def by_index(*indices: Any, require_all: bool = True) -> Selector:
    """The columns at the given positions (negative from the end; ranges allowed), in that order."""
    idx: _builtin_list = []
    for i in indices:
        if isinstance(i, (range, _builtin_list, tuple)):
            idx.extend(i)
        else:
            idx.append(i)

    def resolve(fields: list) -> list:
        from frazil.exceptions import ColumnNotFoundError

        out = []
        for i in idx:
            j = i + len(fields) if i < 0 else i
            if 0 <= j < len(fields):
                out.append(fields[j][0])
            elif require_all:
                raise ColumnNotFoundError(f"by_index: index {i} is out of bounds for {len(fields)} columns")
        return out

    return Selector._make(resolve, f"cs.by_index({idx if len(idx) != 1 else idx[0]}, require_all={'true' if require_all else 'false'})")


def by_name(*names: Any, require_all: bool = True) -> Selector:
    """The named columns, in the order given (require_all: every name must exist)."""
    wanted = _names_of(names)

    def resolve(fields: list) -> list:
        from frazil.exceptions import ColumnNotFoundError

        have = {n for n, _ in fields}
        missing = [n for n in wanted if n not in have]
        if missing and require_all:
            raise ColumnNotFoundError(f'unable to find column "{missing[0]}"; valid columns: {[n for n, _ in fields]}')
        seen: set = set()
        return [n for n in wanted if n in have and not (n in seen or seen.add(n))]

    quoted = ", ".join(repr(n) for n in wanted)
    return Selector._make(resolve, f"cs.by_name({quoted}, require_all={'true' if require_all else 'false'})")


# ---- by name pattern ----
def matches(pattern: str) -> Selector:
    """The columns whose name matches the regex `pattern` (anywhere in the name)."""
    rx = re.compile(pattern)
    return Selector._make(lambda fields: [n for n, _ in fields if rx.search(n)], f'cs.matches("{pattern}")')


def _any_of(strings: tuple) -> str:
    return "|".join(re.escape(s) for s in _names_of(strings))


def starts_with(*prefix: str) -> Selector:
    """The columns whose name starts with any of the prefixes."""
    rx = re.compile(f"^({_any_of(prefix)})")
    return Selector._make(lambda fields: [n for n, _ in fields if rx.search(n)], f'cs.matches("{rx.pattern}")')


def ends_with(*suffix: str) -> Selector:
    """The columns whose name ends with any of the suffixes."""
    rx = re.compile(f"({_any_of(suffix)})$")
    return Selector._make(lambda fields: [n for n, _ in fields if rx.search(n)], f'cs.matches("{rx.pattern}")')


def contains(*substring: str) -> Selector:
    """The columns whose name contains any of the substrings."""
    rx = re.compile(f"({_any_of(substring)})")
    return Selector._make(lambda fields: [n for n, _ in fields if rx.search(n)], f'cs.matches("{rx.pattern}")')


def _flags(**flags: bool) -> str:
    """The flags that differ from False, as a selector's repr shows them (and tells selectors apart)."""
    return ", ".join(f"{k}=true" for k, v in flags.items() if v)


def alpha(ascii_only: bool = False, *, ignore_spaces: bool = False) -> Selector:
    """The columns whose name is letters only."""
    def ok(c: str) -> bool:
        if ignore_spaces and c == " ":
            return True
        return (c.isascii() and c.isalpha()) if ascii_only else c.isalpha()

    return Selector._make(lambda fields: [n for n, _ in fields if n and _builtin_all(ok(c) for c in n)],
                          f"cs.alpha({_flags(ascii_only=ascii_only, ignore_spaces=ignore_spaces)})")


def alphanumeric(ascii_only: bool = False, *, ignore_spaces: bool = False) -> Selector:
    """The columns whose name is letters and digits only."""
    def ok(c: str) -> bool:
        if ignore_spaces and c == " ":
            return True
        return (c.isascii() and c.isalnum()) if ascii_only else (c.isalpha() or c.isdigit())

    return Selector._make(lambda fields: [n for n, _ in fields if n and _builtin_all(ok(c) for c in n)],
                          f"cs.alphanumeric({_flags(ascii_only=ascii_only, ignore_spaces=ignore_spaces)})")


def digit(ascii_only: bool = False) -> Selector:
    """The columns whose name is digits only."""
    def ok(c: str) -> bool:
        return c in "0123456789" if ascii_only else c.isdigit()

    return Selector._make(lambda fields: [n for n, _ in fields if n and _builtin_all(ok(c) for c in n)],
                          f"cs.digit({_flags(ascii_only=ascii_only)})")


# ---- by dtype ----
def _kind(t: Any) -> str:
    return type(t).__name__


def by_dtype(*dtypes: Any) -> Selector:
    """The columns of the given dtypes (a dtype class matches every parametrization of it)."""
    from frazil.datatypes import parse_into_dtype

    flat: _builtin_list = []
    for d in dtypes:
        if isinstance(d, (_builtin_list, tuple, set, frozenset)):
            flat.extend(d)
        else:
            flat.append(d)

    import datetime as _dt
    import decimal as _decimal

    from frazil import datatypes as D

    py_types = {int: D.IntegerType, builtins.float: D.FloatType, bool: D.Boolean, str: D.String, bytes: D.Binary,
                _dt.datetime: D.Datetime, _dt.date: D.Date, _dt.timedelta: D.Duration, _dt.time: D.Time,
                _decimal.Decimal: D.Decimal}
    flat = [py_types.get(d, d) if isinstance(d, type) else d for d in flat]

    def matches_one(t: Any, d: Any) -> bool:
        if isinstance(d, type):
            return isinstance(t, d) or _kind(t) == d.__name__
        if _kind(d) == "Datetime" and getattr(d, "time_zone", None) == "*":
            # Datetime(unit, time_zone="*"): that unit in any time zone (not without one).
            return _kind(t) == "Datetime" and t.time_unit == d.time_unit and t.time_zone is not None
        try:
            return t == parse_into_dtype(d)
        except TypeError:
            return False

    text = ", ".join(repr(d) for d in flat)
    return _by_dtype_predicate(lambda t: _builtin_any(matches_one(t, d) for d in flat), f"cs.by_dtype([{text}])")


_builtin_any = any


def numeric() -> Selector:
    return _by_dtype_predicate(lambda t: t.is_numeric(), "cs.numeric()")


def integer() -> Selector:
    return _by_dtype_predicate(lambda t: t.is_integer(), "cs.integer()")


def signed_integer() -> Selector:
    return _by_dtype_predicate(lambda t: t.is_signed_integer(), "cs.signed_integer()")


def unsigned_integer() -> Selector:
    return _by_dtype_predicate(lambda t: t.is_unsigned_integer(), "cs.unsigned_integer()")


def float() -> Selector:  # noqa: A001
    return _by_dtype_predicate(lambda t: t.is_float(), "cs.float()")


def decimal() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Decimal", "cs.decimal()")


def string(*, include_categorical: bool = False) -> Selector:
    out = _by_dtype_predicate(lambda t: _kind(t) == "String", "cs.string()")
    return out | categorical() if include_categorical else out


def binary() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Binary", "cs.binary()")


def boolean() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Boolean", "cs.boolean()")


def categorical() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Categorical", "cs.categorical()")


def enum() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Enum", "cs.enum()")


def object() -> Selector:  # noqa: A001
    return _by_dtype_predicate(lambda t: _kind(t) == "Object", "cs.object()")


def temporal() -> Selector:
    return _by_dtype_predicate(lambda t: t.is_temporal(), "cs.temporal()")


def date() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Date", "cs.date()")


def time() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Time", "cs.time()")


def _units(values: Any, default: _builtin_list) -> Any:
    if values is None:
        return None
    return [values] if isinstance(values, str) or not isinstance(values, Collection) else _builtin_list(values)


def datetime(time_unit: Any = None, time_zone: Any = ("*", None)) -> Selector:
    """Datetime columns, optionally of the given units and time zones ("*": any zone)."""
    units = _units(time_unit, [])
    if units is not None and not _builtin_all(u in ("ms", "us", "ns") for u in units):
        raise TypeError(f"invalid time_unit for cs.datetime: {time_unit!r} (expected 'ms', 'us' or 'ns')")
    # time_zone=None is "no time zone"; "*" any zone; the default, any or none.
    zones = [None] if time_zone is None else _units(time_zone, [])

    def ok(t: Any) -> bool:
        if _kind(t) != "Datetime":
            return False
        if units is not None and t.time_unit not in units:
            return False
        if zones is not None:
            tz = t.time_zone
            if not ((tz is None and None in zones) or (tz is not None and ("*" in zones or tz in zones))):
                return False
        return True

    unit_text = "*" if units is None else repr(units[0]) if len(units) == 1 else repr(units)
    zone_text = "*" if zones is None or zones == ["*", None] else repr(zones[0]) if len(zones) == 1 else repr(zones)
    return _by_dtype_predicate(ok, f"cs.datetime(time_unit={unit_text}, time_zone={zone_text})")


def duration(time_unit: Any = None) -> Selector:
    units = _units(time_unit, [])
    return _by_dtype_predicate(lambda t: _kind(t) == "Duration" and (units is None or t.time_unit in units),
                               f"cs.duration(time_unit={'*' if units is None else repr(units[0]) if len(units) == 1 else repr(units)})")


def list(inner: Selector | None = None) -> Selector:  # noqa: A001
    """List columns (optionally whose inner dtype `inner` selects)."""
    def ok(t: Any) -> bool:
        return _kind(t) == "List" and (inner is None or bool(inner._resolve([("", t.inner)])))

    return _by_dtype_predicate(ok, "cs.list()" if inner is None else f"cs.list({inner!r})")


def array(inner: Selector | None = None, *, width: int | None = None) -> Selector:
    def ok(t: Any) -> bool:
        if _kind(t) != "Array":
            return False
        if width is not None and getattr(t, "size", getattr(t, "width", None)) != width:
            return False
        return inner is None or bool(inner._resolve([("", t.inner)]))

    args = ", ".join(x for x in (None if inner is None else repr(inner), None if width is None else f"width={width}") if x)
    return _by_dtype_predicate(ok, f"cs.array({args})")


def struct() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) == "Struct", "cs.struct()")


def nested() -> Selector:
    return _by_dtype_predicate(lambda t: _kind(t) in ("List", "Array", "Struct"), "cs.nested()")


def exclude(columns: Any, *more_columns: Any) -> Selector:
    """Every column but the named ones (names, dtypes or selectors)."""
    return all() - _as_selector(columns, more_columns)


# ---- helpers ----
def is_selector(obj: Any) -> bool:
    """Whether `obj` is a selector."""
    return isinstance(obj, Selector)


def expand_selector(target: Any, selector: Any, *, strict: bool = True) -> tuple:
    """The column names `selector` picks in `target` (a DataFrame, LazyFrame or schema mapping)."""
    from frazil.datatypes import parse_into_dtype

    if isinstance(target, Mapping):
        fields = [(n, parse_into_dtype(t)) for n, t in target.items()]
    else:
        fields = _builtin_list(target.collect_schema().items())
    if not isinstance(selector, Selector):
        if strict:
            raise TypeError(f"expected a selector; found {selector!r} instead")
        from frazil.lazyframe import LazyFrame  # an expression: resolve by a select on an empty frame

        from frazil.dataframe import DataFrame

        empty_frame = DataFrame({n: [] for n, _ in fields}).cast({n: t for n, t in fields}) if fields else DataFrame()
        del LazyFrame
        return tuple(empty_frame.lazy().select(selector).collect_schema().names())
    return tuple(selector._resolve(fields))
