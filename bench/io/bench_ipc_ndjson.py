"""Arrow IPC and NDJSON benchmark: the first --rows rows of TPC-H lineitem written and read
whole by frazil, polars, duckdb and pyarrow (where each has the format: DuckDB has no Arrow
IPC file reader or writer of its own, pyarrow no NDJSON writer). Prints seconds (median of
--reps hot runs) and each engine's time over the best peer's.

Usage: python -m bench.io.bench_ipc_ndjson [--scale 1] [--rows 2000000] [--reps 3] [--threads 2]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from bench.pdsh import datagen


def _time(fn, reps: int) -> tuple[float, float]:
    """Median wall seconds and median CPU seconds (user + system of the whole process: every
    engine runs in it, with its threads) of `reps` hot runs."""
    fn()  # warm-up (and the first write of a file the reads use)
    walls, cpus = [], []
    for _ in range(reps):
        r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        fn()
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        walls.append(time.perf_counter() - t0)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def cases(src: Path, rows: int, out: Path, threads: int) -> dict:
    import duckdb
    import polars as pl
    import pyarrow as pa
    import pyarrow.feather as feather
    import pyarrow.json as pajson

    import frazil as fz

    pa.set_cpu_count(threads)
    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    polars_df = pl.read_parquet(src, n_rows=rows)
    frazil_df = fz.read_parquet(src, n_rows=rows)
    table = polars_df.to_arrow()
    ipc = {e: out / f"{e}.arrow" for e in ("frazil", "polars", "pyarrow")}
    ndjson = {e: out / f"{e}.jsonl" for e in ("frazil", "polars", "duckdb")}
    con.register("lineitem", table)
    # Each engine reads the file it wrote, so that a read measures its own layout choices.
    return {
        "ipc write": {
            "frazil": lambda: frazil_df.write_ipc(ipc["frazil"]),
            "polars": lambda: polars_df.write_ipc(ipc["polars"]),
            "pyarrow": lambda: feather.write_feather(table, ipc["pyarrow"], compression="uncompressed"),
        },
        "ipc write lz4": {
            "frazil": lambda: frazil_df.write_ipc(ipc["frazil"].with_suffix(".lz4"), compression="lz4"),
            "polars": lambda: polars_df.write_ipc(ipc["polars"].with_suffix(".lz4"), compression="lz4"),
            "pyarrow": lambda: feather.write_feather(table, ipc["pyarrow"].with_suffix(".lz4"), compression="lz4"),
        },
        "ipc read": {
            "frazil": lambda: fz.read_ipc(ipc["frazil"]),
            "polars": lambda: pl.read_ipc(ipc["polars"]),
            "pyarrow": lambda: feather.read_table(ipc["pyarrow"]),
        },
        "ipc read lz4": {
            "frazil": lambda: fz.read_ipc(ipc["frazil"].with_suffix(".lz4")),
            "polars": lambda: pl.read_ipc(ipc["polars"].with_suffix(".lz4")),
            "pyarrow": lambda: feather.read_table(ipc["pyarrow"].with_suffix(".lz4")),
        },
        "ndjson write": {
            "frazil": lambda: frazil_df.write_ndjson(ndjson["frazil"]),
            "polars": lambda: polars_df.write_ndjson(ndjson["polars"]),
            "duckdb": lambda: con.execute(f"COPY lineitem TO '{ndjson['duckdb']}' (FORMAT json)"),
        },
        "ndjson read": {
            "frazil": lambda: fz.read_ndjson(ndjson["frazil"]),
            "polars": lambda: pl.read_ndjson(ndjson["polars"]),
            "duckdb": lambda: con.sql(f"SELECT * FROM read_json_auto('{ndjson['duckdb']}')").to_arrow_table(),
            "pyarrow": lambda: pajson.read_json(ndjson["polars"]),
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    os.environ.setdefault("POLARS_MAX_THREADS", str(args.threads))
    os.environ.setdefault("FRAZIL_MAX_THREADS", str(args.threads))
    datagen.generate(args.scale, "parquet")
    src = datagen.table_path(args.scale, "parquet", "lineitem")
    engines = ["frazil", "polars", "duckdb", "pyarrow"]
    with tempfile.TemporaryDirectory(prefix="frazil-bench-io-") as tmp:
        table = cases(src, args.rows, Path(tmp), args.threads)
        print(f"lineitem, first {args.rows:,} rows (scale {args.scale:g}), {args.threads} threads, "
              f"median of {args.reps} hot runs: wall seconds (CPU seconds); load {os.getloadavg()[0]:.1f}")
        print(f"{'case':14s} " + " ".join(f"{e:>16s}" for e in engines) + "   frazil/best peer: wall  cpu")
        for name, fns in table.items():
            secs = {e: _time(f, args.reps) for e, f in fns.items()}
            peers = [v for e, v in secs.items() if e != "frazil"]
            wall_ratio = secs["frazil"][0] / min(w for w, _ in peers)
            cpu_ratio = secs["frazil"][1] / max(min(c for _, c in peers), 1e-9)
            cells = " ".join(f"{secs[e][0]:8.3f} ({secs[e][1]:5.3f})" if e in secs else f"{'n/a':>16s}"
                             for e in engines)
            print(f"{name:14s} {cells}   {wall_ratio:6.2f} {cpu_ratio:5.2f}", flush=True)


if __name__ == "__main__":
    main()
