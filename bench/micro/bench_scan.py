"""Micro-benchmarks of in-memory scans: sum, filter+sum at 1% and 50% selectivity, and
min/max over N-row Int64 and Float64 columns (default 200 million), in frazil, polars and
duckdb, reported in GB/s and as a fraction of this machine's memory bandwidth, measured by
the same program (a numpy sum over the same bytes, on 1 and on `--threads` threads; the
higher is the bandwidth). Every engine's answer is checked against numpy's.

Usage: python -m bench.micro.bench_scan [--rows 200000000] [--reps 3] [--threads 2]
Writes the table to bench/results/micro_scan.md as well.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"


def timed(fn, reps: int) -> float:
    fn()
    runs = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def read_bandwidth(arr, threads: int, reps: int) -> tuple[float, float]:
    """Bytes/s of a numpy sum over `arr` on one thread and split over `threads` threads
    (numpy releases the GIL in reductions, so the parts run in parallel)."""
    one = arr.nbytes / timed(lambda: arr.sum(), reps)
    parts = [arr[i * len(arr) // threads:(i + 1) * len(arr) // threads] for i in range(threads)]
    with ThreadPoolExecutor(threads) as pool:
        many = arr.nbytes / timed(lambda: list(pool.map(lambda p: p.sum(), parts)), reps)
    return one, many


def scalars(x) -> list[float]:
    """The values of a one-row answer (frazil/polars DataFrame or a DuckDB row) as floats."""
    if isinstance(x, (list, tuple)):
        return [float(v) for v in (x[0] if x and isinstance(x[0], tuple) else x)]
    return [float(v) for v in x.row(0)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    # Thread counts must be set before the engines are imported.
    os.environ["POLARS_MAX_THREADS"] = str(args.threads)
    os.environ["FRAZIL_MAX_THREADS"] = str(args.threads)

    import duckdb
    import numpy as np
    import polars as pl
    import pyarrow as pa

    import frazil as fz

    n = args.rows
    rng = np.random.default_rng(0)
    ints = rng.integers(0, 1_000_000, n, dtype=np.int64)
    floats = ints.astype(np.float64) / 1000.0
    table = pa.table({"i": ints, "f": floats})
    fdf = fz.from_arrow(table)
    pdf = pl.from_arrow(table)
    con = duckdb.connect()
    con.execute(f"SET threads={args.threads}")
    con.register("t", table)
    bw_one, bw_many = read_bandwidth(floats, args.threads, args.reps)
    bandwidth = max(bw_one, bw_many)

    lo, hi = ints < 10_000, ints < 500_000
    cases = {
        "sum i64": (lambda m, lf: lf.select(m.col("i").sum()), "SELECT sum(i) FROM t", [ints.sum()]),
        "sum f64": (lambda m, lf: lf.select(m.col("f").sum()), "SELECT sum(f) FROM t", [floats.sum()]),
        "filter 1% + sum": (lambda m, lf: lf.filter(m.col("i") < 10_000).select(m.col("f").sum()),
                            "SELECT sum(f) FROM t WHERE i < 10000", [floats[lo].sum()]),
        "filter 50% + sum": (lambda m, lf: lf.filter(m.col("i") < 500_000).select(m.col("f").sum()),
                             "SELECT sum(f) FROM t WHERE i < 500000", [floats[hi].sum()]),
        "min/max i64": (lambda m, lf: lf.select(m.col("i").min(), m.col("i").max().alias("mx")),
                        "SELECT min(i), max(i) FROM t", [ints.min(), ints.max()]),
        "min/max f64": (lambda m, lf: lf.select(m.col("f").min(), m.col("f").max().alias("mx")),
                        "SELECT min(f), max(f) FROM t", [floats.min(), floats.max()]),
    }
    del lo, hi
    lines = [
        f"{n:,} rows, {args.threads} threads, median of {args.reps} runs after a warm-up; "
        f"memory read bandwidth (numpy sum over one column): {bw_one / 1e9:.1f} GB/s on 1 thread, "
        f"{bw_many / 1e9:.1f} GB/s on {args.threads}; 'of bw' is frazil's GB/s over {bandwidth / 1e9:.1f} GB/s.",
        "",
        "| case | frazil s | frazil GB/s | of bw | polars s | polars GB/s | duckdb s | duckdb GB/s | frazil / best peer | check |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    for name, (q, sql, want) in cases.items():
        bytes_read = 16 * n if "filter" in name else 8 * n
        got = {}
        runners = {
            "frazil": lambda: got.__setitem__("frazil", q(fz, fdf.lazy()).collect()),
            "polars": lambda: got.__setitem__("polars", q(pl, pdf.lazy()).collect()),
            "duckdb": lambda: got.__setitem__("duckdb", con.execute(sql).fetchall()),
        }
        secs = {e: timed(fn, args.reps) for e, fn in runners.items()}
        bad = [e for e, r in got.items()
               if not all(math.isclose(a, float(b), rel_tol=1e-9) for a, b in zip(scalars(r), want))]
        gbs = {e: bytes_read / s / 1e9 for e, s in secs.items()}
        best_peer = min(secs["polars"], secs["duckdb"])
        row = (f"| {name} | {secs['frazil']:.3f} | {gbs['frazil']:.1f} | {gbs['frazil'] * 1e9 / bandwidth:.0%} "
               f"| {secs['polars']:.3f} | {gbs['polars']:.1f} | {secs['duckdb']:.3f} | {gbs['duckdb']:.1f} "
               f"| {secs['frazil'] / best_peer:.2f} | {'WRONG: ' + ', '.join(bad) if bad else 'ok'} |")
        lines.append(row)
        print(row, flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "micro_scan.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
