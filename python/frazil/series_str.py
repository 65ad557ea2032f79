"""`Series.str` methods whose eager form differs from the expression, as in Polars.

Polars' `Series.str.to_datetime` (and `strptime` to a zone-less Datetime) with neither a
format nor a time zone looks at the data: offset-aware strings become a UTC Datetime. The
expression form cannot (its dtype is fixed before the data is seen) and raises instead,
telling the user to "perform the operation eagerly on a Series". frazil runs the expression
and, when it raises exactly that, runs it again with `time_zone="UTC"`, which converts
offset-aware strings to UTC: the result Polars' eager inference gives. Likewise
`Series.str.to_decimal()` without a scale reads precision and scale from the data.
"""
from __future__ import annotations

from typing import Any, Callable

from frazil.exceptions import ComputeError

# The start of the engine's error for offset-aware data without a format or a time zone.
_TIME_ZONE_IN_DATA = "`strptime` / `to_datetime` was called with no format and no time zone"


def _with_utc_on_zoned_data(run: Callable[..., Any], kwargs: dict) -> Any:
    try:
        return run(**kwargs)
    except ComputeError as e:
        if not str(e).startswith(_TIME_ZONE_IN_DATA):
            raise
    return run(**{**kwargs, "time_zone": "UTC"})


def to_datetime(apply: Callable[[Callable[[Any], Any]], Any], *args: Any, **kwargs: Any) -> Any:
    def run(**k: Any) -> Any:
        return apply(lambda e: e.str.to_datetime(*args, **k))

    format_given = (args[0] if args else kwargs.get("format")) is not None
    if format_given or kwargs.get("time_zone") is not None:
        return run(**kwargs)
    return _with_utc_on_zoned_data(run, kwargs)


def strptime(apply: Callable[[Callable[[Any], Any]], Any], dtype: Any, *args: Any, **kwargs: Any) -> Any:
    from frazil.datatypes import Datetime

    format_ = args[0] if args else kwargs.pop("format", None)
    zone_less_datetime = dtype is Datetime or (isinstance(dtype, Datetime) and dtype.time_zone is None)
    if format_ is not None or not zone_less_datetime:
        return apply(lambda e: e.str.strptime(dtype, format_, *args[1:], **kwargs))
    unit = getattr(dtype, "time_unit", None) if isinstance(dtype, Datetime) else None
    return to_datetime(apply, None, time_unit=unit, **kwargs)


def _inferred_decimal(texts: list) -> tuple[int, int]:
    """Polars' Series.str.to_decimal inference: the most digits after the point (the scale)
    and, on top of them, the most significant digits before it (leading zeros left out).
    Polars 2.1 stops reading at the first null (a leading null gives precision 0)."""
    before = after = 0
    for text in texts:
        if text is None:
            break
        whole, _, fraction = text.strip().lstrip("+-").partition(".")
        before = max(before, len(whole.lstrip("0")))
        after = max(after, len(fraction))
    return before + after, after


def to_decimal(apply: Callable[[Callable[[Any], Any]], Any], *, inference_length: int = 100,
               scale: int | None = None) -> Any:
    """With no scale, the precision and scale are read from the first `inference_length`
    values, as Polars' eager form does (the expression needs the scale)."""
    from frazil.datatypes import Decimal
    from frazil.exceptions import InvalidOperationError

    if scale is not None:
        return apply(lambda e: e.str.to_decimal(scale=scale))
    precision, scale = _inferred_decimal(apply(lambda e: e.head(inference_length)).to_list())
    if not 1 <= precision <= 38:
        raise InvalidOperationError(f"precision must be between 1 and 38, got {precision}")
    return apply(lambda e: e.str.to_decimal(scale=scale).cast(Decimal(precision, scale), strict=False))


# namespace -> method name -> eager form taking (apply, *args, **kwargs).
EAGER_FORMS: dict[str, dict[str, Callable[..., Any]]] = {
    "str": {"to_datetime": to_datetime, "strptime": strptime, "to_decimal": to_decimal},
}
