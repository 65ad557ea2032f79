"""Expression constructors with Polars' names: col, lit, when, len, sum, concat, ..."""
from __future__ import annotations

import builtins
from typing import Any, Iterable

from frazil import _frazil
from frazil.expr import Expr, parse_into_expression, wrap


class _ColumnFactory:
    """`col("a")`, `col("a", "b")`, `col(["a", "b"])`, `col("*")`, and `col.a`."""

    def __call__(self, name: Any, *more_names: str) -> Expr:
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
            return wrap(_frazil.lit_series(list(value), _native_dtype(dtype)))
        if isinstance(value, (int, float)) and not isinstance(value, bool) and parse_into_dtype(dtype).is_numeric():
            # Polars: the number's literal, strictly cast (lit(256, UInt8) fails as a cast).
            return wrap(parse_into_expression(value)).cast(dtype)
        return wrap(_frazil.lit_typed(value, _native_dtype(dtype)))
    out = wrap(parse_into_expression(value))
    from frazil.series import Series

    if isinstance(value, Series):
        out = out.alias(value.name)  # Polars names a Series literal as the Series
    return out


def len() -> Expr:  # noqa: A001 - Polars' name
    """The number of rows (per group inside agg()), as UInt32."""
    return wrap(_frazil.len())


def all(*names: str) -> Expr:  # noqa: A001
    """All columns, or the AND of boolean columns when given names."""
    if names:
        return col(*names).all()
    return wrap(_frazil.all())


def exclude(*names: Any) -> Expr:
    """All columns except the ones named (or of the dtypes given)."""
    return all().exclude(*names)


def nth(index: int) -> Expr:
    """The column(s) at the given position(s)."""
    return wrap(_frazil.nth(index))


def first(*names: str) -> Expr:
    """The first column, or the first value of the named columns."""
    return col(*names).first()


def last(*names: str) -> Expr:
    """The last column, or the last value of the named columns."""
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
    """Pearson correlation of two columns (names) or expressions over the rows where both
    are not null, as Polars' `pl.corr`; per group inside `group_by().agg()`. Named after
    `a`. Built from means and sums (two passes: the deviations from the means are summed,
    which keeps the result accurate for large values)."""
    if method != "pearson":
        raise NotImplementedError(f"corr(method={method!r}) is not supported yet: only 'pearson'")
    from frazil.datatypes import Float64

    x = wrap(parse_into_expression(a, str_as_lit=False))
    y = wrap(parse_into_expression(b, str_as_lit=False))
    both = x.is_not_null() & y.is_not_null()
    x = when(both).then(x.cast(Float64))
    y = when(both).then(y.cast(Float64))
    dx = x - x.mean()
    dy = y - y.mean()
    r = (dx * dy).sum() / ((dx * dx).sum() * (dy * dy).sum()).sqrt()
    # No complete pair: null (one pair, or a constant side: NaN, as in Polars).
    return when(both.sum() > 0).then(r)


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
    def __init__(self, branches: list, predicate: Any) -> None:
        self._branches = branches
        self._predicate = predicate

    def then(self, statement: Any) -> "Then":
        """The value of the rows where the condition holds."""
        return Then(self._branches + [(self._predicate, parse_into_expression(statement, str_as_lit=False))])


class Then(Expr):
    """A when/then chain: add a branch with .when(...) or end it with .otherwise(...)."""
    __slots__ = ("_branches",)

    def __init__(self, branches: list) -> None:
        self._branches = branches
        self._pyexpr = self._build(_frazil.lit(None))

    def _build(self, otherwise: Any) -> Any:
        out = otherwise
        for pred, value in reversed(self._branches):
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
    return When([], _combine_predicates(predicates, constraints))


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
        return LazyFrame._from_native(_frazil.PyLazyFrame.concat([lf._ldf for lf in items]))
    if isinstance(items[0], DataFrame):
        _check_vstack(items)
        lazy = [df.lazy() for df in items]
        return LazyFrame._from_native(_frazil.PyLazyFrame.concat([lf._ldf for lf in lazy])).collect()
    raise TypeError(f"cannot concat items of type {type(items[0]).__name__}")


def _check_vstack(frames: list) -> None:
    """Eager concat raises what Polars' eager vstack raises (lazy concat checks in the plan)."""
    from frazil.exceptions import SchemaError, ShapeError

    first = frames[0].schema
    for df in frames[1:]:
        other = df.schema
        if builtins.len(other) != builtins.len(first):
            raise ShapeError(f"unable to append to a DataFrame of width {builtins.len(first)} with a DataFrame of "
                             f"width {builtins.len(other)}")
        for (n1, t1), (n2, t2) in zip(first.items(), other.items()):
            if n1 != n2:
                raise ShapeError(f'unable to vstack, column names don\'t match: "{n1}" and "{n2}"')
            if t1 != t2:
                raise SchemaError(f"type {t2} is incompatible with expected type {t1}")


def select(*exprs: Any, eager: bool = True, **named_exprs: Any) -> Any:
    """Evaluates expressions without a frame (Polars' pl.select): a frame of one row for scalars."""
    from frazil.dataframe import DataFrame

    df = DataFrame().select(*exprs, **named_exprs)
    return df if eager else df.lazy()


def get_index_type() -> Any:
    """The dtype of row indices and counts: UInt32, as in Polars' default build."""
    from frazil.datatypes import UInt32

    return UInt32
