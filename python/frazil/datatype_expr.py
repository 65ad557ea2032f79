"""Polars' DataTypeExpr: a dtype that may be known only against a schema (`pl.dtype_of("a")`),
with its own small namespace (`inner_dtype`, `wrap_in_list`, `struct["a"]`, `arr.width` ...).

A DataTypeExpr is a resolution from a schema to a dtype, run by `collect_dtype(schema)`. The
methods that give values (`display`, `matches`, `default_value`, `==`, `arr.width`, ...) are
literal expressions of the resolved dtype, so they need a dtype known without a frame's schema
(one from `DataType.to_dtype_expr()` and the steps above it); on `dtype_of`/`self_dtype` they
raise an InvalidOperationError saying so. The same holds where a DataTypeExpr stands for a dtype
argument (cast, return_dtype): frazil plans dtypes before it sees a frame.
"""
from __future__ import annotations

import datetime as _dt
import decimal as _decimal
from typing import Any, Callable, Mapping

from frazil import datatypes as _t
from frazil.exceptions import InvalidOperationError, SchemaError

# A resolution: the schema (None when there is none) -> the dtype.
Resolve = Callable[[Any], "_t.DataType"]


class DataTypeExpr:
    """A dtype resolved against a schema (Polars' DataTypeExpr)."""

    __slots__ = ("_resolve", "_text")

    def __init__(self, resolve: Resolve, text: str) -> None:
        self._resolve = resolve
        self._text = text

    def __repr__(self) -> str:
        return f"DataTypeExpr({self._text})"

    def _derived(self, step: Callable[["_t.DataType"], "_t.DataType"], text: str) -> "DataTypeExpr":
        parent = self._resolve
        return DataTypeExpr(lambda schema: step(parent(schema)), f"{self._text}.{text}")

    def _known(self) -> "_t.DataType":
        """The dtype where no schema is at hand (a value-giving method)."""
        return self._resolve(None)

    def collect_dtype(self, context: Any) -> "_t.DataType":
        """The dtype against `context`: a Schema, a mapping of names to dtypes, or a (Lazy)Frame."""
        if hasattr(context, "collect_schema"):
            context = context.collect_schema()
        return self._resolve(_t.Schema(context))

    # ---- dtype to dtype ----
    def inner_dtype(self) -> "DataTypeExpr":
        """The inner dtype of a List or Array."""
        def step(d: "_t.DataType") -> "_t.DataType":
            if not isinstance(d, (_t.List, _t.Array)):
                raise InvalidOperationError(f"cannot get the inner dtype of `{_short(d)}`: expected List or Array")
            return d.inner
        return self._derived(step, "inner_dtype()")

    def wrap_in_list(self) -> "DataTypeExpr":
        """List of this dtype."""
        return self._derived(_t.List, "wrap_in_list()")

    def wrap_in_array(self, *, width: int) -> "DataTypeExpr":
        """Array of this dtype, `width` wide."""
        return self._derived(lambda d: _t.Array(d, width), f"wrap_in_array({width})")

    def to_unsigned_integer(self) -> "DataTypeExpr":
        """The unsigned integer of the same width."""
        return self._derived(lambda d: _integer_of(d, signed=False), "to_unsigned_integer()")

    def to_signed_integer(self) -> "DataTypeExpr":
        """The signed integer of the same width."""
        return self._derived(lambda d: _integer_of(d, signed=True), "to_signed_integer()")

    # ---- values ----
    def display(self) -> Any:
        """The dtype's short name ("i64", "list[str]") as a String literal."""
        from frazil.functions import lit

        return lit(_short(self._known()))

    def matches(self, selector: Any) -> Any:
        """Whether a column of this dtype is selected by `selector`, as a Boolean literal."""
        from frazil.functions import lit

        return lit(bool(selector._resolve([("literal", self._known())])))

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        from frazil.functions import lit

        return lit(self._known() == _dtype_of_operand(other))

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        from frazil.functions import lit

        return lit(self._known() != _dtype_of_operand(other))

    __hash__ = None  # type: ignore[assignment]

    def default_value(self, n: int = 1, *, numeric_to_one: bool = False, num_list_values: int = 0) -> Any:
        """`n` rows of the dtype's default (zero or one, "", the epoch, the first Enum
        category, nested defaults; null where there is none) named "literal"."""
        from frazil.functions import lit
        from frazil.series import Series

        dtype = self._known()
        value = _default(dtype, numeric_to_one, num_list_values)
        return lit(Series("literal", [value] * n, dtype=dtype))

    @property
    def list(self) -> "_ListNameSpace":
        return _ListNameSpace(self)

    @property
    def arr(self) -> "_ArrayNameSpace":
        return _ArrayNameSpace(self)

    @property
    def struct(self) -> "_StructNameSpace":
        return _StructNameSpace(self)


class _ListNameSpace:
    def __init__(self, expr: DataTypeExpr) -> None:
        self._expr = expr

    def inner_dtype(self) -> DataTypeExpr:
        """The inner dtype of a List (SchemaError otherwise)."""
        return self._expr._derived(lambda d: _inner(d, _t.List, "List"), "list.inner_dtype()")


class _ArrayNameSpace:
    def __init__(self, expr: DataTypeExpr) -> None:
        self._expr = expr

    def inner_dtype(self) -> DataTypeExpr:
        """The inner dtype of an Array (SchemaError otherwise)."""
        return self._expr._derived(lambda d: _inner(d, _t.Array, "Array"), "arr.inner_dtype()")

    def width(self) -> Any:
        """The Array's width as a UInt32 literal."""
        from frazil.functions import lit

        return lit(_inner_array(self._expr._known()).size, dtype=_t.UInt32)

    def shape(self) -> Any:
        """The Array's widths, outermost first, as a UInt32 column."""
        from frazil.functions import lit
        from frazil.series import Series

        d = _inner_array(self._expr._known())
        widths = []
        while isinstance(d, _t.Array):
            widths.append(d.size)
            d = d.inner
        return lit(Series("literal", widths, dtype=_t.UInt32))


class _StructNameSpace:
    def __init__(self, expr: DataTypeExpr) -> None:
        self._expr = expr

    def __getitem__(self, item: int | str) -> DataTypeExpr:
        return self.field_dtype(item)

    def field_dtype(self, item: int | str) -> DataTypeExpr:
        """The dtype of a field, by name or position (negative from the end)."""
        def step(d: "_t.DataType") -> "_t.DataType":
            fields = _struct_fields(d)
            if isinstance(item, str):
                for f in fields:
                    if f.name == item:
                        return f.dtype
                raise InvalidOperationError(f"struct has no field named '{item}'")
            i = item + len(fields) if item < 0 else item
            if not 0 <= i < len(fields):
                raise InvalidOperationError(f"struct field index {item} is out of bounds for {len(fields)} fields")
            return fields[i].dtype
        return self._expr._derived(step, f"struct[{item!r}]")

    def field_names(self) -> Any:
        """The field names as a String column."""
        from frazil.functions import lit
        from frazil.series import Series

        names = [f.name for f in _struct_fields(self._expr._known())]
        return lit(Series("literal", names, dtype=_t.String))


# ---- the constructors ----


def from_dtype(dtype: Any) -> DataTypeExpr:
    """A DataTypeExpr of a known dtype (DataType.to_dtype_expr)."""
    d = _t.parse_into_dtype(dtype)
    return DataTypeExpr(lambda schema: d, repr(d))


def dtype_of(expr: Any) -> DataTypeExpr:
    """The dtype of `expr` (a column name or an expression) against the schema."""
    from frazil.expr import Expr
    from frazil.functions import col

    e = col(expr) if isinstance(expr, str) else expr
    if not isinstance(e, Expr):
        raise TypeError(f"dtype_of expects a column name or an expression, got {type(expr).__name__}")

    def resolve(schema: Any) -> "_t.DataType":
        if schema is None:
            raise InvalidOperationError(
                f"pl.dtype_of({e!r}) is only known against a schema: use collect_dtype(schema); frazil plans "
                "dtypes before it sees a frame, so it cannot stand for a dtype argument or a value")
        from frazil.lazyframe import LazyFrame

        out = LazyFrame(schema=schema).select(e).collect_schema()
        if len(out) != 1:
            raise InvalidOperationError("DataType expression are not allowed to expand to more than 1 expression")
        return next(iter(out.values()))

    return DataTypeExpr(resolve, f"dtype_of({e!r})")


def self_dtype() -> DataTypeExpr:
    """The dtype of the expression it is applied to (Polars); frazil has no such context."""
    def resolve(schema: Any) -> "_t.DataType":
        raise InvalidOperationError("'self_dtype' cannot be used in this context")

    return DataTypeExpr(resolve, "self_dtype()")


def struct_with_fields(fields: Mapping[str, Any]) -> DataTypeExpr:
    """A Struct of the fields' dtypes (each a dtype or a DataTypeExpr)."""
    parts = [(name, _as_dtype_expr(d)) for name, d in fields.items()]

    def resolve(schema: Any) -> "_t.DataType":
        return _t.Struct({name: p._resolve(schema) for name, p in parts})

    return DataTypeExpr(resolve, "struct_with_fields(...)")


def resolve_known(obj: Any) -> "_t.DataType":
    """A dtype argument that is a DataTypeExpr, resolved where no schema is at hand."""
    return obj._known()


# ---- helpers ----


def _as_dtype_expr(obj: Any) -> DataTypeExpr:
    return obj if isinstance(obj, DataTypeExpr) else from_dtype(obj)


def _dtype_of_operand(other: Any) -> "_t.DataType":
    return other._known() if isinstance(other, DataTypeExpr) else _t.parse_into_dtype(other)


def _short(dtype: "_t.DataType") -> str:
    """Polars' short dtype name, as frazil's frame headers print it."""
    from frazil.series import Series

    return Series("", [], dtype=dtype)._col.dtype_short_name


def _inner(d: "_t.DataType", kind: type, name: str) -> "_t.DataType":
    if not isinstance(d, kind):
        raise SchemaError(f"invalid dtype: expected `{name}`, got `{_short(d)}`")
    return d.inner


def _inner_array(d: "_t.DataType") -> "_t.Array":
    if not isinstance(d, _t.Array):
        raise InvalidOperationError(f"invalid dtype: expected `Array`, got `{_short(d)}`")
    return d


def _struct_fields(d: "_t.DataType") -> list:
    if not isinstance(d, _t.Struct):
        raise InvalidOperationError(f"expected a Struct dtype, got `{_short(d)}`")
    return d.fields


_INTEGERS = {8: (_t.Int8, _t.UInt8), 16: (_t.Int16, _t.UInt16), 32: (_t.Int32, _t.UInt32),
             64: (_t.Int64, _t.UInt64)}


def _integer_of(d: "_t.DataType", *, signed: bool) -> "_t.DataType":
    if isinstance(d, _t.Int128) and signed:  # Polars 2.1 has no other 128-bit step here
        return d
    for width, (s, u) in _INTEGERS.items():
        if isinstance(d, (s, u)):
            return _INTEGERS[width][0 if signed else 1]()
    raise InvalidOperationError(f"expected an integer dtype, got `{_short(d)}`")


def _default(d: "_t.DataType", one: bool, list_values: int) -> Any:
    """The Python value of the dtype's default (None: the dtype has none)."""
    if isinstance(d, _t.Boolean):
        return False
    if isinstance(d, _t.Decimal):
        return _decimal.Decimal(0)
    if isinstance(d, _t.FloatType):
        return 1.0 if one else 0.0
    if isinstance(d, _t.IntegerType):
        return 1 if one else 0
    if isinstance(d, _t.String):
        return ""
    if isinstance(d, _t.Binary):
        return b""
    if isinstance(d, _t.Date):
        return _dt.date(1970, 1, 1)
    if isinstance(d, _t.Datetime):
        tz = None
        if d.time_zone is not None:
            import zoneinfo

            tz = zoneinfo.ZoneInfo(d.time_zone)
        return _dt.datetime(1970, 1, 1, tzinfo=tz)
    if isinstance(d, _t.Duration):
        return _dt.timedelta(0)
    if isinstance(d, _t.Time):
        return _dt.time(0)
    if isinstance(d, _t.Enum):
        return d._categories[0] if d._categories else None
    if isinstance(d, _t.List):
        return [_default(d.inner, one, list_values)] * list_values
    if isinstance(d, _t.Array):
        return [_default(d.inner, one, list_values)] * d.size
    if isinstance(d, _t.Struct):
        return {f.name: _default(f.dtype, one, list_values) for f in d.fields}
    return None  # Null, Categorical
