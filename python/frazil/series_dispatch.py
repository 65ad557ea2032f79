"""Series methods derived from Expr, as Polars derives them (its `expr_dispatch`).

A Series method that Polars defines through the expression of the same name runs here as
that expression over a one-column frame: `s.cum_sum()` is
`s.to_frame().select(pl.col(s.name).cum_sum()).to_series()`. So every function the engine
gains on `Expr` (C++ kernels, the function registry) reaches `Series` without a second
implementation, with the same semantics, dtypes and errors. Series given as arguments
become literals (`pl.lit(series)`), as Polars passes them.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

# Polars 2.1's Series methods that it derives from Expr (the names both classes have, less
# properties). A name frazil's Expr lacks is skipped until the Expr method exists.
EXPR_DERIVED = frozenset("""
abs alias all any append approx_n_unique approx_quantile arccos arccosh arcsin arcsinh arctan
arctanh arg_max arg_min arg_sort arg_true arg_unique backward_fill bin_intervals bin_quantiles
bin_ranks bitwise_and bitwise_count_ones bitwise_count_zeros bitwise_leading_ones
bitwise_leading_zeros bitwise_or bitwise_trailing_ones bitwise_trailing_zeros bitwise_xor
bottom_k bottom_k_by cast cbrt ceil clip cos cosh cot count cum_count cum_max cum_min cum_prod
cum_sum cumulative_eval cut degrees diff dot drop_nans drop_nulls entropy eq eq_missing erf erfc
ewm_mean ewm_mean_by ewm_std ewm_sum ewm_sum_by ewm_var exp explode extend_constant fill_nan
fill_null filter first floor forward_fill gather gather_every ge gt has_nulls hash head hist
implode index_of interpolate interpolate_by is_between is_close is_duplicated is_empty
is_finite is_first_distinct is_in is_infinite is_last_distinct is_nan is_not_nan is_not_null
is_null is_sorted is_unique item kurtosis last le len limit log log10 log1p lower_bound lt
map_elements max max_by mean median min min_by mode n_unique nan_max nan_min ne ne_missing not_
null_count pct_change peak_max peak_min pow product qcut quantile radians rank reinterpret
repeat_by replace replace_strict reshape reverse rle rle_id rolling_kurtosis rolling_map
rolling_max rolling_max_by rolling_mean rolling_mean_by rolling_median rolling_median_by
rolling_min rolling_min_by rolling_quantile rolling_quantile_by rolling_rank rolling_rank_by
rolling_skew rolling_std rolling_std_by rolling_sum rolling_sum_by rolling_var rolling_var_by
round round_sig_figs sample search_sorted set_sorted shift shuffle sign sin sinh skew slice sort
sqrt std sum tail tan tanh to_physical top_k top_k_by truncate unique unique_counts upper_bound
var
""".split())

# Of those, the ones whose Series form returns a Python scalar (Polars: the reductions and
# the inspection methods).
SCALAR_RESULT = frozenset("""
all any approx_n_unique approx_quantile arg_max arg_min bitwise_and bitwise_or bitwise_xor count
dot entropy first has_nulls index_of is_empty is_sorted kurtosis last len max mean median min
n_unique nan_max nan_min null_count product quantile skew std sum var
""".split())

# Polars' Series.dt reductions return scalars too.
_SCALAR_NAMESPACE_RESULT = {"dt": frozenset({"min", "max", "mean", "median"})}


def _as_expression_argument(value: Any) -> Any:
    """A Series argument as the literal Polars passes; other values unchanged."""
    from frazil.functions import lit
    from frazil.series import Series

    if isinstance(value, Series):
        return lit(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, Series) for v in value):
        return type(value)(_as_expression_argument(v) for v in value)
    return value


def _arguments(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    return (tuple(_as_expression_argument(a) for a in args),
            {k: _as_expression_argument(v) for k, v in kwargs.items()})


def apply_expression(series: Any, build: Callable[[Any], Any], *, scalar: bool = False) -> Any:
    """`build(pl.col(series.name))` evaluated over the series: a Series, or with scalar=True
    the one value of its result."""
    from frazil.functions import col

    out = series.to_frame().select(build(col(series.name))).to_series(0)
    if not scalar:
        return out
    if len(out) != 1:
        raise ValueError(f"expected one value, the expression gave {len(out)}")
    return out[0]


_EXPR_OPERAND_COMPARISONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge", "eq_missing", "ne_missing"})


def _is_expr(value: Any) -> bool:
    from frazil.expr import Expr

    return isinstance(value, Expr)


def _derived_method(name: str) -> Callable[..., Any]:
    scalar = name in SCALAR_RESULT

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if name in _EXPR_OPERAND_COMPARISONS and args and _is_expr(args[0]):
            # Polars: a comparison with an expression is the expression lit(series) <op> other.
            from frazil.functions import lit

            return getattr(lit(self), name)(*args, **kwargs)
        a, k = _arguments(args, kwargs)
        # search_sorted gives one position for one value, a Series for several.
        one = scalar or (name == "search_sorted" and args and not isinstance(args[0], (list, tuple))
                         and type(args[0]).__name__ != "Series")
        return apply_expression(self, lambda e: getattr(e, name)(*a, **k), scalar=bool(one))

    method.__name__ = name
    method.__qualname__ = f"Series.{name}"
    return method


def install_derived_methods(series_cls: type, expr_cls: type) -> None:
    """Adds to `series_cls` every Expr-derived Polars Series method that `expr_cls` has and
    `series_cls` does not define itself."""
    for name in sorted(EXPR_DERIVED):
        if name in series_cls.__dict__ or not callable(getattr(expr_cls, name, None)):
            continue
        method = _derived_method(name)
        method.__doc__ = getattr(expr_cls, name).__doc__
        setattr(series_cls, name, method)


class SeriesNameSpace:
    """`Series.str`, `Series.dt`, ...: the Expr namespace of the same name over the series."""

    def __init__(self, series: Any, namespace: str) -> None:
        self._series = series
        self._namespace = namespace

    def __getattr__(self, name: str) -> Callable[..., Any]:
        from frazil.functions import col
        from frazil.series_str import EAGER_FORMS

        if name.startswith("_") or not callable(getattr(getattr(col("_"), self._namespace), name, None)):
            raise AttributeError(f"Series.{self._namespace} has no attribute '{name}'")
        scalar = name in _SCALAR_NAMESPACE_RESULT.get(self._namespace, ())

        eager = EAGER_FORMS.get(self._namespace, {}).get(name)

        def method(*args: Any, **kwargs: Any) -> Any:
            a, k = _arguments(args, kwargs)
            if eager is not None:
                return eager(lambda build: apply_expression(self._series, build), *a, **k)
            return apply_expression(self._series, lambda e: getattr(getattr(e, self._namespace), name)(*a, **k),
                                    scalar=scalar)

        return method

    def __getitem__(self, item: Any) -> Any:
        # Polars: Series.list[i] is list.get(i); Series.dt[i] is the series' value at i.
        if self._namespace == "list":
            return self.get(item)
        if self._namespace == "dt":
            return self._series[item]
        raise TypeError(f"'Series.{self._namespace}' is not subscriptable")


# The operators: (dunder, function, reflected). The result keeps the series' name, as in Polars.
BINARY_OPERATORS = [
    ("__add__", operator.add, False), ("__radd__", operator.add, True),
    ("__sub__", operator.sub, False), ("__rsub__", operator.sub, True),
    ("__mul__", operator.mul, False), ("__rmul__", operator.mul, True),
    ("__truediv__", operator.truediv, False), ("__rtruediv__", operator.truediv, True),
    ("__floordiv__", operator.floordiv, False), ("__rfloordiv__", operator.floordiv, True),
    ("__mod__", operator.mod, False), ("__rmod__", operator.mod, True),
    ("__pow__", operator.pow, False), ("__rpow__", operator.pow, True),
    ("__and__", operator.and_, False), ("__rand__", operator.and_, True),
    ("__or__", operator.or_, False), ("__ror__", operator.or_, True),
    ("__xor__", operator.xor, False), ("__rxor__", operator.xor, True),
    ("__eq__", operator.eq, False), ("__ne__", operator.ne, False),
    ("__lt__", operator.lt, False), ("__le__", operator.le, False),
    ("__gt__", operator.gt, False), ("__ge__", operator.ge, False),
]

UNARY_OPERATORS = [("__neg__", operator.neg), ("__pos__", operator.pos), ("__abs__", abs),
                   ("__invert__", operator.invert)]


_ARITHMETIC = (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod)


def _check_arithmetic_lengths(fn: Callable[[Any, Any], Any], left: Any, right: Any) -> None:
    """Two Series of different lengths (neither of one row) in arithmetic: Polars' error."""
    from frazil.exceptions import InvalidOperationError
    from frazil.series import Series

    if fn in _ARITHMETIC and isinstance(right, Series) and len(left) != len(right) and 1 not in (len(left), len(right)):
        raise InvalidOperationError(
            f"cannot do arithmetic operation on series of different lengths: got {len(left)} and {len(right)}")


def _binary_method(fn: Callable[[Any, Any], Any], reflected: bool) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        from frazil.functions import lit

        _check_arithmetic_lengths(fn, self, other)
        o = lit(other) if reflected else _as_expression_argument(other)
        out = apply_expression(self, lambda e: fn(o, e) if reflected else fn(e, o))
        return out.alias(self.name)

    return method


def _unary_method(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def method(self: Any) -> Any:
        return apply_expression(self, fn).alias(self.name)

    return method


def install_operators(series_cls: type) -> None:
    """Arithmetic, comparison and logic operators, evaluated as expressions."""
    for dunder, fn, reflected in BINARY_OPERATORS:
        setattr(series_cls, dunder, _binary_method(fn, reflected))
    for dunder, fn in UNARY_OPERATORS:
        setattr(series_cls, dunder, _unary_method(fn))
    # `==` gives a Series, so a Series cannot be a dict key (as in Polars).
    series_cls.__hash__ = None
