"""Differential checks of one expression in every context it can stand in, against Polars:
a select over the frame, over no rows, over one row, over several chunks (each also with
every optimization off), per group inside group_by().agg() and per partition inside over()."""
from __future__ import annotations

import math
from typing import Callable

import polars as pl

from fuzz.harness import assert_same

NAN = math.nan
INF = math.inf

# Nulls, NaN, -0.0, infinities, repeated values and a group key with groups of 1, 2 and 5 rows.
NUMS = pl.DataFrame(
    {
        "g": ["a", "b", "a", "c", "a", "b", "a", "a"],
        "i": [3, -1, None, 0, 7, 3, -5, 2],
        "j": [1, 2, 2, None, -3, 0, 4, 4],
        "f": [0.5, NAN, -0.0, None, INF, -2.25, 0.0, 1.5],
        "h": [1.0, 2.0, 0.0, 4.0, None, -2.0, NAN, 0.25],
        "i8": [1, -128, 127, None, 0, -1, 5, 2],
        "u16": [1, 2, 3, None, 65535, 0, 7, 8],
        "f32": [1.5, -2.5, None, 0.0, 3.25, NAN, -0.0, 8.0],
        "b": [True, False, None, True, None, False, True, False],
        "s": ["x", "y", None, "x", "", "z", "y", "x"],
        "t": [10, 20, 30, 40, 50, 60, 70, 80],
    },
    schema_overrides={"i8": pl.Int8, "u16": pl.UInt16, "f32": pl.Float32},
)


def ok(result):
    """Polars' result of an assert_same that must not be an error on both sides."""
    assert result is not None, "Polars raised: the check compared two errors"
    return result


def check_select(build: Callable, data: pl.DataFrame = NUMS, *, rel_tol: float = 1e-9, chunks: bool = True,
                 edges: bool = True) -> None:
    """The expression as a select: the whole frame, several chunks, no rows and one row."""
    q = lambda pl_, lf: lf.select(build(pl_))  # noqa: E731
    ok(assert_same(q, data, rel_tol=rel_tol))
    if chunks:
        assert_same(q, data, chunks=3, rel_tol=rel_tol)
    if edges:
        assert_same(q, data.clear(), rel_tol=rel_tol)
        assert_same(q, data.slice(1, 1), rel_tol=rel_tol)


def check_agg(build: Callable, data: pl.DataFrame = NUMS, *, key: str = "g", rel_tol: float = 1e-9) -> None:
    """The expression per group of group_by(key).agg()."""
    ok(assert_same(lambda pl_, lf: lf.group_by(key).agg(build(pl_)).sort(key), data, rel_tol=rel_tol))
    assert_same(lambda pl_, lf: lf.group_by(key).agg(build(pl_)).sort(key), data.clear(), rel_tol=rel_tol)


def check_over(build: Callable, data: pl.DataFrame = NUMS, *, key: str = "g", rel_tol: float = 1e-9) -> None:
    """The expression per partition of over(key), mapped back to the rows."""
    ok(assert_same(lambda pl_, lf: lf.select(build(pl_).over(key)), data, rel_tol=rel_tol))
    assert_same(lambda pl_, lf: lf.select(build(pl_).over(key)), data, chunks=3, rel_tol=rel_tol)
    assert_same(lambda pl_, lf: lf.select(build(pl_).over(key)), data.clear(), rel_tol=rel_tol)


def check_all(build: Callable, data: pl.DataFrame = NUMS, *, rel_tol: float = 1e-9, agg: bool = True,
              over: bool = True) -> None:
    check_select(build, data, rel_tol=rel_tol)
    if agg:
        check_agg(build, data, rel_tol=rel_tol)
    if over:
        check_over(build, data, rel_tol=rel_tol)
