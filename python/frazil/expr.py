"""Expr: the Python face of frazil's expression DSL, named and behaving as Polars' Expr."""
from __future__ import annotations

import datetime as _dt
import math
from typing import TYPE_CHECKING, Any, Iterable

from frazil import _args, _frazil

if TYPE_CHECKING:
    from frazil.expr_cat import ExprCatNameSpace
    from frazil.expr_dt import ExprDateTimeNameSpace
    from frazil.expr_list import ExprListNameSpace
    from frazil.expr_str import ExprStringNameSpace


def _native_dtype(dtype: Any) -> Any:
    from frazil.datatypes import parse_into_dtype, to_native

    return to_native(parse_into_dtype(dtype))


class _DtypeArg:
    """A dtype passed as a function parameter (PyExpr.function reads `_frazil_dtype`)."""

    __slots__ = ("_frazil_dtype",)

    def __init__(self, dtype: Any) -> None:
        self._frazil_dtype = _native_dtype(dtype)


def _dtype_arg(dtype: Any) -> Any:
    return None if dtype is None else _DtypeArg(dtype)


def parse_into_expression(value: Any, *, str_as_lit: bool = True) -> "_frazil.PyExpr":
    """A native expression for `value`: an Expr as is, a str as a literal (or a column name
    where Polars reads strings as names), anything else as a literal."""
    if isinstance(value, Expr):
        return value._pyexpr
    if isinstance(value, str) and not str_as_lit:
        return _frazil.col(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return _frazil.lit_series(list(value))
    from frazil.series import Series

    if isinstance(value, Series):
        return _frazil.lit_column(value._col)
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


def _int_arg(value: Any, fn: str, name: str) -> int:
    """An integer parameter given as an int (or an integer literal expression)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"`{fn}`: `{name}` must be an integer, got {type(value).__name__}")
    return value


def _frazil_neg_len(expr: "Expr", n: int) -> "Expr":
    """len(expr) - |n|, at least 0: the rows kept when |n| are dropped from the end."""
    from frazil.functions import when

    kept = expr.len().cast(_int64()) + n
    return when(kept > 0).then(kept).otherwise(0)


def _int64() -> Any:
    from frazil.datatypes import Int64

    return Int64


def _prepare_alpha(com: float | None = None, span: float | None = None, half_life: float | None = None,
                   alpha: float | None = None) -> float:
    """The smoothing factor from exactly one of com, span, half_life and alpha (as Polars)."""
    if sum(p is not None for p in (com, span, half_life, alpha)) > 1:
        raise ValueError("parameters `com`, `span`, `half_life`, and `alpha` are mutually exclusive")
    if com is not None:
        if com < 0.0:
            raise ValueError(f"require `com` >= 0 (found {com!r})")
        return 1.0 / (1.0 + com)
    if span is not None:
        if span < 1.0:
            raise ValueError(f"require `span` >= 1 (found {span!r})")
        return 2.0 / (span + 1.0)
    if half_life is not None:
        if half_life <= 0.0:
            raise ValueError(f"require `half_life` > 0 (found {half_life!r})")
        return 1.0 - math.exp(-math.log(2.0) / half_life)
    if alpha is None:
        raise ValueError("one of `com`, `span`, `half_life`, or `alpha` must be set")
    if not (0 < alpha <= 1):
        raise ValueError(f"require 0 < `alpha` <= 1 (found {alpha!r})")
    return float(alpha)


def _duration_string(value: Any) -> str:
    """A Polars duration string ("2d", "3i") for a str or a datetime.timedelta."""
    if isinstance(value, str):
        return value
    if isinstance(value, _dt.timedelta):
        us = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
        return f"{us}us"
    raise TypeError(f"expected a duration string or a timedelta, got {type(value).__name__}")


class _NoDefault:
    def __repr__(self) -> str:
        return "<no_default>"


_NO_DEFAULT = _NoDefault()


def _mapping_inputs(old: Any, new: Any, fn: str):
    """The `old` and `new` inputs of replace/replace_strict: a mapping, two sequences, or
    scalars and expressions."""
    if new is _NO_DEFAULT:
        if not isinstance(old, dict):
            raise TypeError("`new` argument is required if `old` argument is not a Mapping type")
        new = list(old.values())
        old = list(old.keys())

    def one(v: Any):
        if isinstance(v, Expr):
            return v._pyexpr
        if isinstance(v, (list, tuple)):
            return _frazil.lit_series(list(v))
        series = _series_values(v)
        if series is not None:
            return _frazil.lit_series(series[0], series[1])
        return _frazil.lit_series([v])

    return one(old), one(new)


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

    def __getattr__(self, name: str):
        # Only reached for a name the class lacks: Polars' notice for one it removed.
        from frazil.removed_api import missing_attribute

        missing_attribute(self, "Expr", name)

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

    def __hash__(self) -> int:
        # Unhashable (== builds an expression); Polars points to the structural hash.
        raise TypeError(f"unhashable type: 'Expr'\n\nConsider hashing '{self}.meta'.")

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
        from frazil.datatypes import Array, List, Struct

        if dtype in (List, Struct, Array) and isinstance(dtype, type):
            # Polars reads a bare nested class here as "that kind, inner dtype kept"; frazil
            # plans the cast's dtype up front, so it needs the whole dtype.
            raise TypeError(f"cast to {dtype!r} needs its inner type, e.g. List(Int64)")
        return wrap(self._pyexpr.cast(_native_dtype(dtype), strict))

    def exclude(self, *names: Any) -> "Expr":
        """A wildcard or multi-column expression without the named columns."""
        from frazil.datatypes import DataType, DataTypeClass

        if any(isinstance(n, (DataType, DataTypeClass)) for n in names):
            # Dtypes to exclude: the selection minus a dtype selector (frazil/selectors.py).
            from frazil import selectors as cs

            if repr(self) != "*":
                from frazil.exceptions import InvalidOperationError

                raise InvalidOperationError("exclude() by dtype needs a selection of all columns, like pl.all()")
            return (cs.all() - cs.by_dtype(*[n for n in names if not isinstance(n, str)])
                    - cs.by_name(*[n for n in names if isinstance(n, str)], require_all=False)).as_expr()
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
        """Nulls replaced by a value, or by a strategy: forward/backward (at most `limit` in a
        row), min, max, mean, zero, one."""
        if value is not None and strategy is not None:
            raise ValueError("cannot specify both `value` and `strategy`")
        if value is None and strategy is None:
            raise ValueError("must specify either a fill `value` or `strategy`")
        if strategy not in ("forward", "backward") and limit is not None:
            raise ValueError("can only specify `limit` when strategy is set to 'backward' or 'forward'")
        if strategy is not None:
            return self._fn("fill_null_with_strategy", strategy=strategy, limit=limit)
        return self._fn("fill_null", value)

    def forward_fill(self, limit: int | None = None) -> "Expr":
        return self.fill_null(strategy="forward", limit=limit)

    def backward_fill(self, limit: int | None = None) -> "Expr":
        return self.fill_null(strategy="backward", limit=limit)

    def interpolate(self, method: str = "linear") -> "Expr":
        return self._fn("interpolate", method=method)

    def interpolate_by(self, by: Any) -> "Expr":
        return wrap(self._pyexpr.function("interpolate_by", [parse_into_expression(by, str_as_lit=False)]))

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
        """self raised to exponent (a str is a column name, as in Polars)."""
        return wrap(self._pyexpr.function("pow", [parse_into_expression(exponent, str_as_lit=False)]))

    def sin(self) -> "Expr":
        return self._fn("sin")

    def cos(self) -> "Expr":
        return self._fn("cos")

    def tan(self) -> "Expr":
        return self._fn("tan")

    def cot(self) -> "Expr":
        return self._fn("cot")

    def arcsin(self) -> "Expr":
        return self._fn("arcsin")

    def arccos(self) -> "Expr":
        return self._fn("arccos")

    def arctan(self) -> "Expr":
        return self._fn("arctan")

    def sinh(self) -> "Expr":
        return self._fn("sinh")

    def cosh(self) -> "Expr":
        return self._fn("cosh")

    def tanh(self) -> "Expr":
        return self._fn("tanh")

    def arcsinh(self) -> "Expr":
        return self._fn("arcsinh")

    def arccosh(self) -> "Expr":
        return self._fn("arccosh")

    def arctanh(self) -> "Expr":
        return self._fn("arctanh")

    def degrees(self) -> "Expr":
        return self._fn("degrees")

    def radians(self) -> "Expr":
        return self._fn("radians")

    def exp(self) -> "Expr":
        return self._fn("exp")

    def log(self, base: Any = math.e) -> "Expr":
        return self._fn("log", base)

    def log1p(self) -> "Expr":
        return self._fn("log1p")

    def log10(self) -> "Expr":
        return self._fn("log10")

    def cbrt(self) -> "Expr":
        return self._fn("cbrt")

    def erf(self) -> "Expr":
        return self._fn("erf")

    def erfc(self) -> "Expr":
        return self._fn("erfc")

    def sign(self) -> "Expr":
        return self._fn("sign")

    def clip(self, lower_bound: Any = None, upper_bound: Any = None) -> "Expr":
        bounds = [parse_into_expression(b, str_as_lit=False) for b in (lower_bound, upper_bound) if b is not None]
        return wrap(self._pyexpr.function("clip", bounds, has_lower=lower_bound is not None,
                                          has_upper=upper_bound is not None))

    def round_sig_figs(self, digits: int) -> "Expr":
        return self._fn("round_sig_figs", digits=digits)

    def truncate(self, decimals: int = 0) -> "Expr":
        return self._fn("truncate", decimals=decimals)

    def bitwise_count_ones(self) -> "Expr":
        return self._fn("bitwise_count_ones")

    def bitwise_count_zeros(self) -> "Expr":
        return self._fn("bitwise_count_zeros")

    def bitwise_leading_ones(self) -> "Expr":
        return self._fn("bitwise_leading_ones")

    def bitwise_leading_zeros(self) -> "Expr":
        return self._fn("bitwise_leading_zeros")

    def bitwise_trailing_ones(self) -> "Expr":
        return self._fn("bitwise_trailing_ones")

    def bitwise_trailing_zeros(self) -> "Expr":
        return self._fn("bitwise_trailing_zeros")

    def is_close(self, other: Any, *, abs_tol: float = 0.0, rel_tol: float = 1e-09,
                 nans_equal: bool = False) -> "Expr":
        return self._fn("is_close", other, abs_tol=float(abs_tol), rel_tol=float(rel_tol), nans_equal=nans_equal)

    # ---- cumulative and order-dependent functions ----
    def cum_sum(self, *, reverse: bool = False) -> "Expr":
        return self._fn("cum_sum", reverse=reverse)

    def cum_prod(self, *, reverse: bool = False) -> "Expr":
        return self._fn("cum_prod", reverse=reverse)

    def cum_min(self, *, reverse: bool = False) -> "Expr":
        return self._fn("cum_min", reverse=reverse)

    def cum_max(self, *, reverse: bool = False) -> "Expr":
        return self._fn("cum_max", reverse=reverse)

    def cum_count(self, *, reverse: bool = False) -> "Expr":
        return self._fn("cum_count", reverse=reverse)

    def diff(self, n: Any = 1, null_behavior: str = "ignore") -> "Expr":
        n = _int_arg(n, "diff", "n")
        if null_behavior not in ("ignore", "drop"):
            raise ValueError(f"`null_behavior` must be one of {{'ignore', 'drop'}}, got {null_behavior!r}")
        out = self._fn("diff", n=n)
        if null_behavior == "drop":
            out = out.slice(n) if n >= 0 else out.slice(0, _frazil_neg_len(self, n))
        return out

    def pct_change(self, n: Any = 1) -> "Expr":
        return self._fn("pct_change", n=_int_arg(n, "pct_change", "n"))

    def rank(self, method: str = "average", *, descending: bool = False, seed: int | None = None) -> "Expr":
        return self._fn("rank", method=method, descending=descending, seed=seed)

    def rle(self) -> "Expr":
        return self._fn("rle")

    def rle_id(self) -> "Expr":
        return self._fn("rle_id")

    def peak_min(self) -> "Expr":
        return self._fn("peak_min")

    def peak_max(self) -> "Expr":
        return self._fn("peak_max")

    def ewm_mean(self, *, com: float | None = None, span: float | None = None, half_life: float | None = None,
                 alpha: float | None = None, adjust: bool = True, min_samples: int = 1,
                 ignore_nulls: bool = False) -> "Expr":
        return self._fn("ewm_mean", alpha=_prepare_alpha(com, span, half_life, alpha), adjust=adjust,
                        min_samples=min_samples, ignore_nulls=ignore_nulls)

    def ewm_std(self, *, com: float | None = None, span: float | None = None, half_life: float | None = None,
                alpha: float | None = None, adjust: bool = True, bias: bool = False, min_samples: int = 1,
                ignore_nulls: bool = False) -> "Expr":
        return self._fn("ewm_std", alpha=_prepare_alpha(com, span, half_life, alpha), adjust=adjust, bias=bias,
                        min_samples=min_samples, ignore_nulls=ignore_nulls)

    def ewm_var(self, *, com: float | None = None, span: float | None = None, half_life: float | None = None,
                alpha: float | None = None, adjust: bool = True, bias: bool = False, min_samples: int = 1,
                ignore_nulls: bool = False) -> "Expr":
        return self._fn("ewm_var", alpha=_prepare_alpha(com, span, half_life, alpha), adjust=adjust, bias=bias,
                        min_samples=min_samples, ignore_nulls=ignore_nulls)

    def ewm_sum(self, *, com: float | None = None, span: float | None = None, half_life: float | None = None,
                alpha: float | None = None, min_samples: int = 1, ignore_nulls: bool = False) -> "Expr":
        return self._fn("ewm_sum", alpha=_prepare_alpha(com, span, half_life, alpha), min_samples=min_samples,
                        ignore_nulls=ignore_nulls)

    def ewm_mean_by(self, by: Any, *, half_life: Any) -> "Expr":
        return wrap(self._pyexpr.function("ewm_mean_by", [parse_into_expression(by, str_as_lit=False)],
                                          half_life=_duration_string(half_life)))

    def ewm_sum_by(self, by: Any, *, half_life: Any) -> "Expr":
        return wrap(self._pyexpr.function("ewm_sum_by", [parse_into_expression(by, str_as_lit=False)],
                                          half_life=_duration_string(half_life)))

    # ---- rolling windows ----
    def _rolling(self, fn: str, window_size: int, weights: Any, min_samples: int | None, center: bool,
                 **extra: Any) -> "Expr":
        if not isinstance(window_size, int) or isinstance(window_size, bool):
            raise TypeError(f"`{fn}`: window_size must be an integer, got {type(window_size).__name__}")
        return self._fn(fn, window_size=window_size, weights=[float(w) for w in (weights or [])],
                        min_samples=min_samples, center=center, **extra)

    def rolling_sum(self, window_size: int, weights: list | None = None, *, min_samples: int | None = None,
                    center: bool = False) -> "Expr":
        return self._rolling("rolling_sum", window_size, weights, min_samples, center)

    def rolling_mean(self, window_size: int, weights: list | None = None, *, min_samples: int | None = None,
                     center: bool = False) -> "Expr":
        return self._rolling("rolling_mean", window_size, weights, min_samples, center)

    def rolling_min(self, window_size: int, weights: list | None = None, *, min_samples: int | None = None,
                    center: bool = False) -> "Expr":
        return self._rolling("rolling_min", window_size, weights, min_samples, center)

    def rolling_max(self, window_size: int, weights: list | None = None, *, min_samples: int | None = None,
                    center: bool = False) -> "Expr":
        return self._rolling("rolling_max", window_size, weights, min_samples, center)

    def rolling_std(self, window_size: int, weights: list | None = None, *, min_samples: int | None = None,
                    center: bool = False, ddof: int = 1) -> "Expr":
        return self._rolling("rolling_std", window_size, weights, min_samples, center, ddof=ddof)

    def rolling_var(self, window_size: int, weights: list | None = None, *, min_samples: int | None = None,
                    center: bool = False, ddof: int = 1) -> "Expr":
        return self._rolling("rolling_var", window_size, weights, min_samples, center, ddof=ddof)

    def rolling_median(self, window_size: int, weights: list | None = None, *, min_samples: int | None = None,
                       center: bool = False) -> "Expr":
        return self._rolling("rolling_median", window_size, weights, min_samples, center)

    def rolling_quantile(self, quantile: float, interpolation: str = "nearest", window_size: int = 2,
                         weights: list | None = None, *, min_samples: int | None = None,
                         center: bool = False) -> "Expr":
        return self._rolling("rolling_quantile", window_size, weights, min_samples, center,
                             quantile=float(quantile), interpolation=interpolation)

    def rolling_skew(self, window_size: int, *, bias: bool = True, min_samples: int | None = None,
                     center: bool = False) -> "Expr":
        return self._rolling("rolling_skew", window_size, None, min_samples, center, bias=bias)

    def rolling_kurtosis(self, window_size: int, *, fisher: bool = True, bias: bool = True,
                         min_samples: int | None = None, center: bool = False) -> "Expr":
        return self._rolling("rolling_kurtosis", window_size, None, min_samples, center, fisher=fisher, bias=bias)

    def rolling_rank(self, window_size: int, method: str = "average", *, seed: int | None = None,
                     min_samples: int | None = None, center: bool = False) -> "Expr":
        if method not in ("min", "max", "average", "dense", "random"):
            raise ValueError(f"rank `method` must be one of {{'min', 'max', 'average', 'dense', 'random'}}, "
                             f"got {method}")
        return self._rolling("rolling_rank", window_size, None, min_samples, center, method=method, seed=seed)

    def _rolling_by(self, fn: str, by: Any, window_size: Any, min_samples: int, closed: str,
                    **extra: Any) -> "Expr":
        return wrap(self._pyexpr.function(fn, [parse_into_expression(by, str_as_lit=False)],
                                          window_size=_duration_string(window_size), min_samples=min_samples,
                                          closed=closed, **extra))

    def rolling_sum_by(self, by: Any, window_size: Any, *, min_samples: int = 0, closed: str = "right") -> "Expr":
        return self._rolling_by("rolling_sum_by", by, window_size, min_samples, closed)

    def rolling_mean_by(self, by: Any, window_size: Any, *, min_samples: int = 1, closed: str = "right") -> "Expr":
        return self._rolling_by("rolling_mean_by", by, window_size, min_samples, closed)

    def rolling_min_by(self, by: Any, window_size: Any, *, min_samples: int = 1, closed: str = "right") -> "Expr":
        return self._rolling_by("rolling_min_by", by, window_size, min_samples, closed)

    def rolling_max_by(self, by: Any, window_size: Any, *, min_samples: int = 1, closed: str = "right") -> "Expr":
        return self._rolling_by("rolling_max_by", by, window_size, min_samples, closed)

    def rolling_std_by(self, by: Any, window_size: Any, *, min_samples: int = 1, closed: str = "right",
                       ddof: int = 1) -> "Expr":
        return self._rolling_by("rolling_std_by", by, window_size, min_samples, closed, ddof=ddof)

    def rolling_var_by(self, by: Any, window_size: Any, *, min_samples: int = 1, closed: str = "right",
                       ddof: int = 1) -> "Expr":
        return self._rolling_by("rolling_var_by", by, window_size, min_samples, closed, ddof=ddof)

    def rolling_median_by(self, by: Any, window_size: Any, *, min_samples: int = 1,
                          closed: str = "right") -> "Expr":
        return self._rolling_by("rolling_median_by", by, window_size, min_samples, closed)

    def rolling_quantile_by(self, by: Any, window_size: Any, *, quantile: float, interpolation: str = "nearest",
                            min_samples: int = 1, closed: str = "right") -> "Expr":
        return self._rolling_by("rolling_quantile_by", by, window_size, min_samples, closed,
                                quantile=float(quantile), interpolation=interpolation)

    def rolling_rank_by(self, by: Any, window_size: Any, method: str = "average", *, seed: int | None = None,
                        min_samples: int = 1, closed: str = "right") -> "Expr":
        return self._rolling_by("rolling_rank_by", by, window_size, min_samples, closed, method=method, seed=seed)

    def rolling(self, index_column: Any, *, period: Any, offset: Any = None, closed: str = "right") -> "Expr":
        index = parse_into_expression(index_column, str_as_lit=False)
        return wrap(self._pyexpr.rolling(index, _duration_string(period),
                                         "" if offset is None else _duration_string(offset), closed))

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

    def head(self, n: Any = 10) -> "Expr":
        """The first n values (n may be an expression)."""
        if isinstance(n, Expr):
            return self.slice(0, n)
        return self._fn("head", n=_expr_length(n, "head"))

    def tail(self, n: Any = 10) -> "Expr":
        """The last n values (n may be an expression)."""
        if isinstance(n, Expr):
            return self.slice(-n.cast(_int64()), n)
        return self._fn("tail", n=_expr_length(n, "tail"))

    def slice(self, offset: Any, length: Any = None) -> "Expr":
        for v, what in ((offset, "offset"), (length, "length")):
            if isinstance(v, float):
                raise TypeError(f"`slice`: {what} must be an integer or an expression, got float")
        natives = [parse_into_expression(offset)]
        if length is not None:
            natives.append(parse_into_expression(length))
        return wrap(self._pyexpr.function("slice", natives))

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

    def sort_by(self, by: Any, *more_by: Any, descending: bool | list = False, nulls_last: bool | list = False,
                maintain_order: bool = False) -> "Expr":
        """The values ordered by other expressions."""
        keys = parse_many([by, *more_by], str_as_lit=False)
        desc = [descending] if isinstance(descending, bool) else list(descending)
        last = [nulls_last] if isinstance(nulls_last, bool) else [bool(x) for x in nulls_last]
        return wrap(self._pyexpr.sort_by(keys, desc, last or [False], maintain_order))

    def filter(self, *predicates: Any, **constraints: Any) -> "Expr":
        """The values where the predicates are true; name=value constraints mean
        col(name) == value, as in Polars."""
        from frazil.functions import col, lit

        preds = parse_many(predicates, str_as_lit=False)
        preds += [(col(name) == (v if isinstance(v, Expr) else lit(v)))._pyexpr for name, v in constraints.items()]
        if not preds:
            raise TypeError("filter() needs at least one predicate or constraint")
        p = preds[0]
        for q in preds[1:]:
            p = p.binary("&", q)
        return wrap(self._pyexpr.filter(p))

    def over(self, partition_by: Any = None, *more_exprs: Any, order_by: Any = None, descending: bool = False,
             nulls_last: bool = False, mapping_strategy: str = "group_to_rows") -> "Expr":
        """The expression computed per group of partition_by (its rows ordered by order_by when
        given) and mapped back: group_to_rows (each row its value), join (each row its group's
        values as a list) or explode (the groups' values one after the other)."""
        keys = [] if partition_by is None and not more_exprs else parse_many([partition_by, *more_exprs],
                                                                             str_as_lit=False)
        order = [] if order_by is None else parse_many([order_by], str_as_lit=False)
        return wrap(self._pyexpr.over(keys, order, descending, nulls_last, mapping_strategy))

    # ---- positions and selection ----
    def gather(self, indices: Any, *, null_on_oob: bool = False) -> "Expr":
        if isinstance(indices, (list, tuple)) or _series_values(indices) is not None:
            idx = _frazil.lit_series(list(indices) if isinstance(indices, (list, tuple)) else _series_values(indices)[0],
                                     _native_dtype("Int64"))
        else:
            idx = parse_into_expression(indices, str_as_lit=False)
        return wrap(self._pyexpr.function("gather", [idx], null_on_oob=null_on_oob))

    def get(self, index: Any, *, null_on_oob: bool = False) -> "Expr":
        return wrap(self._pyexpr.function("get", [parse_into_expression(index, str_as_lit=False)],
                                          null_on_oob=null_on_oob))

    def gather_every(self, n: int, offset: int = 0) -> "Expr":
        return self._fn("gather_every", n=n, offset=offset)

    def arg_sort(self, *, descending: bool = False, nulls_last: bool = False) -> "Expr":
        return self._fn("arg_sort", descending=descending, nulls_last=nulls_last)

    def arg_min(self) -> "Expr":
        return self._fn("arg_min")

    def arg_max(self) -> "Expr":
        return self._fn("arg_max")

    def arg_unique(self) -> "Expr":
        return self._fn("arg_unique")

    def arg_true(self) -> "Expr":
        return self._fn("arg_true")

    def search_sorted(self, element: Any, side: str = "any", *, descending: bool = False) -> "Expr":
        if isinstance(element, (list, tuple)):
            from frazil.exceptions import InvalidOperationError

            raise InvalidOperationError("passing a list to `search_sorted` is ambiguous; use `pl.Series([...])` or "
                                        "`pl.lit(...)`")
        return wrap(self._pyexpr.function("search_sorted", [parse_into_expression(element)], side=side,
                                          descending=descending))

    def top_k_by(self, by: Any, k: Any = 5, *, reverse: Any = False) -> "Expr":
        return self._k_by(by, k, reverse, largest=True)

    def bottom_k_by(self, by: Any, k: Any = 5, *, reverse: Any = False) -> "Expr":
        return self._k_by(by, k, reverse, largest=False)

    def _k_by(self, by: Any, k: Any, reverse: Any, *, largest: bool) -> "Expr":
        keys = by if isinstance(by, (list, tuple)) else [by]
        rev = [reverse] * len(keys) if isinstance(reverse, bool) else list(reverse)
        if len(rev) != len(keys):
            raise ValueError("the length of `reverse` does not match the length of `by`")
        desc = [largest != r for r in rev]
        sorted_ = self.sort_by(keys, descending=desc, nulls_last=True, maintain_order=True)
        return sorted_.head(k)

    def min_by(self, by: Any) -> "Expr":
        return wrap(self._pyexpr.function("min_by", [parse_into_expression(by, str_as_lit=False)]))

    def max_by(self, by: Any) -> "Expr":
        return wrap(self._pyexpr.function("max_by", [parse_into_expression(by, str_as_lit=False)]))

    def sample(self, n: int | None = None, *, fraction: float | None = None, with_replacement: bool = False,
               shuffle: bool | None = None, seed: int | None = None) -> "Expr":
        if n is not None and fraction is not None:
            raise ValueError("cannot specify both `n` and `fraction`")
        if isinstance(n, Expr) or isinstance(fraction, Expr):
            raise NotImplementedError("sample() with expression arguments is not supported yet")
        return self._fn("sample", n=n, fraction=None if fraction is None else float(fraction),
                        with_replacement=with_replacement, shuffle=shuffle is not False, seed=seed)

    def shuffle(self, seed: int | None = None) -> "Expr":
        return self._fn("shuffle", seed=seed)

    def extend_constant(self, value: Any, n: Any) -> "Expr":
        return wrap(self._pyexpr.function("extend_constant", [parse_into_expression(value),
                                                              parse_into_expression(n)]))

    def append(self, other: Any, *, upcast: bool = True) -> "Expr":
        return wrap(self._pyexpr.function("append", [parse_into_expression(other)]))

    def repeat_by(self, by: Any) -> "Expr":
        return wrap(self._pyexpr.function("repeat_by", [parse_into_expression(by, str_as_lit=False)]))

    # ---- distinct values and counts ----
    def is_duplicated(self) -> "Expr":
        return self._fn("is_duplicated")

    def is_unique(self) -> "Expr":
        return self._fn("is_unique")

    def is_first_distinct(self) -> "Expr":
        return self._fn("is_first_distinct")

    def is_last_distinct(self) -> "Expr":
        return self._fn("is_last_distinct")

    def mode(self, *, maintain_order: bool = False) -> "Expr":
        return self._fn("mode", maintain_order=maintain_order)

    def value_counts(self, *, sort: bool = False, parallel: bool = False, name: str | None = None,
                     normalize: bool = False) -> "Expr":
        return wrap(self._pyexpr.function("value_counts", [], sort=sort, parallel=parallel, count_name=name,
                                          normalize=normalize))

    def unique_counts(self) -> "Expr":
        return self._fn("unique_counts")

    def approx_n_unique(self) -> "Expr":
        return self._fn("approx_n_unique")

    def entropy(self, base: float = math.e, *, normalize: bool = True) -> "Expr":
        return self._fn("entropy", base=float(base), normalize=normalize)

    def hash(self, seed: int = 0, seed_1: int | None = None, seed_2: int | None = None,
             seed_3: int | None = None) -> "Expr":
        return self._fn("hash", seed=seed)

    def implode(self, *, maintain_order: bool = True) -> "Expr":
        return self._fn("implode")

    # ---- statistics ----
    def product(self) -> "Expr":
        return self._fn("product")

    def skew(self, *, bias: bool = True) -> "Expr":
        return self._fn("skew", bias=bias)

    def kurtosis(self, *, fisher: bool = True, bias: bool = True) -> "Expr":
        return self._fn("kurtosis", fisher=fisher, bias=bias)

    def nan_min(self) -> "Expr":
        return self._fn("nan_min")

    def nan_max(self) -> "Expr":
        return self._fn("nan_max")

    def bitwise_and(self) -> "Expr":
        return self._fn("bitwise_and")

    def bitwise_or(self) -> "Expr":
        return self._fn("bitwise_or")

    def bitwise_xor(self) -> "Expr":
        return self._fn("bitwise_xor")

    def dot(self, other: Any) -> "Expr":
        return (self * wrap(parse_into_expression(other, str_as_lit=False))).sum()

    # ---- inspection ----
    def is_empty(self, *, ignore_nulls: bool = False) -> "Expr":
        """Whether there are no values (ignore_nulls: no non-null values)."""
        if ignore_nulls:
            return self.drop_nulls()._fn("is_empty")
        return self._fn("is_empty")

    def has_nulls(self) -> "Expr":
        return self._fn("has_nulls")

    def is_sorted(self, *, descending: bool | None = False, nulls_last: bool | None = False) -> "Expr":
        """Whether the values are sorted; a None option accepts either of its orders."""
        out = None
        for d in ((False, True) if descending is None else (bool(descending),)):
            for nl in ((False, True) if nulls_last is None else (bool(nulls_last),)):
                one = self._fn("is_sorted", descending=d, nulls_last=nl)
                out = one if out is None else out | one
        return out

    def index_of(self, element: Any) -> "Expr":
        return self._fn("index_of", element)

    def item(self, *, allow_empty: bool = False) -> "Expr":
        return self._fn("item", allow_empty=allow_empty)

    def lower_bound(self) -> "Expr":
        return self._fn("lower_bound")

    def upper_bound(self) -> "Expr":
        return self._fn("upper_bound")

    def to_physical(self) -> "Expr":
        return self._fn("to_physical")

    def reinterpret(self, *, signed: bool | None = None, dtype: Any = None) -> "Expr":
        if dtype is not None:
            return self._fn("reinterpret", signed=_native_dtype(dtype).startswith("Int")
                            if isinstance(_native_dtype(dtype), str) else True)
        return self._fn("reinterpret", signed=True if signed is None else signed)

    def truncdiv(self, other: Any) -> "Expr":
        return self._fn("truncdiv", other)

    def drop_nans(self) -> "Expr":
        return self._fn("drop_nans")

    def hist(self, bins: Any = None, *, bin_count: int | None = None, include_category: bool = False,
             include_breakpoint: bool = False) -> "Expr":
        if include_category:
            raise NotImplementedError("hist(include_category=True) needs the Categorical dtype, which frazil has not")
        return self._fn("hist", bins=[float(b) for b in (bins if bins is not None else [])], bin_count=bin_count,
                        include_breakpoint=include_breakpoint)

    def approx_quantile(self, quantile: Any, *, method: str = "auto", error: float = 0.001,
                        error_tightness: str = "empirical") -> "Expr":
        """The exact quantile (linear interpolation), within any error Polars allows."""
        return self.quantile(quantile, "linear")

    def cumulative_eval(self, expr: "Expr", *, min_samples: int = 1) -> "Expr":
        """`expr` (over pl.element()) evaluated on every prefix of the values: rows 0..=i for
        row i; null until min_samples non-null values were seen."""
        from frazil.functions import int_range, len as pl_len, when

        inner = wrap(expr._pyexpr.replace_column("", self._pyexpr))
        index = int_range(0, pl_len())
        out = inner.rolling(index, period=f"{1 << 62}i")
        return when(self.cum_count() >= min_samples).then(out)

    def pipe(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        return function(self, *args, **kwargs)

    def set_sorted(self, *, descending: bool = False, nulls_last: bool = False) -> "Expr":
        """A hint Polars uses for fast paths; the values are unchanged (join_asof reads the hint)."""
        out = SortedHintExpr.__new__(SortedHintExpr)
        out._pyexpr = self._pyexpr
        return out

    # ---- value mapping ----
    def replace(self, old: Any, new: Any = _NO_DEFAULT) -> "Expr":
        old_e, new_e = _mapping_inputs(old, new, "replace")
        return wrap(self._pyexpr.function("replace", [old_e, new_e]))

    def replace_strict(self, old: Any, new: Any = _NO_DEFAULT, *, default: Any = _NO_DEFAULT,
                       return_dtype: Any = None) -> "Expr":
        old_e, new_e = _mapping_inputs(old, new, "replace_strict")
        extra = [old_e, new_e]
        if default is not _NO_DEFAULT:
            extra.append(parse_into_expression(default))
        return wrap(self._pyexpr.function("replace_strict", extra,
                                          return_dtype=_dtype_arg(return_dtype)))

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

    def first(self, *, ignore_nulls: bool = False) -> "Expr":
        """The first value (ignore_nulls: the first non-null value; null if there is none)."""
        return (self.drop_nulls() if ignore_nulls else self)._agg("first")

    def last(self, *, ignore_nulls: bool = False) -> "Expr":
        """The last value (ignore_nulls: the last non-null value; null if there is none)."""
        return (self.drop_nulls() if ignore_nulls else self)._agg("last")

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

    # ---- binning (frazil/binning.py) ----
    def cut(self, breaks: Any, *, labels: Any = None, left_closed: bool = False,
            include_breaks: bool = False) -> "Expr":
        """Bin the values into the intervals between `breaks` (Enum of interval labels)."""
        from frazil.binning import cut

        return cut(self, breaks, labels=labels, left_closed=left_closed, include_breaks=include_breaks)

    def qcut(self, quantiles: Any, *, labels: Any = None, left_closed: bool = False, allow_duplicates: bool = False,
             include_breaks: bool = False) -> "Expr":
        """Bin the values at their quantiles (Categorical of interval labels)."""
        from frazil.binning import qcut

        return qcut(self, quantiles, labels=labels, left_closed=left_closed, allow_duplicates=allow_duplicates,
                    include_breaks=include_breaks)

    def bin_intervals(self, intervals: Any, *, labels: Any, include_intervals: bool = False,
                      right_closed: bool = False) -> "Expr":
        """Bin the values into the intervals between breakpoints (UInt32, Enum or Struct)."""
        from frazil.binning import bin_intervals

        return bin_intervals(self, intervals, labels=labels, include_intervals=include_intervals,
                             right_closed=right_closed)

    def bin_quantiles(self, quantiles: Any, *, labels: Any, include_intervals: bool = False,
                      right_closed: bool = False) -> "Expr":
        """Bin the values between their quantiles (UInt32, Enum or Struct)."""
        from frazil.binning import bin_quantiles

        return bin_quantiles(self, quantiles, labels=labels, include_intervals=include_intervals,
                             right_closed=right_closed)

    def bin_ranks(self, ranks: Any, *, labels: Any, include_intervals: bool = False) -> "Expr":
        """Bin the values by their position in sorted order (UInt32, Enum or Struct)."""
        from frazil.binning import bin_ranks

        return bin_ranks(self, ranks, labels=labels, include_intervals=include_intervals)

    # ---- row encoding (frazil/row_encoding.py) ----
    def _row_encode(self, *, unordered: bool = False, descending: bool | None = None,
                    nulls_last: bool | None = None) -> "Expr":
        """Order-preserving Binary keys of this expression's rows (Polars' internal API)."""
        from frazil.row_encoding import expr_row_encode

        return expr_row_encode(self, unordered=unordered, descending=descending, nulls_last=nulls_last)

    def _row_decode(self, names: Any, dtypes: Any, *, unordered: bool = False, descending: Any = None,
                    nulls_last: Any = None) -> "Expr":
        """The Struct of columns that _row_encode keys encode."""
        from frazil.row_encoding import expr_row_decode

        return expr_row_decode(self, names, dtypes, unordered=unordered, descending=descending,
                               nulls_last=nulls_last)

    # ---- namespaces ----
    @property
    def str(self) -> "ExprStringNameSpace":
        """String functions: pl.col('s').str.contains(...)."""
        from frazil.expr_str import ExprStringNameSpace

        return ExprStringNameSpace(self)

    @property
    def cat(self) -> "ExprCatNameSpace":
        """Categorical/Enum functions: pl.col('c').cat.len_bytes()."""
        from frazil.expr_cat import ExprCatNameSpace

        return ExprCatNameSpace(self)

    @property
    def list(self) -> "ExprListNameSpace":
        """List functions: pl.col('l').list.len() (python/frazil/expr_list.py)."""
        from frazil.expr_list import ExprListNameSpace

        return ExprListNameSpace(self)

    @property
    def arr(self) -> Any:
        """Array functions: pl.col('a').arr.sum() (frazil/expr_arr.py)."""
        from frazil.expr_arr import ExprArrayNameSpace

        return ExprArrayNameSpace(self)

    def reshape(self, dimensions: tuple[int, ...]) -> "Expr":
        """The leaf values cut into Arrays of `dimensions` (one value: flat); only the first
        dimension may be -1 (inferred)."""
        from frazil.expr_arr import reshape_dimensions

        return self._fn("reshape", dimensions=reshape_dimensions(dimensions))

    @property
    def struct(self) -> Any:
        """Struct functions: pl.col('s').struct.field('a') (frazil/expr_struct.py)."""
        from frazil.expr_struct import ExprStructNameSpace

        return ExprStructNameSpace(self)

    @property
    def bin(self) -> Any:
        """Binary functions: pl.col('b').bin.size() (frazil/expr_bin.py)."""
        from frazil.expr_bin import ExprBinaryNameSpace

        return ExprBinaryNameSpace(self)

    @property
    def name(self) -> Any:
        """Output-name rules: pl.col('a').name.suffix('_x') (frazil/expr_name.py)."""
        from frazil.expr_name import ExprNameNameSpace

        return ExprNameNameSpace(self)

    @property
    def meta(self) -> Any:
        """Questions about the expression tree: pl.col('a').meta.root_names() (frazil/expr_meta.py)."""
        from frazil.expr_meta import ExprMetaNameSpace

        return ExprMetaNameSpace(self)

    @property
    def dt(self) -> "ExprDateTimeNameSpace":
        """Date and time functions: pl.col('d').dt.year()."""
        from frazil.expr_dt import ExprDateTimeNameSpace

        return ExprDateTimeNameSpace(self)


class SortedHintExpr(Expr):
    """An expression marked with set_sorted() (join_asof skips its sortedness check)."""

    __slots__ = ()
