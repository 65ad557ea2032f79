"""Expr.cut / Expr.qcut (Series get them through series_dispatch): values binned into
intervals, as Polars 2.1 (Enum output for cut, Categorical for qcut; both deprecated there
in favour of bin_intervals / bin_quantiles, with the same DeprecationWarning).
Kernels: src/frazil/compute/binning/, registry rows: functions/binning.cpp."""
from __future__ import annotations

import warnings
from typing import Any, Sequence


def _labels(labels: Sequence[str] | None) -> dict:
    # Passed only when given: an empty list has no element type to read.
    return {} if not labels else {"labels": [str(x) for x in labels]}


def cut(expr: Any, breaks: Sequence[float], *, labels: Sequence[str] | None = None, left_closed: bool = False,
        include_breaks: bool = False) -> Any:
    warnings.warn("`cut` is deprecated; use `bin_intervals` instead", DeprecationWarning, stacklevel=3)
    breaks = [float(b) for b in breaks]
    return expr._fn("cut", **({"breaks": breaks} if breaks else {}), **_labels(labels), left_closed=left_closed,
                    include_breaks=include_breaks)


def qcut(expr: Any, quantiles: Sequence[float] | int, *, labels: Sequence[str] | None = None,
         left_closed: bool = False, allow_duplicates: bool = False, include_breaks: bool = False) -> Any:
    warnings.warn("`qcut` is deprecated; use `bin_quantiles` or `bin_ranks` instead", DeprecationWarning,
                  stacklevel=3)
    if isinstance(quantiles, int) and not isinstance(quantiles, bool):
        if quantiles < 1:
            from frazil.exceptions import ComputeError

            raise ComputeError(f"qcut needs at least one bin, got {quantiles}")
        qs = [i / quantiles for i in range(1, quantiles)]
    else:
        qs = [float(q) for q in quantiles]
    return expr._fn("qcut", **({"quantiles": qs} if qs else {}), **_labels(labels), left_closed=left_closed,
                    allow_duplicates=allow_duplicates, include_breaks=include_breaks)


def _interval_options(labels: Any, include_intervals: bool, right_closed: bool) -> dict:
    out: dict = {"include_intervals": include_intervals, "right_closed": right_closed}
    if labels is not False and labels is not None:
        out.update(_labels(labels))
    return out


def bin_intervals(expr: Any, intervals: Any, *, labels: Any, include_intervals: bool = False,
                  right_closed: bool = False) -> Any:
    """Polars 2.1's bin_intervals: explicit strictly ascending breakpoints (any orderable
    dtype, cast to the values'), or a number of equal-width bins over [min, max]."""
    from frazil.expr import parse_into_expression

    options = _interval_options(labels, include_intervals, right_closed)
    if isinstance(intervals, int) and not isinstance(intervals, bool):
        return expr._fn("bin_intervals_uniform", n=intervals, **options)
    from frazil.series import Series

    breaks = intervals if isinstance(intervals, Series) else Series("breaks", list(intervals))
    from frazil.expr import wrap

    return wrap(expr._pyexpr.function("bin_intervals", [parse_into_expression(breaks)], **options))


def bin_quantiles(expr: Any, quantiles: Any, *, labels: Any, include_intervals: bool = False,
                  right_closed: bool = False) -> Any:
    """Polars 2.1's bin_quantiles: bins between the values' quantiles (a list of
    probabilities, or a number of equal-probability bins)."""
    if isinstance(quantiles, int) and not isinstance(quantiles, bool):
        if quantiles < 1:
            from frazil.exceptions import ComputeError

            raise ComputeError(f"bin_quantiles needs at least one bin, got {quantiles}")
        qs = [i / quantiles for i in range(1, quantiles)]
    else:
        qs = [float(q) for q in quantiles]
    return expr._fn("bin_quantiles", **({"quantiles": qs} if qs else {}),
                    **_interval_options(labels, include_intervals, right_closed))


def bin_ranks(expr: Any, ranks: Any, *, labels: Any, include_intervals: bool = False) -> Any:
    """Polars 2.1's bin_ranks: bins by position in sorted order (fractions of the rows, or a
    number of near-equal bins); equal values may fall in adjacent bins."""
    options = _interval_options(labels, include_intervals, False)
    del options["right_closed"]
    if isinstance(ranks, int) and not isinstance(ranks, bool):
        return expr._fn("bin_ranks", n=ranks, **options)
    rs = [float(r) for r in ranks]
    return expr._fn("bin_ranks", **({"ranks": rs} if rs else {}), **options)
