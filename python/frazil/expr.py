"""Expr: the Python face of frazil's expression DSL, named and behaving as Polars' Expr."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from frazil import _args, _frazil

if TYPE_CHECKING:
    from frazil.expr_dt import ExprDateTimeNameSpace
    from frazil.expr_str import ExprStringNameSpace


def _native_dtype(dtype: Any) -> Any:
    from frazil.datatypes import parse_into_dtype, to_native

    return to_native(parse_into_dtype(dtype))


def parse_into_expression(value: Any, *, str_as_lit: bool = True) -> "_frazil.PyExpr":
    """A native expression for `value`: an Expr as is, a str as a literal (or a column name
    where Polars reads strings as names), anything else as a literal."""
    if isinstance(value, Expr):
        return value._pyexpr
    if isinstance(value, str) and not str_as_lit:
        return _frazil.col(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return _frazil.lit_series(list(value))
    series = _series_values(value)
    if series is not None:
        return _frazil.lit_series(series[0], series[1])
    return _frazil.lit(value)


def _series_values(value: Any):
    """(values, dtype) for a frazil/polars Series or numpy array used as a literal."""
    try:
        from frazil.series import Series
    except ImportError:  # pragma: no cover
        Series = ()  # type: ignore
    if Series and isinstance(value, Series):
        return value.to_list(), None
    mod = type(value).__module__
    if mod.startswith("polars") and type(value).__name__ == "Series":
        return value.to_list(), None
    if mod.startswith("numpy") and hasattr(value, "tolist") and getattr(value, "ndim", 0) == 1:
        return value.tolist(), None
    return None


def parse_many(items: Iterable[Any], *, str_as_lit: bool = False) -> list:
    """Flattens positional arguments (lists of exprs or names) into native expressions."""
    out = []
    for item in items:
        if isinstance(item, (list, tuple)) and not isinstance(item, str):
            out.extend(parse_many(item, str_as_lit=str_as_lit))
        else:
            out.append(parse_into_expression(item, str_as_lit=str_as_lit))
    return out


def _expr_length(n: int, what: str) -> int:
    # Polars evaluates the length as an expression; a negative or too big one is an error.
    if not 0 <= n <= _args.INT64[1]:
        from frazil.exceptions import ComputeError

        raise ComputeError(f"{what}(): the length {n} must be a non-negative Int64")
    return n


def wrap(pyexpr: "_frazil.PyExpr") -> "Expr":
    """An Expr around a native expression (internal use by the namespaces)."""
    e = Expr.__new__(Expr)
    e._pyexpr = pyexpr
    return e


class Expr:
    """A lazy expression: col("a") + 1, col("x").sum().alias("total"), ..."""

    __slots__ = ("_pyexpr",)
    _pyexpr: "_frazil.PyExpr"

    # ---- plumbing ----
    def _bin(self, op: str, other: Any) -> "Expr":
        return wrap(self._pyexpr.binary(op, parse_into_expression(other)))

    def _rbin(self, op: str, other: Any) -> "Expr":
        return wrap(parse_into_expression(other).binary(op, self._pyexpr))

    def _fn(self, name: str, *extra: Any, **options: Any) -> "Expr":
        natives = [parse_into_expression(x) for x in extra]
        return wrap(self._pyexpr.function(name, natives, **options))

    def _agg(self, name: str, **options: Any) -> "Expr":
        return wrap(self._pyexpr.agg(name, **options))

    def __repr__(self) -> str:
        return self._pyexpr.to_string()

    def __str__(self) -> str:
        return self._pyexpr.to_string()

    def __bool__(self) -> bool:
        raise TypeError(
            "the truth value of an Expr is ambiguous\n\n"
            "You probably got here by using a Python standard library function instead of the native "
            "expressions API. Use `&` / `|` for boolean logic and `is_in` for membership."
        )

    __hash__ = None  # type: ignore[assignment]

    # ---- operators ----
    def __add__(self, other: Any) -> "Expr":
        return self._bin("+", other)

    def __radd__(self, other: Any) -> "Expr":
        return self._rbin("+", other)

    def __sub__(self, other: Any) -> "Expr":
        return self._bin("-", other)

    def __rsub__(self, other: Any) -> "Expr":
        return self._rbin("-", other)

    def __mul__(self, other: Any) -> "Expr":
        return self._bin("*", other)

    def __rmul__(self, other: Any) -> "Expr":
        return self._rbin("*", other)

    def __truediv__(self, other: Any) -> "Expr":
        return self._bin("/", other)

    def __rtruediv__(self, other: Any) -> "Expr":
        return self._rbin("/", other)

    def __floordiv__(self, other: Any) -> "Expr":
        return self._bin("//", other)

    def __rfloordiv__(self, other: Any) -> "Expr":
        return self._rbin("//", other)

    def __mod__(self, other: Any) -> "Expr":
        return self._bin("%", other)

    def __rmod__(self, other: Any) -> "Expr":
        return self._rbin("%", other)

    def __pow__(self, exponent: Any) -> "Expr":
        return self.pow(exponent)

    def __rpow__(self, base: Any) -> "Expr":
        return wrap(parse_into_expression(base).function("pow", [self._pyexpr]))

    def __eq__(self, other: Any) -> "Expr":  # type: ignore[override]
        return self._bin("==", other)

    def __ne__(self, other: Any) -> "Expr":  # type: ignore[override]
        return self._bin("!=", other)

    def __lt__(self, other: Any) -> "Expr":
        return self._bin("<", other)

    def __le__(self, other: Any) -> "Expr":
        return self._bin("<=", other)

    def __gt__(self, other: Any) -> "Expr":
        return self._bin(">", other)

    def __ge__(self, other: Any) -> "Expr":
        return self._bin(">=", other)

    def __and__(self, other: Any) -> "Expr":
        return self._bin("&", other)

    def __rand__(self, other: Any) -> "Expr":
        return self._rbin("&", other)

    def __or__(self, other: Any) -> "Expr":
        return self._bin("|", other)

    def __ror__(self, other: Any) -> "Expr":
        return self._rbin("|", other)

    def __xor__(self, other: Any) -> "Expr":
        return self._bin("^", other)

    def __rxor__(self, other: Any) -> "Expr":
        return self._rbin("^", other)

    def __invert__(self) -> "Expr":
        return self.not_()

    def __neg__(self) -> "Expr":
        return wrap(-self._pyexpr)

    def __pos__(self) -> "Expr":
        return self

    def __abs__(self) -> "Expr":
        return self.abs()

    # named operator methods
    def add(self, other: Any) -> "Expr":
        """self + other."""
        return self + other

    def sub(self, other: Any) -> "Expr":
        """self - other."""
        return self - other

    def mul(self, other: Any) -> "Expr":
        """self * other."""
        return self * other

    def truediv(self, other: Any) -> "Expr":
        """self / other (always a float result)."""
        return self / other

    def floordiv(self, other: Any) -> "Expr":
        """self // other (rounded towards negative infinity)."""
        return self // other

    def mod(self, other: Any) -> "Expr":
        """self % other (the sign of the divisor, as Python)."""
        return self % other

    def eq(self, other: Any) -> "Expr":
        """self == other (null where either side is null)."""
        return self == other

    def ne(self, other: Any) -> "Expr":
        """self != other."""
        return self != other

    def lt(self, other: Any) -> "Expr":
        """self < other."""
        return self < other

    def le(self, other: Any) -> "Expr":
        """self <= other."""
        return self <= other

    def gt(self, other: Any) -> "Expr":
        """self > other."""
        return self > other

    def ge(self, other: Any) -> "Expr":
        """self >= other."""
        return self >= other

    def eq_missing(self, other: Any) -> "Expr":
        """self == other with null == null true and null == value false."""
        return self._bin("eq_missing", other)

    def ne_missing(self, other: Any) -> "Expr":
        """self != other with nulls compared as values."""
        return self._bin("ne_missing", other)

    def and_(self, *others: Any) -> "Expr":
        """Logical AND of this and the other boolean expressions (Kleene: false AND null is false)."""
        out = self
        for o in others:
            out = out & o
        return out

    def or_(self, *others: Any) -> "Expr":
        """Logical OR of this and the other boolean expressions (Kleene: true OR null is true)."""
        out = self
        for o in others:
            out = out | o
        return out

    def xor(self, other: Any) -> "Expr":
        """Logical (or bitwise, for integers) exclusive or."""
        return self ^ other

    def neg(self) -> "Expr":
        """-self."""
        return -self

    # ---- naming and types ----
    def alias(self, name: str) -> "Expr":
        """The same expression under another output name."""
        return wrap(self._pyexpr.alias(name))

    def cast(self, dtype: Any, *, strict: bool = True, wrap_numerical: bool = False) -> "Expr":
        """The values converted to dtype; strict=True raises on values that do not convert, strict=False makes them null."""
        if wrap_numerical:
            raise NotImplementedError("cast(wrap_numerical=True) is not supported yet")
        return wrap(self._pyexpr.cast(_native_dtype(dtype), strict))

    def exclude(self, *names: Any) -> "Expr":
        """A wildcard or multi-column expression without the named columns."""
        flat = []
        for n in names:
            flat.extend([n] if isinstance(n, str) else list(n))
        return wrap(self._pyexpr.exclude(flat))

    # ---- null and boolean functions ----
    def not_(self) -> "Expr":
        """Logical NOT (bitwise NOT for integers)."""
        return self._fn("not")

    def is_null(self) -> "Expr":
        """Whether each value is null."""
        return self._fn("is_null")

    def is_not_null(self) -> "Expr":
        """Whether each value is not null."""
        return self._fn("is_not_null")

    def is_nan(self) -> "Expr":
        """Whether each float is NaN."""
        return self._fn("is_nan")

    def is_not_nan(self) -> "Expr":
        """Whether each float is not NaN."""
        return self._fn("is_not_nan")

    def is_finite(self) -> "Expr":
        """Whether each float is neither infinite nor NaN."""
        return self._fn("is_finite")

    def is_infinite(self) -> "Expr":
        """Whether each float is +/-inf."""
        return self._fn("is_infinite")

    def fill_null(self, value: Any = None, strategy: str | None = None, limit: int | None = None) -> "Expr":
        """Nulls replaced by a value (strategy="zero" is the only strategy supported yet)."""
        if strategy is not None:
            if strategy == "zero":
                value = 0
            else:
                raise NotImplementedError(f"fill_null(strategy={strategy!r}) is not supported yet")
        return self._fn("fill_null", value)

    def fill_nan(self, value: Any) -> "Expr":
        """NaNs replaced by a value."""
        return self._fn("fill_nan", value)

    def is_in(self, other: Any, *, nulls_equal: bool = False) -> "Expr":
        """Whether each value occurs in other (a collection or an expression)."""
        if nulls_equal:
            raise NotImplementedError("is_in(nulls_equal=True) is not supported yet")
        return self._fn("is_in", other)

    def is_between(self, lower_bound: Any, upper_bound: Any, closed: str = "both") -> "Expr":
        """Whether each value lies between the bounds (closed: both, left, right or none)."""
        return wrap(
            # As in Polars, string bounds name columns (use lit() for string values).
            self._pyexpr.is_between(parse_into_expression(lower_bound, str_as_lit=False),
                                    parse_into_expression(upper_bound, str_as_lit=False), closed)
        )

    # ---- numeric ----
    def abs(self) -> "Expr":
        """The absolute value."""
        return self._fn("abs")

    def round(self, decimals: int = 0, mode: str = "half_to_even") -> "Expr":
        """Rounded to decimals digits; mode says how halves round (half_to_even, as Polars' default)."""
        _args.int_in(decimals, _args.UINT32)  # Polars' decimals are a UInt32
        return self._fn("round", decimals=decimals, mode=mode)

    def floor(self) -> "Expr":
        """Rounded down to an integer value."""
        return self._fn("floor")

    def ceil(self) -> "Expr":
        """Rounded up to an integer value."""
        return self._fn("ceil")

    def sqrt(self) -> "Expr":
        """The square root."""
        return self._fn("sqrt")

    def pow(self, exponent: Any) -> "Expr":
        """self raised to exponent."""
        return self._fn("pow", exponent)

    # ---- shape ----
    def reverse(self) -> "Expr":
        """The values in reverse order."""
        return self._fn("reverse")

    def shift(self, n: int = 1, *, fill_value: Any = None) -> "Expr":
        """The values moved down by n rows (up for negative n), nulls filling the gap."""
        if not _args.INT64[0] <= n <= _args.INT64[1]:
            from frazil.exceptions import ComputeError

            raise ComputeError(f"shift value 'n' must not be null: {n} does not fit Int64")
        out = self._fn("shift", n=n)
        if fill_value is None:
            return out
        # Fill only the rows shifted in, not the input's own nulls: those are exactly the
        # rows where a shifted (never null) mask is null.
        from frazil.functions import when

        kept = self.is_null()._fn("shift", n=n).is_not_null()
        return when(kept).then(out).otherwise(fill_value)

    def unique(self, *, maintain_order: bool = False) -> "Expr":
        """The distinct values (in order of first appearance with maintain_order=True)."""
        return self._fn("unique", maintain_order=maintain_order)

    def drop_nulls(self) -> "Expr":
        """The values without the nulls."""
        return self._fn("drop_nulls")

    def explode(self, *, empty_as_null: bool = False, keep_nulls: bool = True) -> "Expr":
        """One row per element of a List expression (an empty list gives no row, or a null
        with `empty_as_null`; a null list one null, or no row without `keep_nulls`)."""
        return self._fn("explode", empty_as_null=bool(empty_as_null), keep_nulls=bool(keep_nulls))

    def head(self, n: int = 10) -> "Expr":
        """The first n values."""
        return self._fn("head", n=_expr_length(n, "head"))

    def tail(self, n: int = 10) -> "Expr":
        """The last n values."""
        return self._fn("tail", n=_expr_length(n, "tail"))

    def limit(self, n: int = 10) -> "Expr":
        """Another name for head()."""
        return self.head(n)

    def top_k(self, k: int = 5) -> "Expr":
        """The k largest values (NaN above every number, nulls only when values run out), in
        descending order; Polars leaves the order unspecified."""
        return self.sort(descending=True, nulls_last=True).head(k)

    def bottom_k(self, k: int = 5) -> "Expr":
        """The k smallest values (nulls only when values run out), in ascending order."""
        return self.sort(descending=False, nulls_last=True).head(k)

    def sort(self, *, descending: bool = False, nulls_last: bool = False) -> "Expr":
        """The values sorted."""
        return wrap(self._pyexpr.sort(descending, nulls_last, False))

    def sort_by(self, by: Any, *more_by: Any, descending: bool | list = False, nulls_last: bool = False,
                maintain_order: bool = False) -> "Expr":
        """The values ordered by other expressions."""
        keys = parse_many([by, *more_by], str_as_lit=False)
        desc = [descending] if isinstance(descending, bool) else list(descending)
        return wrap(self._pyexpr.sort_by(keys, desc))

    def filter(self, *predicates: Any) -> "Expr":
        """The values where the predicates are true."""
        preds = parse_many(predicates, str_as_lit=False)
        p = preds[0]
        for q in preds[1:]:
            p = p.binary("&", q)
        return wrap(self._pyexpr.filter(p))

    def over(self, partition_by: Any = None, *more_exprs: Any, order_by: Any = None,
             mapping_strategy: str = "group_to_rows") -> "Expr":
        """The expression computed per group of partition_by and spread back over the rows (a window)."""
        if order_by is not None:
            raise NotImplementedError("over(order_by=...) is not supported yet")
        if mapping_strategy != "group_to_rows":
            raise NotImplementedError(f"over(mapping_strategy={mapping_strategy!r}) is not supported yet")
        keys = parse_many([partition_by, *more_exprs], str_as_lit=False)
        return wrap(self._pyexpr.over(keys))

    # ---- aggregations ----
    def sum(self) -> "Expr":
        """The sum (integers wrap in their type, as Polars)."""
        return self._agg("sum")

    def mean(self) -> "Expr":
        """The mean."""
        return self._agg("mean")

    def min(self) -> "Expr":
        """The smallest value."""
        return self._agg("min")

    def max(self) -> "Expr":
        """The largest value."""
        return self._agg("max")

    def count(self) -> "Expr":
        """The number of non-null values."""
        return self._agg("count")

    def len(self) -> "Expr":
        """The number of values, nulls included."""
        return self._agg("len")

    def n_unique(self) -> "Expr":
        """The number of distinct values."""
        return self._agg("n_unique")

    def first(self) -> "Expr":
        """The first value."""
        return self._agg("first")

    def last(self) -> "Expr":
        """The last value."""
        return self._agg("last")

    def median(self) -> "Expr":
        """The median."""
        return self._agg("median")

    def std(self, ddof: int = 1) -> "Expr":
        """The standard deviation (ddof=1: the sample deviation)."""
        return self._agg("std", ddof=_args.int_in(ddof, _args.UINT8))  # Polars' ddof is a UInt8

    def var(self, ddof: int = 1) -> "Expr":
        """The variance (ddof=1: the sample variance)."""
        return self._agg("var", ddof=_args.int_in(ddof, _args.UINT8))

    def quantile(self, quantile: float, interpolation: str = "nearest") -> "Expr":
        """The quantile (0..1) with the given interpolation (nearest, higher, lower, midpoint, linear)."""
        return wrap(self._pyexpr.quantile(float(quantile), interpolation))

    def any(self, *, ignore_nulls: bool = True) -> "Expr":
        """Whether any value is true."""
        return self._agg("any", ignore_nulls=ignore_nulls)

    def all(self, *, ignore_nulls: bool = True) -> "Expr":
        """Whether every value is true."""
        return self._agg("all", ignore_nulls=ignore_nulls)

    def null_count(self) -> "Expr":
        """The number of null values."""
        return self._fn("null_count")

    # ---- cumulative, in row order ----
    def _cumulative(self, name: str, reverse: bool) -> "Expr":
        if reverse:
            return self.reverse()._fn(name).reverse()
        return self._fn(name)

    def cum_sum(self, *, reverse: bool = False) -> "Expr":
        return self._cumulative("cum_sum", reverse)

    def cum_min(self, *, reverse: bool = False) -> "Expr":
        return self._cumulative("cum_min", reverse)

    def cum_max(self, *, reverse: bool = False) -> "Expr":
        return self._cumulative("cum_max", reverse)

    def cum_count(self, *, reverse: bool = False) -> "Expr":
        return self._cumulative("cum_count", reverse)

    # ---- namespaces ----
    @property
    def str(self) -> "ExprStringNameSpace":
        """String functions: pl.col('s').str.contains(...)."""
        from frazil.expr_str import ExprStringNameSpace

        return ExprStringNameSpace(self)

    @property
    def dt(self) -> "ExprDateTimeNameSpace":
        """Date and time functions: pl.col('d').dt.year()."""
        from frazil.expr_dt import ExprDateTimeNameSpace

        return ExprDateTimeNameSpace(self)
