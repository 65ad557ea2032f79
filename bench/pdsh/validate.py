"""Checks a query result as polars-benchmark does: `assert_frame_equal(result, answer,
check_dtypes=False)` with the default tolerances, so column names, values and row order all
count and only the integer/float width may differ."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bench.pdsh.datagen import ROOT


def answers_dir() -> Path | None:
    """The folder of the scale-1 answers q1.parquet ... q22.parquet: $PDSH_ANSWERS, else
    shared/pdsh/answers beside the work tree."""
    candidates = []
    if os.environ.get("PDSH_ANSWERS"):
        candidates.append(Path(os.environ["PDSH_ANSWERS"]))
    candidates += [ROOT.parent / "shared" / "pdsh" / "answers", Path("/work/shared/pdsh/answers")]
    for c in candidates:
        if (c / "q1.parquet").exists():
            return c
    return None


def answer(n: int) -> Any:
    import polars as pl

    folder = answers_dir()
    if folder is None:
        raise FileNotFoundError("the PDS-H answers were not found (set PDSH_ANSWERS to their folder)")
    return pl.read_parquet(folder / f"q{n}.parquet")


def mismatch(result: Any, expected: Any) -> str | None:
    """None when `result` equals `expected`, else the first lines of the difference."""
    from polars.testing import assert_frame_equal

    try:
        assert_frame_equal(result, expected, check_dtypes=False)
    except AssertionError as exc:
        lines = [ln for ln in str(exc).splitlines() if ln.strip()]
        return " ".join(lines[:4])[:300]
    return None
