"""Array Series and NumPy: an n-dimensional ndarray is an Array Series of its trailing
dimensions (as Polars builds it), and an Array Series' to_numpy() is n-dimensional."""
from __future__ import annotations

from typing import Any


def column_from_ndarray(name: str, values: Any, dtype: Any = None) -> Any:
    """A native Array column from an ndarray of two or more dimensions."""
    from frazil._convert import column_from_values
    from frazil.functions import col
    from frazil.series import Series

    flat = Series._from_native(column_from_values(name, values.reshape(-1)))
    out = flat.to_frame().select(col(name).reshape(tuple(int(d) for d in values.shape))).get_column(name)
    if dtype is not None:
        out = out.cast(dtype)
    return out._col


def array_shape(dtype: Any) -> tuple[int, ...]:
    """The full shape of an Array dtype, the leaf dtype."""
    from frazil.datatypes import Array

    shape = []
    while isinstance(dtype, Array):
        shape.append(dtype.size)
        dtype = dtype.inner
    return tuple(shape), dtype


def array_to_numpy(series: Any) -> Any:
    """An (n, *shape) ndarray of an Array Series without nulls; None when it has nulls (the
    caller falls back to an array of objects)."""
    from frazil.functions import col

    if series.null_count() > 0:
        return None
    shape, _ = array_shape(series.dtype)
    leaves = series.to_frame().select(col(series.name).reshape((-1,))).get_column(series.name)
    if leaves.null_count() > 0:
        return None
    return leaves.to_numpy().reshape((len(series), *shape))


def reshape_series(series: Any, dimensions: Any) -> Any:
    """Series.reshape: the expression's, with any one dimension -1 resolved from the number
    of leaf values (an expression can only infer its first)."""
    import math

    from frazil.expr_arr import reshape_dimensions
    from frazil.functions import col

    dims = reshape_dimensions(dimensions)
    inferred = [k for k, d in enumerate(dims) if d < 0]
    if len(inferred) == 1 and inferred[0] > 0:
        shape, _ = array_shape(series.dtype)
        total = len(series) * math.prod(shape)
        known = math.prod(d for d in dims if d >= 0)
        if known > 0 and total % known == 0:
            dims[inferred[0]] = total // known
    return series.to_frame().select(col(series.name).reshape(tuple(dims))).get_column(series.name)
