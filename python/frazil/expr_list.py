"""Polars' `Expr.list` namespace: functions of List expressions, one result per list (len,
get, sum, contains, join, ...) or one list per list (slice, sort, unique, set operations).
Indices, bounds, separators and items may be expressions (a Python value is a literal)."""
from __future__ import annotations

from collections.abc import Collection
from typing import Any

from frazil.expr import Expr, parse_into_expression, wrap


def _one_list(values: Any) -> Any:
    """A Python collection or a Series as one List value for every row (Polars implodes it);
    an expression as it is."""
    from frazil.functions import lit

    if isinstance(values, Expr):
        return values
    if type(values).__name__ == "Series":
        return lit(values.to_list())
    if isinstance(values, Collection) and not isinstance(values, (str, bytes)):
        return lit(list(values))
    return values


def _other_list(values: Any) -> Any:
    """The other list of a set operation: a str is a column name, a collection one list."""
    from frazil.functions import col

    return col(values) if isinstance(values, str) else _one_list(values)


def _name_or_value(value: Any) -> Any:
    """A str as a column name (Polars reads indices and lengths so), anything else as is."""
    from frazil.functions import col

    return col(value) if isinstance(value, str) else value


class ExprListNameSpace:
    """Polars' `Expr.list` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def _fn(self, name: str, *extra: Any, **options: Any) -> Expr:
        natives = [parse_into_expression(x) for x in extra]
        return wrap(self._expr._pyexpr.function("list." + name, natives, **options))

    # ---- lengths and elements ----
    def len(self) -> Expr:
        """The number of elements of each list (UInt32)."""
        return self._fn("len")

    def get(self, index: Any, *, null_on_oob: bool = False) -> Expr:
        """Element `index` of each list (negative: from the end); out of bounds is an error
        unless null_on_oob."""
        return self._fn("get", _name_or_value(index), null_on_oob=null_on_oob)

    def first(self) -> Expr:
        """The first element of each list (null for an empty list)."""
        return self.get(0, null_on_oob=True)

    def last(self) -> Expr:
        """The last element of each list (null for an empty list)."""
        return self.get(-1, null_on_oob=True)

    def gather(self, indices: Any, *, null_on_oob: bool = False) -> Expr:
        """The elements at `indices` (a list of integers for every row, or a List expression)."""
        if isinstance(indices, int) and not isinstance(indices, bool):
            from frazil.exceptions import InvalidOperationError

            raise InvalidOperationError("`list.gather` indices must be a list of integers, not a flat dyn int. "
                                        "Use `implode` to wrap the flat value into a list.")
        return self._fn("gather", _one_list(indices), null_on_oob=null_on_oob)

    def gather_every(self, n: Any, offset: Any = 0) -> Expr:
        """Every n-th element of each list, from `offset`."""
        return self._fn("gather_every", _name_or_value(n), _name_or_value(offset))

    def slice(self, offset: Any, length: Any = None) -> Expr:
        """`length` elements (None: to the end) from `offset` (negative: from the end)."""
        for name, value in (("offset", offset), ("length", length)):
            if isinstance(value, (list, tuple, float)) or (isinstance(value, bool)):
                raise TypeError(f"'{name}' must be an integer, string, or expression, got {type(value).__name__}")
        return self._fn("slice", _name_or_value(offset), _name_or_value(length))

    def head(self, n: Any = 5) -> Expr:
        """The first `n` elements of each list."""
        return self._fn("head", _name_or_value(n))

    def tail(self, n: Any = 5) -> Expr:
        """The last `n` elements of each list."""
        return self._fn("tail", _name_or_value(n))

    def shift(self, n: Any = 1) -> Expr:
        """Each list's elements moved by `n` places (the vacated places null)."""
        return self._fn("shift", _name_or_value(n))

    def reverse(self) -> Expr:
        """Each list in reverse order."""
        return self._fn("reverse")

    def drop_nulls(self) -> Expr:
        """Each list without its null elements."""
        return self._fn("drop_nulls")

    def diff(self, n: int = 1, null_behavior: str = "ignore") -> Expr:
        """The difference of each element with the one `n` places before it, per list."""
        return self._fn("diff", n=n, null_behavior=null_behavior)

    def explode(self, *, empty_as_null: bool = False, keep_nulls: bool = True) -> Expr:
        """One row per element."""
        return self._expr.explode(empty_as_null=empty_as_null, keep_nulls=keep_nulls)

    def concat(self, other: Any) -> Expr:
        """Each list followed by the lists (or values) of `other`, row by row."""
        from frazil.functions_list import concat_list

        if isinstance(other, list) and other and not isinstance(other[0], (Expr, str)) \
                and type(other[0]).__name__ != "Series":
            other = [_one_list(other)]
        elif not isinstance(other, list):
            other = [other]
        return concat_list([self._expr, *other])

    # ---- reductions ----
    def sum(self) -> Expr:
        """The sum of each list (0 for an empty list)."""
        return self._fn("sum")

    def mean(self) -> Expr:
        """The mean of each list."""
        return self._fn("mean")

    def min(self) -> Expr:
        """The smallest element of each list."""
        return self._fn("min")

    def max(self) -> Expr:
        """The largest element of each list."""
        return self._fn("max")

    def median(self) -> Expr:
        """The median of each list."""
        return self._fn("median")

    def std(self, ddof: int = 1) -> Expr:
        """The standard deviation of each list."""
        return self._fn("std", ddof=ddof)

    def var(self, ddof: int = 1) -> Expr:
        """The variance of each list."""
        return self._fn("var", ddof=ddof)

    def n_unique(self) -> Expr:
        """The number of distinct elements of each list (null counts as one)."""
        return self._fn("n_unique")

    def any(self, *, ignore_nulls: bool = True) -> Expr:
        """Whether any element of each Boolean list is true."""
        return self._fn("any", ignore_nulls=ignore_nulls)

    def all(self, *, ignore_nulls: bool = True) -> Expr:
        """Whether every element of each Boolean list is true."""
        return self._fn("all", ignore_nulls=ignore_nulls)

    def arg_min(self) -> Expr:
        """The position of the smallest element of each list."""
        return self._fn("arg_min")

    def arg_max(self) -> Expr:
        """The position of the largest element of each list."""
        return self._fn("arg_max")

    # ---- order and search ----
    def sort(self, *, descending: bool = False, nulls_last: bool = False) -> Expr:
        """Each list sorted."""
        return self._fn("sort", descending=descending, nulls_last=nulls_last)

    def unique(self, *, maintain_order: bool = False) -> Expr:
        """Each list's distinct elements (in the order they first appear)."""
        return self._fn("unique", maintain_order=maintain_order)

    def contains(self, item: Any, *, nulls_equal: bool = True) -> Expr:
        """Whether each list holds `item`."""
        return self._fn("contains", item, nulls_equal=nulls_equal)

    def count_matches(self, element: Any) -> Expr:
        """How many elements of each list equal `element`."""
        return self._fn("count_matches", element)

    def join(self, separator: Any, *, ignore_nulls: bool = True) -> Expr:
        """The strings of each list joined with `separator`."""
        return self._fn("join", separator, ignore_nulls=ignore_nulls)

    # ---- set operations ----
    def set_union(self, other: Any) -> Expr:
        """The distinct elements of both lists."""
        return self._fn("set_union", _other_list(other))

    def set_intersection(self, other: Any) -> Expr:
        """The distinct elements in both lists."""
        return self._fn("set_intersection", _other_list(other))

    def set_difference(self, other: Any) -> Expr:
        """The distinct elements of the list that `other` does not hold."""
        return self._fn("set_difference", _other_list(other))

    def set_symmetric_difference(self, other: Any) -> Expr:
        """The distinct elements in exactly one of the two lists."""
        return self._fn("set_symmetric_difference", _other_list(other))

    # ---- expressions over the elements ----
    def eval(self, expr: Expr, *, parallel: bool = False) -> Expr:
        """`expr` run over each list's elements (pl.element() is the element): a list per list."""
        return self._fn("eval", expr)

    def agg(self, expr: Expr) -> Expr:
        """`expr` run over each list's elements: a reduction gives one value per list, any other
        expression a list per list."""
        return self._fn("agg", expr)

    def filter(self, predicate: Expr) -> Expr:
        """Each list's elements where `predicate` (over pl.element()) is true."""
        from frazil.functions import element

        return self.eval(element().filter(predicate))

    # ---- conversions ----
    def to_struct(self, fields: Any = None, *args: Any, **kwargs: Any) -> Expr:
        """A Struct with one field per name in `fields`: field i is element i of each list."""
        if fields is None or callable(fields) or isinstance(fields, str):
            raise TypeError("list.to_struct needs the field names as a sequence of strings")
        return self._fn("to_struct", fields=[str(f) for f in fields])

    def to_array(self, width: int) -> Expr:
        """Each list as an Array of `width` values (an error for a list of another length)."""
        return self._fn("to_array", width=width)

    def item(self, *, allow_empty: bool = False) -> Expr:
        """The single element of each list (an error for any other length)."""
        return self._fn("item", allow_empty=allow_empty)

    def sample(self, n: Any = None, *, fraction: Any = None, with_replacement: bool = False,
               shuffle: bool | None = None, seed: int | None = None) -> Expr:
        """`n` (or `fraction` of each list's length) random elements of each list (shuffle None:
        in no particular order, as True)."""
        shuffle = True if shuffle is None else bool(shuffle)
        if n is not None and fraction is not None:
            raise ValueError("cannot specify both `n` and `fraction`")
        if fraction is not None:
            return self._fn("sample_fraction", _name_or_value(fraction), with_replacement=with_replacement,
                            shuffle=shuffle, seed=seed)
        return self._fn("sample_n", _name_or_value(1 if n is None else n), with_replacement=with_replacement,
                        shuffle=shuffle, seed=seed)

    def __getitem__(self, item: Any) -> Expr:
        """`expr.list[i]` is list.get(i); `expr.list[a:b]` a slice."""
        if isinstance(item, slice):
            start = item.start or 0
            length = None if item.stop is None else item.stop - start
            return self.slice(start, length)
        return self.get(item)
