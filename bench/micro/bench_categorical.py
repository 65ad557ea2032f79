"""Micro-benchmark of issue #18: group-by on a Categorical key in frazil and polars, one
process, the same in-memory data (default 10 million rows, 100,000 categories). The key is
cast to Categorical once, outside the timing (both engines keep it as codes); the timed
query is group_by(key).agg(sum, len) and a sort of the result by key, checked against
Polars' answer. The table gives the median of --reps timed runs after one warm-up.

Usage: python -m bench.micro.bench_categorical [--rows 10000000] [--categories 100000] [--reps 3] [--threads 2]
Writes the table to bench/results/micro_categorical.md as well.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"


def timed(fn, reps: int):
    out = fn()
    runs = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--categories", type=int, default=100_000)
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

    n = args.rows
    rng = np.random.default_rng(0)
    names = np.array([f"key{i:06d}" for i in range(args.categories)], dtype=object)
    table = pa.table({"k": pa.array(names[rng.integers(0, args.categories, n)], pa.large_string()),
                      "x": rng.integers(0, 1000, n, dtype=np.int64)})
    frames = {
        "frazil": fz.from_arrow(table).with_columns(fz.col("k").cast(fz.Categorical)),
        "polars": pl.from_arrow(table).with_columns(pl.col("k").cast(pl.Categorical)),
    }
    mods = {"frazil": fz, "polars": pl}
    cases = [
        ("group_by(cat).agg(sum, len)", lambda m, lf: lf.group_by("k").agg(m.col("x").sum(), m.len()).sort("k")),
        ("group_by(cat).agg(n_unique)", lambda m, lf: lf.group_by("k").agg(m.col("x").n_unique()).sort("k")),
    ]
    lines = [f"{n:,} rows, {args.categories:,} categories, {args.threads} threads, median of {args.reps} runs", "",
             "| case | frazil s | polars s | frazil / polars |", "|---|---:|---:|---:|"]
    print(lines[0])
    for name, build in cases:
        times, outs = {}, {}
        for engine in ("frazil", "polars"):
            df = frames[engine]
            times[engine], outs[engine] = timed(lambda: build(mods[engine], df.lazy()).collect(), args.reps)
        plt.assert_frame_equal(outs["frazil"].to_polars(), outs["polars"], check_dtypes=True)
        ratio = times["frazil"] / times["polars"]
        line = f"| {name} | {times['frazil']:.3f} | {times['polars']:.3f} | {ratio:.2f} |"
        print(line)
        lines.append(line)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "micro_categorical.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
