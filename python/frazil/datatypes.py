"""Data types with Polars' names, parameters, equality and repr.

A dtype can be used as a class (``frazil.Int64``) or an instance (``frazil.Int64()``);
both compare equal, and a parametric class such as ``Datetime`` equals any of its
instances, as in Polars. frazil dtypes also compare equal to the Polars dtype of the
same name and parameters.
"""
from __future__ import annotations

import datetime as _dt
import decimal as _decimal
from collections import OrderedDict
from collections.abc import Mapping
_TIME_UNITS = ("ns", "us", "ms")


def _is_foreign_polars(obj) -> bool:
    mod = getattr(type(obj), "__module__", "") or ""
    if isinstance(obj, type):
        mod = getattr(obj, "__module__", "") or ""
    return mod.startswith("polars")


class DataTypeClass(type):
    """Metaclass of the dtype classes: class-level repr, equality and hashing."""

    def __repr__(cls) -> str:
        return cls.__name__

    __str__ = __repr__

    def __eq__(cls, other) -> bool:
        if isinstance(other, DataTypeClass):
            return cls is other
        if isinstance(other, DataType):
            return type(other) is cls
        if _is_foreign_polars(other):
            other_name = other.__name__ if isinstance(other, type) else type(other).__name__
            return cls.__name__ == other_name
        return False

    def __ne__(cls, other) -> bool:
        return not DataTypeClass.__eq__(cls, other)

    def __hash__(cls) -> int:
        return hash(cls.__name__)


class _ClassOrInstanceMethod:
    """A method callable on a dtype class (as its default instance) or on an instance."""

    def __init__(self, function) -> None:
        self.function = function

    def __get__(self, obj, cls):
        import functools

        return functools.partial(self.function, obj if obj is not None else cls())


def _to_dtype_expr(dtype):
    """This dtype as a DataTypeExpr (frazil.datatype_expr)."""
    from frazil.datatype_expr import from_dtype

    return from_dtype(dtype)


class DataType(metaclass=DataTypeClass):
    """Base class of all data types."""

    to_dtype_expr = _ClassOrInstanceMethod(_to_dtype_expr)

    @classmethod
    def from_python(cls, py_type) -> "DataType":
        """The dtype of a Python type or annotation (int, int | None, list[str], ...)."""
        return parse_into_dtype(py_type)

    def _params(self) -> tuple:
        return ()

    def __repr__(self) -> str:
        return type(self).__name__

    def __str__(self) -> str:
        return self.__repr__()

    def __eq__(self, other) -> bool:
        if isinstance(other, DataTypeClass):
            return isinstance(self, other)
        if isinstance(other, DataType):
            return type(self) is type(other) and self._params() == other._params()
        if _is_foreign_polars(other):
            if isinstance(other, type):
                return type(self).__name__ == other.__name__
            return repr(self) == repr(other)
        return False

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def is_(self, other) -> bool:
        """Whether `other` is this very dtype, parameters included (stricter than ==, which lets
        a class stand for any of its instances)."""
        return self == other and hash(self) == hash(other)

    def to_python(self) -> type:
        """The Python type of this dtype's values (Polars' DataType.to_python)."""
        import datetime
        import decimal

        name = type(self).__name__
        if name.startswith(("Int", "UInt")):
            return int
        by_name = {"Float16": float, "Float32": float, "Float64": float, "Boolean": bool, "String": str,
                   "Utf8": str, "Categorical": str, "Enum": str, "Binary": bytes, "Date": datetime.date,
                   "Datetime": datetime.datetime, "Duration": datetime.timedelta, "Time": datetime.time,
                   "Decimal": decimal.Decimal, "List": list, "Array": list, "Struct": dict,
                   "Null": type(None), "Object": object}
        if name not in by_name:
            raise NotImplementedError(f"no Python type for dtype {self!r}")
        return by_name[name]

    def __hash__(self) -> int:
        params = self._params()
        return hash((type(self).__name__, params)) if params else hash(type(self).__name__)

    @classmethod
    def base_type(cls) -> DataTypeClass:
        """The dtype class without its parameters (Datetime for Datetime('ms'))."""
        return cls

    @classmethod
    def is_numeric(cls) -> bool:
        """Whether the dtype is an integer, float or decimal."""
        return issubclass(cls, NumericType)

    @classmethod
    def is_integer(cls) -> bool:
        """Whether the dtype is a signed or unsigned integer."""
        return issubclass(cls, IntegerType)

    @classmethod
    def is_signed_integer(cls) -> bool:
        """Whether the dtype is Int8..Int64."""
        return issubclass(cls, SignedIntegerType)

    @classmethod
    def is_unsigned_integer(cls) -> bool:
        """Whether the dtype is UInt8..UInt64."""
        return issubclass(cls, UnsignedIntegerType)

    @classmethod
    def is_float(cls) -> bool:
        """Whether the dtype is Float32 or Float64."""
        return issubclass(cls, FloatType)

    @classmethod
    def is_temporal(cls) -> bool:
        """Whether the dtype is Date, Datetime, Duration or Time."""
        return issubclass(cls, TemporalType)

    @classmethod
    def is_nested(cls) -> bool:
        """Whether the dtype is List or Struct."""
        return issubclass(cls, NestedType)


class NumericType(DataType):
    """Base class of the numeric dtypes."""
    pass


class IntegerType(NumericType):
    """Base class of the integer dtypes."""

    @classmethod
    def max(cls):
        """A literal of the largest value of this dtype."""
        return _bound_literal(cls, True)

    @classmethod
    def min(cls):
        """A literal of the smallest value of this dtype."""
        return _bound_literal(cls, False)


class SignedIntegerType(IntegerType):
    """Base class of Int8..Int64."""
    pass


class UnsignedIntegerType(IntegerType):
    """Base class of UInt8..UInt64."""
    pass


class FloatType(NumericType):
    """Base class of Float32 and Float64."""

    @classmethod
    def max(cls):
        """A literal of +inf in this dtype."""
        return _bound_literal(cls, True)

    @classmethod
    def min(cls):
        """A literal of -inf in this dtype."""
        return _bound_literal(cls, False)


def _bound_literal(cls, upper: bool):
    from frazil.functions import lit

    name = cls.__name__
    if issubclass(cls, FloatType):
        value = float("inf") if upper else float("-inf")
    elif name == "Time":
        value = _dt.time(23, 59, 59, 999999) if upper else _dt.time(0, 0)
    else:
        bits = int("".join(c for c in name if c.isdigit()))
        signed = issubclass(cls, SignedIntegerType)
        value = (2 ** (bits - 1) - 1 if signed else 2**bits - 1) if upper else (-(2 ** (bits - 1)) if signed else 0)
    return lit(value, dtype=cls())


class TemporalType(DataType):
    """Base class of Date, Datetime, Duration and Time."""
    pass


class NestedType(DataType):
    """Base class of List and Struct."""
    pass


class Int8(SignedIntegerType):
    """8-bit signed integer."""


class Int16(SignedIntegerType):
    """16-bit signed integer."""


class Int32(SignedIntegerType):
    """32-bit signed integer."""


class Int64(SignedIntegerType):
    """64-bit signed integer."""


class UInt8(UnsignedIntegerType):
    """8-bit unsigned integer."""


class UInt16(UnsignedIntegerType):
    """16-bit unsigned integer."""


class UInt32(UnsignedIntegerType):
    """32-bit unsigned integer."""


class UInt64(UnsignedIntegerType):
    """64-bit unsigned integer."""


class Int128(SignedIntegerType):
    """128-bit signed integer."""


class UInt128(UnsignedIntegerType):
    """128-bit unsigned integer."""


class Float16(FloatType):
    """16-bit (half precision) float; computed in Float32 and stored back."""


class Float32(FloatType):
    """32-bit float."""


class Float64(FloatType):
    """64-bit float."""


class Boolean(DataType):
    """Boolean."""


class String(DataType):
    """UTF-8 string."""


Utf8 = String


class Binary(DataType):
    """Bytes."""


class Null(DataType):
    """The type of a column of nulls only."""


class Unknown(DataType):
    """A dtype not known yet (Polars' Unknown): given to a constructor, the dtype is inferred."""


class Date(TemporalType):
    """Calendar date (days since 1970-01-01)."""


class Time(TemporalType):
    """Time of day (nanoseconds since midnight)."""

    @classmethod
    def max(cls):
        """A literal of 23:59:59.999999."""
        return _bound_literal(cls, True)

    @classmethod
    def min(cls):
        """A literal of 00:00."""
        return _bound_literal(cls, False)


def _check_unit(time_unit: str) -> str:
    if time_unit not in _TIME_UNITS:
        raise ValueError(f"invalid `time_unit`: expected one of {{'ns', 'us', 'ms'}}, got {time_unit!r}")
    return time_unit


class Datetime(TemporalType):
    """Date and time since the epoch in `time_unit`, optionally in a time zone."""

    def __init__(self, time_unit: str = "us", time_zone: str | _dt.tzinfo | None = None):
        self.time_unit = _check_unit(time_unit or "us")
        if isinstance(time_zone, _dt.tzinfo):
            time_zone = getattr(time_zone, "key", None) or "UTC"
        self.time_zone = time_zone

    def _params(self) -> tuple:
        return (self.time_unit, self.time_zone)

    def __repr__(self) -> str:
        return f"Datetime(time_unit={self.time_unit!r}, time_zone={self.time_zone!r})"


class Duration(TemporalType):
    """Time difference in `time_unit`."""

    def __init__(self, time_unit: str = "us"):
        self.time_unit = _check_unit(time_unit or "us")

    def _params(self) -> tuple:
        return (self.time_unit,)

    def __repr__(self) -> str:
        return f"Duration(time_unit={self.time_unit!r})"


class Decimal(NumericType):
    """128-bit decimal with `precision` digits, `scale` of them after the point."""

    def __init__(self, precision: int | None = None, scale: int = 0):
        if precision is None:
            precision = 38
        if not (1 <= precision <= 38) or not (0 <= scale <= precision):
            raise ValueError(f"invalid Decimal(precision={precision}, scale={scale})")
        self.precision = precision
        self.scale = scale

    def _params(self) -> tuple:
        return (self.precision, self.scale)

    def __repr__(self) -> str:
        return f"Decimal(precision={self.precision}, scale={self.scale})"


class List(NestedType):
    """Variable-length list of `inner` values."""

    def __init__(self, inner):
        self.inner = parse_into_dtype(inner)

    def _params(self) -> tuple:
        return (self.inner,)

    def __repr__(self) -> str:
        return f"List({self.inner!r})"


class Array(NestedType):
    """Fixed-size list: every value holds `size` values of `inner` (Polars' pl.Array).

    ``Array(Int64, (2, 3))`` is ``Array(Array(Int64, 3), 2)``.
    """

    def __init__(self, inner, shape=None, *, width=None):
        if width is not None:
            shape = width
        elif shape is None:
            raise TypeError("Array constructor is missing the required argument `shape`")
        inner = parse_into_dtype(inner)
        inner_shape = inner.shape if isinstance(inner, Array) else ()
        if isinstance(shape, int) and not isinstance(shape, bool):
            self.inner, self.size, self.shape = inner, shape, (shape,) + inner_shape
        elif isinstance(shape, tuple) and shape and all(isinstance(d, int) for d in shape):
            if len(shape) > 1:
                inner = Array(inner, shape[1:])
            self.inner, self.size, self.shape = inner, shape[0], shape + inner_shape
        else:
            raise TypeError(f"invalid input for shape: {shape!r}")
        if any(d < 0 for d in self.shape):
            raise ValueError(f"invalid input for shape: {shape!r}")

    @property
    def width(self) -> int:
        return self.size

    def _params(self) -> tuple:
        return (self.inner, self.size)

    def __repr__(self) -> str:
        leaf = self.inner
        while isinstance(leaf, Array):
            leaf = leaf.inner
        return f"Array({leaf!r}, shape={self.shape})"


class Field:
    """A named dtype: one field of a Struct."""

    def __init__(self, name: str, dtype):
        self.name = name
        self.dtype = parse_into_dtype(dtype)

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Field) or _is_foreign_polars(other)
        ) and self.name == other.name and self.dtype == other.dtype

    def __hash__(self) -> int:
        return hash((self.name, self.dtype))

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.dtype!r})"


class Struct(NestedType):
    """Named fields of possibly different dtypes."""

    def __init__(self, fields):
        if isinstance(fields, Mapping):
            self.fields = [Field(name, dtype) for name, dtype in fields.items()]
        else:
            self.fields = [f if isinstance(f, Field) else Field(f.name, f.dtype) for f in fields]

    def _params(self) -> tuple:
        return tuple((f.name, f.dtype) for f in self.fields)

    def __iter__(self):
        return ((f.name, f.dtype) for f in self.fields)

    def to_schema(self) -> Schema:
        """The struct's fields as a Schema."""
        return Schema(list(self))

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name!r}: {f.dtype!r}" for f in self.fields)
        return f"Struct({{{inner}}})"


# ---- Categorical and Enum (dtypes part of issue #18) ----------------------------------------


class Categorical(DataType):
    """Dictionary-encoded strings over the process-wide categories (Polars 2's string cache
    is always on: equal strings get equal codes in every Categorical column)."""

    def __init__(self, ordering=None, **kwargs):
        # Polars 2 accepts a Categories object (frazil has only the global one) or the
        # deprecated ordering; the lexical order is the only one either way.
        from frazil.categories import Categories

        categories = kwargs.get("categories", ordering)
        if isinstance(categories, Categories):
            categories._require_uint32_codes()
        self.ordering = "lexical"

    @property
    def categories(self):
        """The categories the codes map to: the global ones (frazil.categories)."""
        from frazil.categories import Categories

        return Categories()

    def __repr__(self) -> str:
        return "Categorical"


class Enum(DataType):
    """Strings restricted to fixed `categories`, ordered as listed."""

    def __init__(self, categories):
        import enum as _enum

        if categories is None:
            values = []
        elif isinstance(categories, type) and issubclass(categories, _enum.Enum):
            if issubclass(categories, (_enum.Flag, _enum.IntEnum)):
                raise TypeError(f"Enum categories must be strings; `{categories.__name__}` values are integers")
            values = [m.value for m in categories]
        elif hasattr(categories, "to_list") and not isinstance(categories, (list, tuple)):
            values = categories.to_list()
        else:
            values = list(categories)
        seen = set()
        for v in values:
            if v is None:
                raise TypeError("Enum categories must not contain null values")
            if not isinstance(v, str):
                found = _PY_TYPES.get(type(v))
                name = found.__name__ if found is not None else type(v).__name__
                raise TypeError(f"Enum categories must be strings; found data of type {name}")
            if v in seen:
                raise ValueError(f"Enum categories must be unique; found duplicate {v!r}")
            seen.add(v)
        self._categories = tuple(values)

    @property
    def categories(self):
        """The categories as a String Series."""
        from frazil.series import Series

        return Series("category", list(self._categories), dtype=String)

    def _params(self) -> tuple:
        return (self._categories,)

    def __repr__(self) -> str:
        return f"Enum(categories={list(self._categories)!r})"


_SIMPLE = {
    cls.__name__: cls
    for cls in (Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float32, Float64,
                Boolean, String, Binary, Null, Date, Time, Categorical, Int128, UInt128, Float16)
}

_PY_TYPES = {
    int: Int64,
    float: Float64,
    bool: Boolean,
    str: String,
    bytes: Binary,
    _dt.date: Date,
    _dt.datetime: Datetime,
    _dt.timedelta: Duration,
    _dt.time: Time,
    _decimal.Decimal: Decimal,
    type(None): Null,
}


def parse_into_dtype(obj) -> DataType:
    """A dtype instance from a dtype class or instance, a Python type, a Polars dtype
    or a dtype name ("Int64")."""
    if isinstance(obj, DataType):
        return obj
    if type(obj).__name__ == "DataTypeExpr":
        from frazil.datatype_expr import resolve_known

        return resolve_known(obj)
    if isinstance(obj, DataTypeClass):
        if obj is Enum:
            from frazil.exceptions import InvalidOperationError

            raise InvalidOperationError("cannot use an Enum without its categories: pl.Enum([...])")
        # A bare nested class is its emptiest instance, as Polars reads it.
        if obj is List:
            return List(Null())
        if obj is Struct:
            return Struct({})
        if obj is Array:
            return Array(Null(), 0)
        return obj()
    if isinstance(obj, type) and obj in _PY_TYPES:
        return _PY_TYPES[obj]()
    from frazil import dtype_parse

    if dtype_parse.is_annotation(obj):
        parsed = dtype_parse.parse_annotation(obj)
        return parse_into_dtype(parsed) if isinstance(parsed, DataTypeClass) else parsed
    if isinstance(obj, str):
        if obj in _SIMPLE:
            return _SIMPLE[obj]()
        if obj == "Utf8":
            return String()
        raise TypeError(f"unknown data type name {obj!r}")
    if _is_foreign_polars(obj):
        return _from_polars(obj)
    raise TypeError(f"cannot interpret {obj!r} as a frazil data type")


def _from_polars(obj) -> DataType:
    name = obj.__name__ if isinstance(obj, type) else type(obj).__name__
    if isinstance(obj, type):
        return parse_into_dtype(globals()[name]) if name in globals() else parse_into_dtype(name)
    if name == "Datetime":
        return Datetime(obj.time_unit, obj.time_zone)
    if name == "Duration":
        return Duration(obj.time_unit)
    if name == "Decimal":
        return Decimal(obj.precision, obj.scale)
    if name == "List":
        return List(_from_polars(obj.inner))
    if name == "Array":
        return Array(_from_polars(obj.inner), obj.size)
    if name == "Enum":
        return Enum(obj.categories.to_list())
    if name == "Struct":
        return Struct([Field(f.name, _from_polars(f.dtype)) for f in obj.fields])
    return parse_into_dtype(name)


def to_native(dtype):
    """The description of a dtype that the native module reads (see core_common.hpp)."""
    dtype = parse_into_dtype(dtype)
    if isinstance(dtype, Datetime):
        return ("Datetime", dtype.time_unit, dtype.time_zone)
    if isinstance(dtype, Duration):
        return ("Duration", dtype.time_unit)
    if isinstance(dtype, Decimal):
        return ("Decimal", dtype.precision, dtype.scale)
    if isinstance(dtype, List):
        return ("List", to_native(dtype.inner))
    if isinstance(dtype, Array):
        return ("Array", to_native(dtype.inner), dtype.size)
    if isinstance(dtype, Enum):
        return ("Enum", list(dtype._categories))
    if isinstance(dtype, Struct):
        return ("Struct", [(f.name, to_native(f.dtype)) for f in dtype.fields])
    return type(dtype).__name__


def from_native(desc) -> DataType:
    """A dtype instance from the native module's description."""
    if isinstance(desc, str):
        return _SIMPLE[desc]()
    kind = desc[0]
    if kind == "Datetime":
        return Datetime(desc[1], desc[2])
    if kind == "Duration":
        return Duration(desc[1])
    if kind == "Decimal":
        return Decimal(desc[1], desc[2])
    if kind == "List":
        return List(from_native(desc[1]))
    if kind == "Array":
        return Array(from_native(desc[1]), desc[2])
    if kind == "Enum":
        return Enum(desc[1])
    if kind == "Struct":
        return Struct([Field(name, from_native(d)) for name, d in desc[1]])
    raise ValueError(f"unknown native data type {desc!r}")


def _same_dtype(a, b) -> bool:
    # Polars' DataType.is_: a class stands for its instance only when it has no parameters
    # (Int64 is Int64(), Datetime is not Datetime("us")).
    ours = (DataType, DataTypeClass)
    if isinstance(a, ours) and isinstance(b, ours):
        return a.is_(b) if isinstance(a, DataType) else b.is_(a) if isinstance(b, DataType) else a is b
    return a == b  # a Polars dtype (compared by name and parameters) or another value


class Schema(OrderedDict):
    """Ordered mapping of column names to dtypes, as Polars' Schema."""

    def __init__(self, schema=None):
        super().__init__()
        if schema is None:
            return
        items = schema.items() if isinstance(schema, Mapping) else schema
        for name, dtype in items:
            self[name] = dtype

    def __setitem__(self, name: str, dtype) -> None:
        if isinstance(dtype, type) and issubclass(dtype, (List, Array, Struct)):
            raise TypeError(f"dtypes must be fully-specified, got: {dtype!r}")
        super().__setitem__(name, parse_into_dtype(dtype))

    def to_python(self) -> dict:
        """The Python type of each column's values."""
        return {name: dtype.to_python() for name, dtype in self.items()}

    def to_frame(self, *, eager: bool = True):
        """An empty frame of this schema (a LazyFrame with eager=False)."""
        from frazil.dataframe import DataFrame

        df = DataFrame(schema=self)
        return df if eager else df.lazy()

    def __reduce__(self):
        return (Schema, (list(self.items()),))

    def names(self) -> list[str]:
        """The field names, in order."""
        return list(self.keys())

    def dtypes(self) -> list[DataType]:
        """The field dtypes, in order."""
        return list(self.values())

    def len(self) -> int:
        """The number of fields."""
        return len(self)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Mapping):
            return False
        a, b = list(self.items()), list(other.items())
        # dtypes compared exactly (Datetime("us") is not the Datetime class), as Polars
        return len(a) == len(b) and all(x[0] == y[0] and _same_dtype(x[1], y[1]) for x, y in zip(a, b))

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"Schema({list(self.items())!r})"


__all__ = [
    "DataType", "DataTypeClass", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
    "UInt64", "Float32", "Float64", "Boolean", "String", "Utf8", "Binary", "Null", "Date", "Time",
    "Datetime", "Duration", "Decimal", "List", "Array", "Struct", "Field", "Schema", "parse_into_dtype",
    "Categorical", "Enum", "Int128", "UInt128", "Float16", "Unknown",
]


def dtype_to_init_repr(dtype, prefix: str = "pl.") -> str:
    """The dtype as the code that builds it, each dtype name prefixed (Polars'
    polars.datatypes._utils.dtype_to_init_repr): pl.List(pl.Int8), pl.Array(pl.Int8, shape=(2,))."""
    if isinstance(dtype, List):
        return f"{prefix}List({dtype_to_init_repr(dtype.inner, prefix)})"
    if isinstance(dtype, Array):
        return f"{prefix}Array({dtype_to_init_repr(dtype.inner, prefix)}, shape={dtype.shape})"
    if isinstance(dtype, Struct):
        fields = ", ".join(f"{f.name!r}: {dtype_to_init_repr(f.dtype, prefix)}" for f in dtype.fields)
        return f"{prefix}Struct({{{fields}}})"
    return f"{prefix}{dtype!r}"


# Polars keeps its Python-type parsing in polars.datatypes._parse; frazil's is dtype_parse.
from frazil.dtype_parse import (  # noqa: E402, F401
    _parse_forward_ref_into_dtype,
    _parse_generic_into_dtype,
    _parse_union_type_into_dtype,
    parse_py_type_into_dtype,
)
