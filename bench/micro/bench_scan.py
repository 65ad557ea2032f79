"""Micro-benchmarks of in-memory scans: sum, filter+sum at 1% and 50% selectivity, and
min/max over N-row Int64 and Float64 columns (default 200 million), in frazil, polars and
duckdb, reported in GB/s and as a fraction of this machine's memory bandwidth, measured by
the same program (a numpy reduction over the same bytes).

Usage: python -m bench.micro.bench_scan [--rows 200000000] [--reps 3]
"""
from __future__ import annotations

import argparse
import statistics
import time


def timed(fn, reps: int) -> float:
    fn()
    runs = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000_000)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()

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
    con.register("t", table)
    bandwidth = 8 * n / timed(lambda: ints.sum(), args.reps)  # bytes/s of one pass over a column

    cases = {
        "sum i64": ("i", lambda m, lf: lf.select(m.col("i").sum()), "SELECT sum(i) FROM t"),
        "sum f64": ("f", lambda m, lf: lf.select(m.col("f").sum()), "SELECT sum(f) FROM t"),
        "filter 1% + sum": ("i", lambda m, lf: lf.filter(m.col("i") < 10_000).select(m.col("f").sum()),
                            "SELECT sum(f) FROM t WHERE i < 10000"),
        "filter 50% + sum": ("i", lambda m, lf: lf.filter(m.col("i") < 500_000).select(m.col("f").sum()),
                             "SELECT sum(f) FROM t WHERE i < 500000"),
        "min/max i64": ("i", lambda m, lf: lf.select(m.col("i").min(), m.col("i").max().alias("mx")),
                        "SELECT min(i), max(i) FROM t"),
        "min/max f64": ("f", lambda m, lf: lf.select(m.col("f").min(), m.col("f").max().alias("mx")),
                        "SELECT min(f), max(f) FROM t"),
    }
    print(f"{n:,} rows; memory bandwidth (numpy one-column sum): {bandwidth / 1e9:.1f} GB/s")
    print(f"{'case':18s} {'frazil':>22s} {'polars':>10s} {'duckdb':>10s}")
    for name, (_, q, sql) in cases.items():
        bytes_read = 16 * n if "filter" in name else 8 * n
        tf = timed(lambda: q(fz, fdf.lazy()).collect(), args.reps)
        tp = timed(lambda: q(pl, pdf.lazy()).collect(), args.reps)
        td = timed(lambda: con.execute(sql).fetchall(), args.reps)
        gbs = bytes_read / tf / 1e9
        print(f"{name:18s} {tf:7.3f}s {gbs:5.1f}GB/s {gbs * 1e9 / bandwidth:4.0%} {tp:9.3f}s {td:9.3f}s")


if __name__ == "__main__":
    main()
