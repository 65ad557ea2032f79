"""Python functions inside expressions: Expr.map_batches, Expr.map_elements, Expr.inspect,
pl.map_batches. The function is registered with the engine (functions/udf.hpp) and called
while the query runs, on the evaluated input (a Series per input), with the GIL taken only
around the call. The optimizer treats the call as opaque: no filter or projection is pushed
below it, it is not shared as a common subexpression, and its rows keep their order.

Without return_dtype the result is cast to the input's dtype (the plan's dtype is decided
before the function runs); set return_dtype when the function changes the dtype.
"""
from __future__ import annotations

import atexit
from typing import Any, Callable

_registered = [False]
# The callables by engine id, for plan serialization (plan_serde.py pickles them).
_callables: dict[int, Callable[[list], Any]] = {}


def _register(call: Callable[[list], Any]) -> int:
    from frazil import _frazil

    if not _registered[0]:
        _registered[0] = True
        atexit.register(_callables.clear)
        atexit.register(_frazil.clear_udfs)
    udf_id = _frazil.register_udf(call)
    _callables[udf_id] = call
    return udf_id


def registered_callable(udf_id: int) -> Callable[[list], Any] | None:
    return _callables.get(udf_id)


def register_callable(call: Callable[[list], Any]) -> int:
    """Registers a callable again (a deserialized plan's UDF) and returns its new id."""
    return _register(call)


def _as_series(value: Any, name: str) -> Any:
    from frazil.series import Series

    if isinstance(value, Series):
        return value
    if type(value).__module__.startswith("polars") and type(value).__name__ == "Series":
        return Series(name, value.to_list())
    if isinstance(value, (list, tuple)) or (type(value).__module__ == "numpy" and getattr(value, "ndim", 0) == 1):
        return Series(name, list(value))
    return Series(name, [value])


# The calls are objects, not closures, so that a plan holding them pickles (with the user's
# function, when that pickles).
class _BatchCall:
    def __init__(self, function: Callable[..., Any], several: bool) -> None:
        self.function = function
        self.several = several

    def __call__(self, columns: list) -> Any:
        from frazil.series import Series

        series = [Series._from_native(c) for c in columns]
        out = self.function(series) if self.several else self.function(series[0])
        return _as_series(out, "")._col


class _ElementCall:
    def __init__(self, function: Callable[[Any], Any], skip_nulls: bool, return_dtype: Any) -> None:
        self.function = function
        self.skip_nulls = skip_nulls
        self.return_dtype = return_dtype

    def __call__(self, columns: list) -> Any:
        from frazil.datatypes import List
        from frazil.series import Series

        column = Series._from_native(columns[0])
        values = column.to_list()
        if isinstance(column.dtype, List):
            # A list value reaches the function as a Series (Polars).
            inner = column.dtype.inner
            values = [None if v is None else Series("", v, dtype=inner) for v in values]
        out = [None if (v is None and self.skip_nulls) else self.function(v) for v in values]
        return Series("", out, dtype=self.return_dtype, strict=False)._col


class _FieldNamesCall:
    """name.map_fields: the engine passes the struct's field names as a String column."""

    def __init__(self, function: Callable[[str], str]) -> None:
        self.function = function

    def __call__(self, columns: list) -> Any:
        from frazil.datatypes import String
        from frazil.series import Series

        names = Series._from_native(columns[0]).to_list()
        out = [self.function(n) for n in names]
        for n in out:
            if not isinstance(n, str):
                raise TypeError(f"name.map_fields: the function must return a str, got {type(n).__name__}")
        return Series("", out, dtype=String)._col


def field_names_call(function: Callable[[str], str]) -> int:
    """The engine id of `function` as a field-name mapper (name.map_fields)."""
    return _register(_FieldNamesCall(function))


def _batch_call(function: Callable[..., Any], *, several: bool) -> Callable[[list], Any]:
    return _BatchCall(function, several)


def _element_call(function: Callable[[Any], Any], skip_nulls: bool, return_dtype: Any) -> Callable[[list], Any]:
    return _ElementCall(function, skip_nulls, return_dtype)


def _dtype(return_dtype: Any) -> Any:
    from frazil.expr import _dtype_arg

    return _dtype_arg(return_dtype)


def map_batches(self: Any, function: Callable[[Any], Any], return_dtype: Any = None, *, agg_list: bool = False,
                is_elementwise: bool = False, returns_scalar: bool = False) -> Any:
    """The expression's values (a Series) through a Python function, as the query runs."""
    return self._fn("map_batches", function=_register(_batch_call(function, several=False)),
                    return_dtype=_dtype(return_dtype))


def map_elements(self: Any, function: Callable[[Any], Any], return_dtype: Any = None, *, skip_nulls: bool = True,
                 pass_name: bool = False, strategy: str = "thread_local", returns_scalar: bool = False) -> Any:
    """Each value through a Python function (nulls skipped unless skip_nulls=False): slow, row
    by row in Python, as in Polars."""
    if strategy not in ("thread_local", "threading"):
        raise ValueError(f"strategy {strategy!r} is not supported")
    return self._fn("map_elements", function=_register(_element_call(function, skip_nulls, return_dtype)),
                    return_dtype=_dtype(return_dtype))


def inspect(self: Any, fmt: str = "{}") -> Any:
    """Prints the expression's values (formatted with fmt) when the query computes them."""

    def show(s: Any) -> Any:
        print(fmt.format(s))
        return s

    return map_batches(self, show)


def rolling_map(self: Any, function: Callable[[Any], Any], window_size: int, weights: list | None = None, *,
                min_samples: int | None = None, center: bool = False) -> Any:
    """A Python function over each window of `window_size` values (Series.rolling_map on the
    expression's values, as the query runs)."""
    from frazil.frame_misc import rolling_map as series_rolling_map

    def windows(s: Any) -> Any:
        return series_rolling_map(s, function, window_size, weights, min_samples=min_samples, center=center)

    # Weighted windows compute in a float dtype, as Polars: an integer input becomes Float64
    # (multiplying by a float literal keeps Float16/Float32 and lifts integers to Float64).
    source = self if weights is None else self * 1.0
    return source._fn("map_elements", function=_register(_batch_call(windows, several=False)),
                      return_dtype=_dtype(None))


def map_batches_function(exprs: Any, function: Callable[[list], Any], return_dtype: Any = None, *,
                         is_elementwise: bool = False, returns_scalar: bool = False) -> Any:
    """pl.map_batches: a Python function over the Series of several expressions."""
    from frazil.expr import Expr, parse_into_expression, wrap
    from frazil.functions import col

    items = [exprs] if isinstance(exprs, (str, Expr)) else list(exprs)
    items = [col(e) if isinstance(e, str) else e for e in items]
    root, rest = items[0], items[1:]
    return wrap(root._pyexpr.function("map_batches", [parse_into_expression(e) for e in rest],
                                      function=_register(_batch_call(function, several=True)),
                                      return_dtype=_dtype(return_dtype)))


def lazy_inspect(self: Any, fmt: str = "{}") -> Any:
    """LazyFrame.inspect: prints the frame at this point of the query when the query computes
    it, and passes it on unchanged (a Python function over all its columns that gives back
    the first one)."""
    from frazil.dataframe import DataFrame
    from frazil.expr import parse_into_expression, wrap
    from frazil.functions import col

    names = self.collect_schema().names()
    if not names:
        return self

    def show(columns: list) -> Any:
        from frazil.series import Series

        series = [Series._from_native(c).alias(n) for c, n in zip(columns, names)]
        print(fmt.format(DataFrame(series)))
        return series[0]._col

    first, rest = col(names[0]), [col(n) for n in names[1:]]
    passed = wrap(first._pyexpr.function("map_batches", [parse_into_expression(e) for e in rest],
                                         function=_register(show), return_dtype=_dtype(None)))
    return self.with_columns(passed.alias(names[0]))


def install(expr_cls: type) -> None:
    for name, fn in {"map_batches": map_batches, "map_elements": map_elements, "inspect": inspect,
                     "rolling_map": rolling_map}.items():
        if name not in expr_cls.__dict__:
            setattr(expr_cls, name, fn)
