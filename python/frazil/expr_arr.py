"""Polars' `Expr.arr` namespace: functions of Array (fixed-size list) expressions. Each is a
registry row `arr.<name>` (src/frazil/functions/array.cpp); most run the `list` kernel on the
arrays read as lists, and sort, reverse, shift and eval keep the Array dtype."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from frazil.expr import Expr, parse_into_expression, parse_many, wrap
from frazil.expr_list import _name_or_value


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    from frazil.exceptions import InvalidOperationError

    raise InvalidOperationError(f"`arr.{name}(as_array=True)` needs integer bounds (the width of the result is "
                                f"known before the query runs), got {value!r}")


class ExprArrayNameSpace:
    """Polars' `Expr.arr` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def _fn(self, name: str, *extra: Any, **options: Any) -> Expr:
        natives = [parse_into_expression(x) for x in extra]
        return wrap(self._expr._pyexpr.function("arr." + name, natives, **options))

    # ---- lengths and elements ----
    def len(self) -> Expr:
        """The width of each array (null for a null array)."""
        return self._fn("len")

    def get(self, index: Any, *, null_on_oob: bool = False) -> Expr:
        """Value `index` of each array (negative: from the end)."""
        return self._fn("get", _name_or_value(index), null_on_oob=null_on_oob)

    def first(self) -> Expr:
        """The first value of each array."""
        return self.get(0, null_on_oob=True)

    def last(self) -> Expr:
        """The last value of each array."""
        return self.get(-1, null_on_oob=True)

    def head(self, n: Any = 5, *, as_array: bool = False) -> Expr:
        """The first `n` values of each array, as a List (an Array with as_array)."""
        if as_array:
            return self._fn("slice_as_array", mode="head", offset=_as_int("head", n))
        return self._fn("head", _name_or_value(n))

    def tail(self, n: Any = 5, *, as_array: bool = False) -> Expr:
        """The last `n` values of each array, as a List (an Array with as_array)."""
        if as_array:
            return self._fn("slice_as_array", mode="tail", offset=_as_int("tail", n))
        return self._fn("tail", _name_or_value(n))

    def slice(self, offset: Any, length: Any = None, *, as_array: bool = False) -> Expr:
        """`length` values (None: to the end) from `offset`, as a List (an Array with as_array)."""
        if as_array:
            return self._fn("slice_as_array", mode="slice", offset=_as_int("slice", offset),
                            length=None if length is None else _as_int("slice", length))
        return self._fn("slice", _name_or_value(offset), _name_or_value(length))

    def shift(self, n: Any = 1) -> Expr:
        """Each array's values moved by `n` places (the vacated places null)."""
        return self._fn("shift", _name_or_value(n))

    def reverse(self) -> Expr:
        """Each array in reverse order."""
        return self._fn("reverse")

    def explode(self, *, empty_as_null: bool = False, keep_nulls: bool = True) -> Expr:
        """One row per value."""
        return self._fn("explode", empty_as_null=empty_as_null, keep_nulls=keep_nulls)

    # ---- reductions ----
    def sum(self) -> Expr:
        """The sum of each array."""
        return self._fn("sum")

    def mean(self) -> Expr:
        """The mean of each array."""
        return self._fn("mean")

    def min(self) -> Expr:
        """The smallest value of each array."""
        return self._fn("min")

    def max(self) -> Expr:
        """The largest value of each array."""
        return self._fn("max")

    def median(self) -> Expr:
        """The median of each array."""
        return self._fn("median")

    def std(self, ddof: int = 1) -> Expr:
        """The standard deviation of each array."""
        return self._fn("std", ddof=ddof)

    def var(self, ddof: int = 1) -> Expr:
        """The variance of each array."""
        return self._fn("var", ddof=ddof)

    def n_unique(self) -> Expr:
        """The number of distinct values of each array (null counts as one)."""
        return self._fn("n_unique")

    def any(self, *, ignore_nulls: bool = True) -> Expr:
        """Whether any value of each Boolean array is true."""
        return self._fn("any", ignore_nulls=ignore_nulls)

    def all(self, *, ignore_nulls: bool = True) -> Expr:
        """Whether every value of each Boolean array is true."""
        return self._fn("all", ignore_nulls=ignore_nulls)

    def arg_min(self) -> Expr:
        """The position of the smallest value of each array."""
        return self._fn("arg_min")

    def arg_max(self) -> Expr:
        """The position of the largest value of each array."""
        return self._fn("arg_max")

    def dot(self, other: Any) -> Expr:
        """The sum of the products of each array's values with `other`'s, row by row (a column
        name, an Array expression, or one query vector for every row: a list or 1-D ndarray)."""
        from frazil._convert import is_numpy_array

        if isinstance(other, str):
            from frazil.functions import col

            other = col(other)
        elif is_numpy_array(other) or (isinstance(other, Sequence) and not isinstance(other, bytes)):
            if is_numpy_array(other):
                if other.ndim != 1:
                    raise ValueError(f"query vector must be one-dimensional, got shape {other.shape}")
                other = other.tolist()
            from frazil.datatypes import Array
            from frazil.functions import lit
            from frazil.series import Series

            values = list(other)
            other = lit(Series([values]).cast(Array(Series(values).dtype, len(values))))
        return self._fn("dot", other)

    # ---- order and search ----
    def sort(self, *, descending: bool = False, nulls_last: bool = False) -> Expr:
        """Each array sorted (an Array again)."""
        return self._fn("sort", descending=descending, nulls_last=nulls_last)

    def unique(self, *, maintain_order: bool = False) -> Expr:
        """Each array's distinct values, as a List."""
        return self._fn("unique", maintain_order=maintain_order)

    def contains(self, item: Any, *, nulls_equal: bool = True) -> Expr:
        """Whether each array holds `item`."""
        return self._fn("contains", item, nulls_equal=nulls_equal)

    def count_matches(self, element: Any) -> Expr:
        """How many values of each array equal `element`."""
        return self._fn("count_matches", element)

    def join(self, separator: Any, *, ignore_nulls: bool = True) -> Expr:
        """The strings of each array joined with `separator`."""
        return self._fn("join", separator, ignore_nulls=ignore_nulls)

    # ---- expressions over the values ----
    def eval(self, expr: Expr, *, as_list: bool = False) -> Expr:
        """`expr` run over each array's values (pl.element()): an Array of the same width, or a
        List with as_list."""
        return self._fn("eval", expr, as_list=as_list)

    def agg(self, expr: Expr) -> Expr:
        """`expr` run over each array's values: a reduction gives one value per array."""
        return self._fn("agg", expr)

    # ---- conversions ----
    def to_list(self) -> Expr:
        """The arrays as a List column."""
        return self._fn("to_list")

    def to_struct(self, fields: Any = None) -> Expr:
        """A Struct with field i holding value i of each array (field_0, field_1, ... unless
        `fields` names them)."""
        if callable(fields):
            raise TypeError("arr.to_struct with a function of the index is not supported by frazil; pass the names")
        if fields is None:
            return self._fn("to_struct")
        return self._fn("to_struct", fields=[str(f) for f in fields])

    def __getitem__(self, item: Any) -> Expr:
        """`expr.arr[i]` is arr.get(i)."""
        return self.get(item)


def reshape_dimensions(dimensions: Any) -> list[int]:
    """Polars' dimensions argument as a list of ints (an int is one dimension)."""
    if isinstance(dimensions, int) and not isinstance(dimensions, bool):
        return [dimensions]
    if not isinstance(dimensions, (tuple, list)) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in dimensions):
        raise TypeError(f"reshape `dimensions` must be a tuple of integers, got {dimensions!r}")
    return [int(d) for d in dimensions]


def concat_arr(exprs: Any, *more_exprs: Any) -> Expr:
    """Row by row, the arrays (or single values) of the inputs one after the other, in one
    Array (strings are column names); a null in any input gives a null row."""
    natives = parse_many([exprs, *more_exprs], str_as_lit=False)
    if not natives:
        raise ValueError("concat_arr needs at least one expression")
    return wrap(natives[0].function("concat_arr", natives[1:]))
