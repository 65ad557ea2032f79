"""DataFrame operators as Polars defines them.

- `df <op> scalar or Series` (+ - * %): every column and the right side are cast to the
  supertype of all of them first (so `{"a": i64, "b": f64} + 1` is all Float64, and a
  String column makes everything String), then the operation runs column by column.
- `df <op> DataFrame`: columns pair by position, each pair at its own supertype; the shorter
  frame is extended with nulls, and the columns of the wider one without a partner are null.
- `/` and `//`: a Series divides every column as an expression; a scalar becomes a frame of
  it; integer divisors are Float64 for `/`, and `//` floors floats and keeps integer columns
  integer.
- Comparisons with a frame need the same names and shape; with anything else they compare
  every column (`== None` warns, as in Polars, and gives nulls).

A LazyFrame has no operators: comparing one or using it as a truth value raises TypeError,
as in Polars (a lazy frame has no values to compare until collected).
"""
from __future__ import annotations

import operator
import warnings
from collections.abc import Sequence
from typing import Any, Callable

_ARITHMETIC = {"__add__": operator.add, "__sub__": operator.sub, "__mul__": operator.mul, "__mod__": operator.mod}
_COMPARISONS = {"__eq__": operator.eq, "__ne__": operator.ne, "__gt__": operator.gt, "__lt__": operator.lt,
                "__ge__": operator.ge, "__le__": operator.le}


def _broadcast_series(other: Any) -> Any:
    from frazil.series import Series

    if isinstance(other, Series):
        return other
    if isinstance(other, Sequence) and not isinstance(other, str):
        raise TypeError("operation not supported")
    return Series("", [other])


def _with_series(df: Any, other: Any, op: Callable[[Any, Any], Any]) -> Any:
    from frazil.concat_frames import _supertype
    from frazil.functions import col, lit

    other = _broadcast_series(other)
    target = _supertype([other.dtype, *df.dtypes])
    rhs = lit(other.cast(target))
    return df.select([op(col(n).cast(target), rhs).alias(n) for n in df.columns])


def _with_frame(df: Any, other: Any, op: Callable[[Any, Any], Any]) -> Any:
    """Polars' binary_aligned: pairs by position, nulls where a side is shorter or narrower."""
    from frazil.concat_frames import _supertype
    from frazil.dataframe import DataFrame
    from frazil.functions import col, lit

    height = max(df.height, other.height)
    out = []
    for left, right in zip(df.get_columns(), other.get_columns()):
        target = _supertype([left.dtype, right.dtype])
        a, b = left.cast(target), right.cast(target)
        a = a.extend_constant(None, height - len(a)) if len(a) < height else a
        b = b.extend_constant(None, height - len(b)) if len(b) < height else b
        out.append(DataFrame([a.alias("l"), b.alias("r")]).select(op(col("l"), col("r")).alias(left.name)).to_series())
    wider = df if df.width > other.width else other
    for s in wider.get_columns()[len(out):]:
        out.append(DataFrame().select(lit(None).cast(s.dtype).alias(s.name)).to_series().extend_constant(None, height - 1)
                   if height else s.clear())
    return DataFrame(out)


def _arithmetic(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        from frazil.dataframe import DataFrame

        if isinstance(other, DataFrame):
            return _with_frame(self, other, op)
        return _with_series(self, other, op)

    return method


def _divide(floordiv: bool) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        from frazil.dataframe import DataFrame
        from frazil.datatypes import Float64, Null
        from frazil.functions import all as all_columns
        from frazil.functions import col, lit
        from frazil.series import Series

        if self.width == 0:
            return self.clone()
        if isinstance(other, Series):
            return self.select(all_columns() // lit(other) if floordiv else all_columns() / lit(other))
        if not isinstance(other, DataFrame):
            s = _broadcast_series(other)
            s = s.extend_constant(other, self.height - 1) if self.height > 1 else s.slice(0, self.height)
            other = DataFrame([s.alias(f"n{i}") for i in range(self.width)])
        divisor_dtypes = other.dtypes
        other = other.with_columns([s.cast(Float64) for s in other.get_columns() if s.dtype.is_integer()])
        out = _with_frame(self, other, operator.truediv)
        if not floordiv:
            return out
        out = out.with_columns([s.floor() for s in out.get_columns() if s.dtype.is_float()])
        back = [col(name).cast(dtype) for i, (name, dtype) in enumerate(self.schema.items())
                if dtype.is_integer() and i < len(divisor_dtypes)
                and (divisor_dtypes[i].is_integer() or divisor_dtypes[i] == Null)]
        return out.with_columns(back) if back else out

    return method


def _compare(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        from frazil.dataframe import DataFrame
        from frazil.functions import all as all_columns
        from frazil.functions import col

        if isinstance(other, DataFrame):
            if self.columns != other.columns:
                raise ValueError("DataFrame columns do not match")
            if self.shape != other.shape:
                raise ValueError("DataFrame dimensions do not match")
            pairs = DataFrame([*self.get_columns(), *[s.alias(f"{s.name}__FRAZIL_CMP_OTHER") for s in other.get_columns()]])
            return pairs.select([op(col(n), col(f"{n}__FRAZIL_CMP_OTHER")).alias(n) for n in self.columns])
        if other is None:
            warnings.warn("Comparisons with None always result in null. Consider using `.is_null()` or "
                          "`.is_not_null()`.", UserWarning, stacklevel=2)
        return self.select(op(all_columns(), other))

    return method


def _radd(self: Any, other: Any) -> Any:
    from frazil.functions import col, lit

    if isinstance(other, str):
        return self.select([(lit(other) + col(n)).alias(n) for n in self.columns])
    return self + other


def _truth(self: Any) -> bool:
    raise TypeError("the truth value of a DataFrame is ambiguous\n\nHint: to check if a DataFrame contains any "
                    "values, use `is_empty()`.")


def install(frame_cls: type) -> None:
    for name, op in _ARITHMETIC.items():
        setattr(frame_cls, name, _arithmetic(op))
    for name, op in _COMPARISONS.items():
        setattr(frame_cls, name, _compare(op))
    frame_cls.__truediv__ = _divide(floordiv=False)
    frame_cls.__floordiv__ = _divide(floordiv=True)
    frame_cls.__radd__ = _radd
    frame_cls.__rmul__ = lambda self, other: self * other
    frame_cls.__bool__ = _truth
    frame_cls.__hash__ = None  # comparisons give frames, so a frame is not a key (as in Polars)


def _lazy_comparison(symbol: str) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        raise TypeError(f'"{symbol!r}" comparison not supported for LazyFrame objects')

    return method


def _lazy_truth(self: Any) -> bool:
    raise TypeError("the truth value of a LazyFrame is ambiguous\n\nLazyFrames cannot be used in boolean context "
                    "with and/or/not operators.")


def install_lazy(lazy_cls: type) -> None:
    symbols = {"__eq__": "==", "__ne__": "!=", "__gt__": ">", "__lt__": "<", "__ge__": ">=", "__le__": "<="}
    for name, symbol in symbols.items():
        setattr(lazy_cls, name, _lazy_comparison(symbol))
    lazy_cls.__bool__ = _lazy_truth
    lazy_cls.__hash__ = None  # unhashable, as in Polars
