"""Expression constructors with Polars' names: col, lit, when, len, sum, concat, ..."""
from __future__ import annotations

import builtins
from typing import Any, Iterable

from frazil import _frazil
from frazil.expr import Expr, parse_into_expression, wrap


class _ColumnFactory:
    """`col("a")`, `col("a", "b")`, `col(["a", "b"])`, `col("*")`, and `col.a`."""

    def __call__(self, name: Any, *more_names: str) -> Expr:
        from frazil.datatypes import DataType, DataTypeClass

        # Dtypes and ^...$ regexes select by schema (the selectors module resolves them).
        items = [name, *more_names]
        flat = [x for n in items for x in ([n] if isinstance(n, (str, DataType, DataTypeClass)) or not isinstance(n, Iterable) else list(n))]
        if builtins.any(isinstance(n, (DataType, DataTypeClass)) for n in flat):
            from frazil import selectors as cs

            if not builtins.all(isinstance(n, (DataType, DataTypeClass)) for n in flat):
                raise TypeError("invalid input for `col`: mixing names and dtypes is not supported")
            return cs.by_dtype(*flat).as_expr()
        if builtins.any(isinstance(n, str) and builtins.len(n) > 1 and n.startswith("^") and n.endswith("$") for n in flat):
            from frazil import selectors as cs

            sel = None
            for n in flat:
                one = cs.matches(n) if n.startswith("^") and n.endswith("$") else cs.by_name(n)
                sel = one if sel is None else sel | one
            return sel.as_expr()
        names: list[str] = []
        for n in (name, *more_names):
            if isinstance(n, str):
                n.encode("utf-8")  # a lone surrogate raises UnicodeEncodeError, as in Polars
                names.append(n)
            elif isinstance(n, Iterable):
                names.extend(list(n))
            else:
                raise TypeError(f"invalid input for `col`: expected `str` or a list of `str`, got {type(n).__name__}")
        if builtins.len(names) == 1:
            return wrap(_frazil.col(names[0]))
        return wrap(_frazil.cols(names))

    def __getattr__(self, name: str) -> Expr:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self(name)


col = _ColumnFactory()


def lit(value: Any, dtype: Any = None, *, allow_object: bool = False) -> Expr:
    """An expression of one constant value (broadcast to the frame's height), optionally of the given dtype."""
    if isinstance(value, Expr):
        return value if dtype is None else value.cast(dtype)
    if dtype is not None:
        from frazil.datatypes import parse_into_dtype
        from frazil.expr import _native_dtype

        if isinstance(value, (list, tuple)):
            # Polars: a Python list is one List value (of the given List dtype).
            return wrap(_frazil.lit_series([list(value)], _native_dtype(dtype))).alias("literal")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and parse_into_dtype(dtype).is_numeric():
            # Polars: the number's literal, strictly cast (lit(256, UInt8) fails as a cast).
            return wrap(parse_into_expression(value)).cast(dtype)
        return wrap(_frazil.lit_typed(value, _native_dtype(dtype)))
    if isinstance(value, (list, tuple)):
        # Polars: a Python list is one List value, broadcast like any literal.
        return wrap(_frazil.lit_series([list(value)])).alias("literal")
    return wrap(parse_into_expression(value))  # a Series is named as the Series (Polars)


def len() -> Expr:  # noqa: A001 - Polars' name
    """The number of rows (per group inside agg()), as UInt32."""
    return wrap(_frazil.len())


def all(*names: str, ignore_nulls: bool = True) -> Expr:  # noqa: A001
    """All columns, or the AND of boolean columns when given names."""
    if names:
        return col(*names).all(ignore_nulls=ignore_nulls)
    return wrap(_frazil.all())


def any(*names: str, ignore_nulls: bool = True) -> Expr:  # noqa: A001
    """The OR of the named boolean columns (Polars' pl.any)."""
    return col(*names).any(ignore_nulls=ignore_nulls)


def exclude(*names: Any) -> Expr:
    """All columns except the ones named (or of the dtypes given)."""
    return all().exclude(*names)


def nth(index: Any, *more_indices: int) -> Expr:
    """The column(s) at the given position(s)."""
    if more_indices or not isinstance(index, int):
        from frazil import selectors as cs

        return cs.by_index(index, *more_indices).as_expr()
    return wrap(_frazil.nth(index))


def first(*names: str) -> Expr:
    """The first column, or the first value of the named columns."""
    if not names:
        return nth(0)
    return col(*names).first()


def last(*names: str) -> Expr:
    """The last column, or the last value of the named columns."""
    if not names:
        return nth(-1)
    return col(*names).last()


def sum(*names: str) -> Expr:  # noqa: A001
    """The sum of the named columns."""
    return col(*names).sum()


def mean(*names: str) -> Expr:
    """The mean of the named columns."""
    return col(*names).mean()


def min(*names: str) -> Expr:  # noqa: A001
    """The smallest value of the named columns."""
    return col(*names).min()


def max(*names: str) -> Expr:  # noqa: A001
    """The largest value of the named columns."""
    return col(*names).max()


def median(*names: str) -> Expr:
    """The median of the named columns."""
    return col(*names).median()


def count(*names: str) -> Expr:
    """The number of non-null values of the named columns (of all rows with no names)."""
    if not names:
        return len()
    return col(*names).count()


def n_unique(*names: str) -> Expr:
    """The number of distinct values of the named columns."""
    return col(*names).n_unique()


def std(name: str, ddof: int = 1) -> Expr:
    """The standard deviation of a column (ddof=1: the sample deviation)."""
    return col(name).std(ddof)


def var(name: str, ddof: int = 1) -> Expr:
    """The variance of a column (ddof=1: the sample variance)."""
    return col(name).var(ddof)


def corr(a: Any, b: Any, *, method: str = "pearson", ddof: int | None = None,
         propagate_nans: bool = False) -> Expr:
    """Pearson (or Spearman rank) correlation of two columns (names) or expressions over the
    rows where both are not null, as Polars' `pl.corr`; per group inside `group_by().agg()`.
    Named after `a`. The C++ dsl::corr: two passes (the deviations from the means are
    summed), which keeps the result accurate for large values; dsl::spearman_corr: the same
    over the rows' average ranks."""
    if method not in ("pearson", "spearman"):
        raise ValueError(f"`method` must be one of {{'pearson', 'spearman'}}, got {method!r}")
    x = parse_into_expression(a, str_as_lit=False)
    y = parse_into_expression(b, str_as_lit=False)
    if method == "spearman":
        return wrap(_frazil.spearman_corr(x, y, propagate_nans))  # dsl/statistics.cpp
    return wrap(_frazil.corr(x, y))  # dsl::corr (dsl/statistics.cpp)


def arctan2(y: Any, x: Any) -> Expr:
    """atan2(y, x) elementwise (strings are column names)."""
    for v in (y, x):
        if not isinstance(v, (str, Expr)):
            raise TypeError(f"`arctan2` expected a `str` or `Expr` got a `{type(v).__name__}`")
    y = wrap(parse_into_expression(y, str_as_lit=False))
    return y._fn("arctan2", wrap(parse_into_expression(x, str_as_lit=False)))


def coalesce(*exprs: Any) -> Expr:
    """Per row, the first non-null value of the given expressions."""
    natives = []
    for e in exprs:
        if isinstance(e, (list, tuple)):
            natives.extend(parse_into_expression(x, str_as_lit=False) for x in e)
        else:
            natives.append(parse_into_expression(e, str_as_lit=False))
    return wrap(_frazil.coalesce(natives))


class When:
    """The result of when(...): give the value for matching rows with .then(...)."""
    def __init__(self, branches: Any, predicate: Any) -> None:
        self._branches = branches
        self._predicate = predicate

    def then(self, statement: Any) -> "Then":
        """The value of the rows where the condition holds."""
        return Then((self._branches, self._predicate, parse_into_expression(statement, str_as_lit=False)))


class Then(Expr):
    """A when/then chain: add a branch with .when(...) or end it with .otherwise(...).

    The branches are a linked list from the newest back (`(earlier, predicate, value)`, None
    at the start), and the expression is built only when asked: a chain of n branches costs
    O(n), where building it at every `.then` cost O(n^2) (10,000 branches took 107 s).
    """
    __slots__ = ("_branches", "_built")

    def __init__(self, branches: Any) -> None:
        self._branches = branches
        self._built = None

    @property  # type: ignore[override]
    def _pyexpr(self) -> Any:
        if self._built is None:
            self._built = self._build(_frazil.lit(None))
        return self._built

    @_pyexpr.setter
    def _pyexpr(self, value: Any) -> None:
        self._built = value

    def _build(self, otherwise: Any) -> Any:
        out = otherwise
        node = self._branches
        while node is not None:  # newest branch first: it is the innermost ternary
            node, pred, value = node
            out = _frazil.ternary(pred, value, out)
        return out

    def when(self, *predicates: Any, **constraints: Any) -> When:
        """Another condition, tried for the rows no earlier branch matched."""
        return When(self._branches, _combine_predicates(predicates, constraints))

    def otherwise(self, statement: Any) -> Expr:
        """The value of the rows no branch matched (null when omitted)."""
        return wrap(self._build(parse_into_expression(statement, str_as_lit=False)))


def _combine_predicates(predicates: tuple, constraints: dict) -> Any:
    preds = [parse_into_expression(p, str_as_lit=False) for p in predicates]
    preds += [_frazil.col(k).binary("==", parse_into_expression(v)) for k, v in constraints.items()]
    if not preds:
        raise TypeError("when() needs at least one predicate")
    out = preds[0]
    for p in preds[1:]:
        out = out.binary("&", p)
    return out


def when(*predicates: Any, **constraints: Any) -> When:
    """Starts a conditional expression: when(cond).then(a).when(cond2).then(b).otherwise(c)."""
    return When(None, _combine_predicates(predicates, constraints))


def concat(items: Iterable[Any], *, how: str = "vertical", rechunk: bool = False, parallel: bool = True) -> Any:
    """Stacks frames (or lazy frames) vertically, their schemas agreeing; other strategies
    (vertical_relaxed, diagonal, horizontal, align) in concat_frames."""
    from frazil.dataframe import DataFrame
    from frazil.lazyframe import LazyFrame

    items = list(items)
    if not items:
        raise ValueError("cannot concat an empty list")
    from frazil.series import Series

    if how != "vertical" or isinstance(items[0], Series):
        from frazil.concat_frames import concat_how

        return concat_how(items, how, rechunk)
    if isinstance(items[0], LazyFrame):
        # rechunk=True is a union option the optimizer drops where the consumer does not need it.
        return LazyFrame._from_native(_frazil.PyLazyFrame.concat([lf._ldf for lf in items], rechunk))
    if isinstance(items[0], DataFrame):
        out = DataFrame._from_native(_frazil.vstack([df._df for df in items]))  # checked in C++
        return out.rechunk() if rechunk else out
    raise TypeError(f"cannot concat items of type {type(items[0]).__name__}")


def _exprs(items: Iterable[Any]) -> list:
    """Native expressions for positional arguments: names are columns, lists are flattened."""
    out = []
    for item in items:
        if isinstance(item, (list, tuple)):
            out.extend(_exprs(item))
        else:
            out.append(parse_into_expression(item, str_as_lit=False))
    return out


def _horizontal(name: str, exprs: tuple, **options: Any) -> Expr:
    natives = _exprs(exprs)
    if not natives:
        raise ValueError(f"cannot call `{name}` with no expressions")
    return wrap(natives[0].function(name, natives[1:], **options))


def sum_horizontal(*exprs: Any, ignore_nulls: bool = True) -> Expr:
    return _horizontal("sum_horizontal", exprs, ignore_nulls=ignore_nulls)


def mean_horizontal(*exprs: Any, ignore_nulls: bool = True) -> Expr:
    return _horizontal("mean_horizontal", exprs, ignore_nulls=ignore_nulls)


def min_horizontal(*exprs: Any) -> Expr:
    return _horizontal("min_horizontal", exprs)


def max_horizontal(*exprs: Any) -> Expr:
    return _horizontal("max_horizontal", exprs)


def any_horizontal(*exprs: Any) -> Expr:
    return _horizontal("any_horizontal", exprs)


def all_horizontal(*exprs: Any) -> Expr:
    return _horizontal("all_horizontal", exprs)


def _to_series_or_expr(out: Expr, eager: bool):
    if not eager:
        return out
    from frazil.dataframe import DataFrame

    return DataFrame().select(out).to_series()


def int_range(start: Any = 0, end: Any = None, step: int = 1, *, dtype: Any = None, eager: bool = False) -> Any:
    """start, start + step, ... before end (int_range(n) is int_range(0, n))."""
    if end is None:
        start, end = 0, start
    from frazil.expr import _dtype_arg

    s = parse_into_expression(start)
    out = wrap(s.function("int_range", [parse_into_expression(end)], step=step, dtype=_dtype_arg(dtype)))
    return _to_series_or_expr(out, eager)


def arange(start: Any = 0, end: Any = None, step: int = 1, *, dtype: Any = None, eager: bool = False) -> Any:
    return int_range(start, end, step, dtype=dtype, eager=eager)


def int_ranges(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None, eager: bool = False) -> Any:
    if end is None:
        start, end = 0, start
    from frazil.expr import _dtype_arg

    s = parse_into_expression(start, str_as_lit=False)
    out = wrap(s.function("int_ranges", [parse_into_expression(end, str_as_lit=False),
                                         parse_into_expression(step, str_as_lit=False)], dtype=_dtype_arg(dtype)))
    return _to_series_or_expr(out, eager)


def linear_space(start: Any, end: Any, num_samples: Any, *, closed: str = "both", eager: bool = False) -> Any:
    s = parse_into_expression(start)
    out = wrap(s.function("linear_space", [parse_into_expression(end), parse_into_expression(num_samples)],
                          closed=closed))
    return _to_series_or_expr(out, eager)


def linear_spaces(start: Any, end: Any, num_samples: Any, *, closed: str = "both", as_array: bool = False,
                  eager: bool = False) -> Any:
    """linear_space per row: a List (an Array of num_samples when as_array, which needs an
    int num_samples) of evenly spaced floats from start to end."""
    if as_array and not isinstance(num_samples, int):
        from frazil.exceptions import InvalidOperationError

        raise InvalidOperationError("`as_array=True` requires `num_samples` to be an integer")
    s, e, n = (parse_into_expression(x, str_as_lit=False) for x in (start, end, num_samples))
    out = wrap(s.function("linear_spaces", [e, n], closed=closed))
    if as_array:
        out = out.list.to_array(num_samples)
    return _to_series_or_expr(out, eager)


def cum_sum(*names: str) -> Expr:
    return col(*names).cum_sum()


def cum_count(*names: str, reverse: bool = False) -> Expr:
    return col(*names).cum_count(reverse=reverse)


def implode(*names: str) -> Expr:
    return col(*names).implode()


def approx_n_unique(*names: str) -> Expr:
    return col(*names).approx_n_unique()


def head(*names: str, n: int = 10) -> Expr:
    return col(*names).head(n)


def tail(*names: str, n: int = 10) -> Expr:
    return col(*names).tail(n)


def quantile(name: str, quantile: float, interpolation: str = "nearest") -> Expr:
    return col(name).quantile(quantile, interpolation)


def element() -> Expr:
    """The element of a list (list.eval) or the window (cumulative_eval): Polars' col("")."""
    return wrap(_frazil.col(""))


def arg_where(condition: Any, *, eager: bool = False) -> Any:
    return _to_series_or_expr(wrap(parse_into_expression(condition, str_as_lit=False)).arg_true(), eager)


def arg_sort_by(exprs: Any, *more_exprs: Any, descending: Any = False, nulls_last: Any = False,
                maintain_order: bool = False, multithreaded: bool = True) -> Expr:
    keys = _exprs([exprs, *more_exprs])
    from frazil.datatypes import UInt32

    index = int_range(0, len(), dtype=UInt32)
    return index.sort_by([wrap(k) for k in keys], descending=descending, nulls_last=nulls_last,
                         maintain_order=True)


def cov(a: Any, b: Any, *, ddof: int = 1) -> Expr:
    """The covariance of two columns (names) or expressions over the rows where both are not
    null (with ddof), per group inside group_by().agg(). Named after `a`."""
    from frazil.datatypes import Float64

    x = wrap(parse_into_expression(a, str_as_lit=False))
    y = wrap(parse_into_expression(b, str_as_lit=False))
    both = x.is_not_null() & y.is_not_null()
    x = when(both).then(x.cast(Float64))
    y = when(both).then(y.cast(Float64))
    n = both.sum()
    c = ((x - x.mean()) * (y - y.mean())).sum() / (n - ddof)
    # Computed in Float64, given in Float32 (or Float16) when that is the sides' supertype, as
    # Polars (functions/statistics.cpp, float_of_supertype).
    sides = (wrap(parse_into_expression(a, str_as_lit=False)), wrap(parse_into_expression(b, str_as_lit=False)))
    return when(n > ddof).then(c)._fn("float_of_supertype", sides[0].first(), sides[1].first())


def _fold_exprs(exprs: Any) -> list:
    items = exprs if isinstance(exprs, (list, tuple)) else [exprs]
    out = []
    for e in items:
        e = e if isinstance(e, Expr) else wrap(parse_into_expression(e, str_as_lit=False))
        out.append(e)
    return out


def fold(acc: Any, function: Any, exprs: Any, *, returns_scalar: bool = False, return_dtype: Any = None) -> Expr:
    """acc = function(acc, e) for every expression, built once as an expression: `function`
    must combine expressions (lambda acc, x: acc + x). Multi-column expressions (pl.all(),
    col("*")) are not expanded here: list the columns."""
    acc = acc if isinstance(acc, Expr) else lit(acc)
    out = acc
    for e in _fold_exprs(exprs):
        out = function(out, e)
    if return_dtype is not None:
        return out.cast(return_dtype)
    return out._fn("cast_like", acc)


def reduce(function: Any, exprs: Any, *, returns_scalar: bool = False, return_dtype: Any = None) -> Expr:
    items = _fold_exprs(exprs)
    if not items:
        raise ValueError("reduce needs at least one expression")
    out = items[0]
    for e in items[1:]:
        out = function(out, e)
    return out


def select(*exprs: Any, eager: bool = True, **named_exprs: Any) -> Any:
    """Evaluates expressions without a frame (Polars' pl.select): a frame of one row for scalars."""
    from frazil.dataframe import DataFrame

    df = DataFrame().select(*exprs, **named_exprs)
    return df if eager else df.lazy()


def get_index_type() -> Any:
    """The dtype of row indices and counts: UInt32, as in Polars' default build."""
    from frazil.datatypes import UInt32

    return UInt32


def _rolling_cov_corr(a: Any, b: Any, window_size: int, min_samples: int | None, ddof: int, corr: bool) -> Expr:
    """Polars' rolling covariance/correlation over fixed windows, from rolling means of the rows
    where both inputs are set: (mean(xy) - mean(x) mean(y)) * n / (n - ddof), divided by
    sqrt(var(x) var(y)) for the correlation. Float64 (Polars keeps Float32 pairs Float32)."""
    from frazil.datatypes import Float64

    if min_samples is None:
        min_samples = window_size
    x = (col(a) if isinstance(a, str) else wrap(parse_into_expression(a, str_as_lit=False))).cast(Float64)
    y = (col(b) if isinstance(b, str) else wrap(parse_into_expression(b, str_as_lit=False))).cast(Float64)
    both = x.is_not_null() & y.is_not_null()
    x, y = when(both).then(x), when(both).then(y)
    mean_xy = (x * y).rolling_mean(window_size, min_samples=min_samples)
    n = both.cast(Float64).rolling_sum(window_size, min_samples=0)
    mean_x = x.rolling_mean(window_size, min_samples=min_samples)
    mean_y = y.rolling_mean(window_size, min_samples=min_samples)
    cov = (mean_xy - mean_x * mean_y) * (n / (n - float(1 if corr else ddof)))
    if not corr:
        return cov
    var_x = x.rolling_var(window_size, min_samples=min_samples)
    var_y = y.rolling_var(window_size, min_samples=min_samples)
    return cov / (var_x * var_y).pow(0.5)


def rolling_cov(a: Any, b: Any, *, window_size: int, min_samples: int | None = None, ddof: int = 1) -> Expr:
    """The covariance of a and b over windows of window_size rows (min_samples defaults to it)."""
    return _rolling_cov_corr(a, b, window_size, min_samples, ddof, corr=False)


def rolling_corr(a: Any, b: Any, *, window_size: int, min_samples: int | None = None) -> Expr:
    """The correlation of a and b over windows of window_size rows (min_samples defaults to it)."""
    return _rolling_cov_corr(a, b, window_size, min_samples, 1, corr=True)
