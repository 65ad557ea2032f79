"""Micro-benchmarks of the window functions of issue #16 in frazil and polars, one process,
the same in-memory frame (default 10 million rows, 1,000 groups): rolling_mean, rolling_min
and rolling_median over windows of 100 rows, cum_sum, rank, and over() with 1,000 groups
(a cum_sum and a sum broadcast back). Each answer is checked against Polars' (values within
1e-9 relative); the table gives the median of --reps timed runs after one warm-up, wall and
CPU seconds (of the process, all threads), with the load average at the start.

Usage: python -m bench.micro.bench_window [--rows 10000000] [--groups 1000] [--reps 3] [--threads 2]
Writes the table to bench/results/micro_window.md as well.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"


def timed(fn, reps: int):
    """(median wall seconds, median CPU seconds of this process, all threads; the result).
    CPU seconds are the steadier figure on a loaded machine."""
    out = fn()
    walls, cpus = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return (statistics.median(walls), statistics.median(cpus)), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--groups", type=int, default=1_000)
    ap.add_argument("--window", type=int, default=100)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    os.environ["POLARS_MAX_THREADS"] = str(args.threads)
    os.environ["FRAZIL_MAX_THREADS"] = str(args.threads)

    import numpy as np
    import polars as pl
    import polars.testing as plt
    import pyarrow as pa

    import frazil as fz

    n, w = args.rows, args.window
    rng = np.random.default_rng(0)
    table = pa.table({
        "g": rng.integers(0, args.groups, n, dtype=np.int64),
        "x": rng.standard_normal(n),
        "i": rng.integers(0, 1_000_000, n, dtype=np.int64),
    })
    frames = {"frazil": fz.from_arrow(table), "polars": pl.from_arrow(table)}
    cases = [
        (f"rolling_mean({w})", lambda m: m.col("x").rolling_mean(w)),
        (f"rolling_min({w})", lambda m: m.col("x").rolling_min(w)),
        (f"rolling_median({w})", lambda m: m.col("x").rolling_median(w)),
        ("cum_sum", lambda m: m.col("i").cum_sum()),
        ("rank", lambda m: m.col("x").rank()),
        (f"cum_sum().over(g), {args.groups} groups", lambda m: m.col("i").cum_sum().over("g")),
        (f"sum().over(g), {args.groups} groups", lambda m: m.col("x").sum().over("g")),
        (f"rank().over(g), {args.groups} groups", lambda m: m.col("x").rank().over("g")),
        (f"rolling_mean({w}).over(g)", lambda m: m.col("x").rolling_mean(w).over("g")),
    ]
    mods = {"frazil": fz, "polars": pl}
    load = os.getloadavg()[0]
    lines = [f"{n:,} rows, {args.groups:,} groups, {args.threads} threads, median of {args.reps} runs, "
             f"load average {load:.1f} at the start", "",
             "| case | frazil wall s | polars wall s | wall ratio | frazil CPU s | polars CPU s | CPU ratio |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    print(lines[0])
    for name, build in cases:
        times, outs = {}, {}
        for engine in ("frazil", "polars"):
            df = frames[engine]
            times[engine], outs[engine] = timed(lambda: df.lazy().select(build(mods[engine])).collect(), args.reps)
        plt.assert_frame_equal(outs["frazil"].to_polars(), outs["polars"], check_exact=False, rel_tol=1e-9,
                               abs_tol=1e-9)
        (fw, fc), (pw, pc) = times["frazil"], times["polars"]
        line = f"| {name} | {fw:.3f} | {pw:.3f} | {fw / pw:.2f} | {fc:.3f} | {pc:.3f} | {fc / pc:.2f} |"
        print(line)
        lines.append(line)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "micro_window.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
