"""Run one query through frazil and through Polars on the same data and compare.

A query is a function `query(pl, *lazy_frames) -> LazyFrame` written once against the
Polars API; it is called with `pl` bound to `polars` and then to `frazil`, so the same
text runs in both engines. Frames are built in Polars and handed to frazil through the
Arrow interface, so both see identical values and dtypes.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import polars as pl
import polars.testing as plt

import frazil as fz

ALL_OFF = fz.QueryOptFlags.none()
FLAG_NAMES = fz.QueryOptFlags._NAMES


def to_frames(data: Any, schema: Any = None, chunks: int = 1) -> tuple[pl.DataFrame, fz.DataFrame]:
    """The same frame in Polars and in frazil; `chunks` > 1 splits it into that many chunks."""
    pdf = data if isinstance(data, pl.DataFrame) else pl.DataFrame(data, schema=schema, strict=False)
    if chunks <= 1 or pdf.height < 2:
        return pdf, fz.DataFrame(pdf)
    step = max(1, -(-pdf.height // chunks))
    parts = [fz.DataFrame(pdf.slice(i, step)) for i in range(0, pdf.height, step)]
    return pdf, fz.concat(parts)


def error_kind(exc: BaseException) -> str:
    return type(exc).__name__


def _run(module: Any, query: Callable, frames: Sequence[Any], **collect_kwargs: Any):
    try:
        return query(module, *[f.lazy() for f in frames]).collect(**collect_kwargs), None
    except Exception as exc:  # noqa: BLE001 - every error kind is compared by name
        return None, exc


def assert_frames_match(got: fz.DataFrame, expected: pl.DataFrame, *, check_row_order: bool = True,
                        check_exact: bool = False, rel_tol: float = 1e-9) -> None:
    plt.assert_frame_equal(got.to_polars(), expected, check_row_order=check_row_order, check_dtypes=True,
                           check_exact=check_exact, rel_tol=rel_tol, abs_tol=1e-12)


def assert_same(query: Callable, *datas: Any, check_row_order: bool = True, chunks: int = 1,
                unoptimized: bool = True, eager: Callable | None = None, rel_tol: float = 1e-9) -> Any:
    """Runs `query` in both engines on `datas` (dicts or polars frames) and compares results or
    error kinds; also runs frazil with every optimization off. Returns Polars' result."""
    pairs = [d if isinstance(d, tuple) else to_frames(d, chunks=chunks) for d in datas]
    pframes = [p for p, _ in pairs]
    fframes = [f for _, f in pairs]
    expected, p_exc = _run(pl, query, pframes)
    got, f_exc = _run(fz, query, fframes)
    if p_exc is not None or f_exc is not None:
        assert p_exc is not None, f"frazil raised {error_kind(f_exc)}: {f_exc}\nPolars returned\n{expected}"
        assert f_exc is not None, f"Polars raised {error_kind(p_exc)}: {p_exc}\nfrazil returned\n{got}"
        assert error_kind(f_exc) == error_kind(p_exc), (
            f"error kinds differ: frazil {error_kind(f_exc)}: {f_exc}\nPolars {error_kind(p_exc)}: {p_exc}")
        return None
    assert_frames_match(got, expected, check_row_order=check_row_order, rel_tol=rel_tol)
    if unoptimized:
        plain, exc = _run(fz, query, fframes, optimizations=ALL_OFF)
        assert exc is None, f"frazil without optimizations raised {error_kind(exc)}: {exc}"
        assert_frames_match(plain, expected, check_row_order=check_row_order, rel_tol=rel_tol)
    if eager is not None:
        out = eager(fz, *fframes)
        assert_frames_match(out, expected, check_row_order=check_row_order, rel_tol=rel_tol)
    return expected


def assert_same_error(query: Callable, *datas: Any, kind: str | None = None) -> None:
    """Both engines must fail with the same error kind (and `kind`, when given)."""
    pairs = [to_frames(d) for d in datas]
    _, p_exc = _run(pl, query, [p for p, _ in pairs])
    got, f_exc = _run(fz, query, [f for _, f in pairs])
    assert p_exc is not None, "Polars did not raise"
    if kind is not None:
        assert error_kind(p_exc) == kind, f"Polars raised {error_kind(p_exc)}: {p_exc}"
    assert f_exc is not None, f"frazil did not raise {error_kind(p_exc)}; it returned\n{got}"
    assert error_kind(f_exc) == error_kind(p_exc), (
        f"frazil raised {error_kind(f_exc)}: {f_exc}\nPolars raised {error_kind(p_exc)}: {p_exc}")
