"""Row encoding, as Polars' internal `_row_encode` / `_row_decode`: columns become one
order-preserving Binary value per row (memcmp order = the multi-column sort order with the
given `descending` / `nulls_last`), and back. The kernels are C++
(src/frazil/compute/row_encoding/, registry rows in functions/row_encoding.cpp)."""
from __future__ import annotations

from typing import Any, Sequence


def _flags(values: Sequence[bool] | None) -> list[int] | None:
    return None if values is None else [int(bool(v)) for v in values]


def _options(unordered: bool, descending: Sequence[bool] | None, nulls_last: Sequence[bool] | None) -> dict:
    out: dict[str, Any] = {"unordered": bool(unordered)}
    if descending is not None:
        out["descending"] = _flags(descending)
    if nulls_last is not None:
        out["nulls_last"] = _flags(nulls_last)
    return out


def row_encode(
    exprs: Any,
    *,
    unordered: bool = False,
    descending: Sequence[bool] | None = None,
    nulls_last: Sequence[bool] | None = None,
):
    """One Binary key per row of `exprs` (an expression, a name or a list of them)."""
    from frazil.expr import parse_many, wrap

    natives = parse_many([exprs] if not isinstance(exprs, (list, tuple)) else exprs)
    return wrap(natives[0].function("_row_encode", natives[1:], **_options(unordered, descending, nulls_last)))


def expr_row_encode(expr: Any, *, unordered: bool, descending: bool | None, nulls_last: bool | None):
    return row_encode(
        [expr],
        unordered=unordered,
        descending=None if descending is None else [descending],
        nulls_last=None if nulls_last is None else [nulls_last],
    )


def expr_row_decode(
    expr: Any,
    names: Sequence[str],
    dtypes: Sequence[Any],
    *,
    unordered: bool = False,
    descending: Sequence[bool] | None = None,
    nulls_last: Sequence[bool] | None = None,
):
    """The Struct of the columns `names` (of `dtypes`) that `expr`'s keys encode."""
    from frazil.datatypes import Struct
    from frazil.expr import _dtype_arg

    if len(names) != len(dtypes):
        from frazil.exceptions import InvalidOperationError

        raise InvalidOperationError(f"_row_decode got {len(names)} names and {len(dtypes)} dtypes")
    if unordered and (descending is not None or nulls_last is not None):
        raise ValueError("_row_decode: descending and nulls_last do not apply to an unordered encoding")
    dtype = Struct(dict(zip(names, dtypes)))
    return expr._fn("_row_decode", dtype=_dtype_arg(dtype), **_options(unordered, descending, nulls_last))


def series_row_encode(s: Any, *, unordered: bool, descending: bool | None, nulls_last: bool | None):
    from frazil.functions import col

    expr = expr_row_encode(col(s.name), unordered=unordered, descending=descending, nulls_last=nulls_last)
    return s.to_frame().select(expr).to_series()


def series_row_decode(s: Any, names: Sequence[str], dtypes: Sequence[Any], **options: Any):
    from frazil.functions import col

    return s.to_frame().select(expr_row_decode(col(s.name), names, dtypes, **options)).to_series()


def frame_row_encode(
    df: Any,
    *,
    unordered: bool = False,
    descending: Sequence[bool] | None = None,
    nulls_last: Sequence[bool] | None = None,
):
    from frazil.functions import all as all_columns

    if df.width == 0:
        from frazil.exceptions import InvalidOperationError

        raise InvalidOperationError("row encoding needs at least one column")
    expr = row_encode(all_columns(), unordered=unordered, descending=descending, nulls_last=nulls_last)
    return df.select(expr).to_series()
