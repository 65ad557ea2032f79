"""Reader benchmark: TPC-H lineitem read whole by frazil, polars, duckdb and pyarrow in one
run, as CSV and as Parquet (zstd and snappy). Prints seconds (median of --reps hot runs),
throughput in GB/s of file bytes, and each engine's time relative to frazil.

Usage: python -m bench.io.bench_readers [--scale 1] [--reps 3] [--threads 2]
The input comes from bench/pdsh/datagen.py (generated once under data/); the CSV and
snappy copies are written next to it once.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from bench.pdsh import datagen


def ensure_inputs(scale: float) -> dict[str, Path]:
    datagen.generate(scale, "parquet")
    src = datagen.table_path(scale, "parquet", "lineitem")
    out_dir = Path(datagen.DATA_DIR).parent / "io" / f"sf{datagen.scale_name(scale)}"
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {
        "csv": out_dir / "lineitem.csv",
        "parquet-zstd": out_dir / "lineitem-zstd.parquet",
        "parquet-snappy": out_dir / "lineitem-snappy.parquet",
    }
    import polars as pl

    df = None
    for kind, path in files.items():
        if path.exists():
            continue
        df = df if df is not None else pl.read_parquet(src)
        if kind == "csv":
            df.write_csv(path)
        else:
            df.write_parquet(path, compression=kind.split("-")[1])
    return files


def readers(threads: int):
    import duckdb
    import polars as pl
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    import frazil as fz

    pa.set_cpu_count(threads)
    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    return {
        "frazil": {"csv": lambda p: fz.read_csv(p, try_parse_dates=True), "parquet": fz.read_parquet},
        "polars": {"csv": lambda p: pl.read_csv(p, try_parse_dates=True), "parquet": pl.read_parquet},
        "duckdb": {
            "csv": lambda p: con.sql(f"SELECT * FROM read_csv_auto('{p}')").to_arrow_table(),
            "parquet": lambda p: con.sql(f"SELECT * FROM read_parquet('{p}')").to_arrow_table(),
        },
        "pyarrow": {"csv": pacsv.read_csv, "parquet": pq.read_table},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    os.environ.setdefault("POLARS_MAX_THREADS", str(args.threads))
    os.environ.setdefault("FRAZIL_MAX_THREADS", str(args.threads))
    files = ensure_inputs(args.scale)
    engines = readers(args.threads)
    print(f"lineitem, scale {args.scale:g}, {args.threads} threads, median of {args.reps} hot runs")
    print(f"{'file':16s} {'MB':>8s} " + " ".join(f"{e:>18s}" for e in engines))
    for kind, path in files.items():
        size = path.stat().st_size
        fmt = "csv" if kind == "csv" else "parquet"
        times = {}
        for name, fns in engines.items():
            fn = fns[fmt]
            fn(str(path))  # warm-up: the file is in the page cache for every engine
            runs = []
            for _ in range(args.reps):
                t = time.perf_counter()
                fn(str(path))
                runs.append(time.perf_counter() - t)
            times[name] = statistics.median(runs)
        base = times["frazil"]
        cells = [f"{t:6.3f}s {size / t / 1e9:4.2f}GB/s x{t / base:4.2f}" for t in times.values()]
        print(f"{kind:16s} {size / 1e6:8.1f} " + " ".join(f"{c:>18s}" for c in cells))
    print("xN = engine seconds / frazil seconds (above 1: frazil is faster)")


if __name__ == "__main__":
    main()
