"""Memory-limited benchmark: a group-by, a join and a sort whose state is several times the memory
limit, run by frazil under FRAZIL_MEMORY_LIMIT and DuckDB under SET memory_limit (both spill
to a temporary directory), with Polars' streaming engine (no limit) beside them for scale.
Each engine and query runs in a fresh child process, so the figures are its own: wall
seconds (median of --reps), CPU seconds (user + system, from wait4) and peak RSS (VmHWM),
and whether it completed. Prints one table and each engine's time relative to frazil.

Usage: python -m bench.spill.bench_memory_limited [--rows 8000000] [--limit 64M] [--reps 3]
       [--threads 2] [--dir /tmp/frazil-bench-spill]
The input (Parquet, row groups of 100k rows) is generated once under --dir.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

QUERIES = {
    # Many groups: the partial states (two-phase) are about as big as the input.
    "group_by_sum": {
        "frazil": "fz.scan_parquet(P).group_by('k').agg(fz.col('v').sum(), fz.col('i').max(), fz.len()).collect()",
        "polars": "pl.scan_parquet(P).group_by('k').agg(pl.col('v').sum(), pl.col('i').max(), pl.len())"
        ".collect(engine='streaming')",
        "duckdb": "con.sql(\"SELECT k, sum(v), max(i), count(*) FROM read_parquet('\" + P + \"') GROUP BY k\").fetchall()",
    },
    # A holistic aggregation: every input row is kept until its group is finished.
    "group_by_median": {
        "frazil": "fz.scan_parquet(P).group_by('g').agg(fz.col('v').median(), fz.col('i').min()).collect()",
        "polars": "pl.scan_parquet(P).group_by('g').agg(pl.col('v').median(), pl.col('i').min())"
        ".collect(engine='streaming')",
        "duckdb": "con.sql(\"SELECT g, median(v), min(i) FROM read_parquet('\" + P + \"') GROUP BY g\").fetchall()",
    },
    # A join whose build side (every row's k and i) is several times the limit: frazil's
    # grace hash join; the output is summed, so its order is not observed.
    "join_sum": {
        "frazil": "fz.scan_parquet(P).join(fz.scan_parquet(P).select('k', 'i'), on='k').select(fz.len(), "
        "fz.col('i_right').sum(), fz.col('v').sum()).collect()",
        "polars": "pl.scan_parquet(P).join(pl.scan_parquet(P).select('k', 'i'), on='k').select(pl.len(), "
        "pl.col('i_right').sum(), pl.col('v').sum()).collect(engine='streaming')",
        "duckdb": "con.sql(\"SELECT count(*), sum(b.i), sum(a.v) FROM read_parquet('\" + P + \"') a JOIN read_parquet('\" + P + "
        "\"') b ON a.k = b.k\").fetchall()",
    },
    # A sort written to a file (the output does not fit in the limit either).
    "sort_to_parquet": {
        "frazil": "fz.scan_parquet(P).sort('v', 'k').sink_parquet(OUT)",
        "polars": "pl.scan_parquet(P).sort('v', 'k').sink_parquet(OUT)",
        "duckdb": "con.sql(\"COPY (SELECT * FROM read_parquet('\" + P + \"') ORDER BY v, k) TO '\" + OUT + \"' (FORMAT parquet)\")",
    },
}

CHILD = """
import os, sys, time
engine, code, P, OUT, limit, threads, tmp = sys.argv[1:8]
os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp
if engine == "frazil":
    import frazil as fz
    fz.Config.set_memory_limit(limit)
elif engine == "polars":
    import polars as pl
else:
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    con.execute(f"SET memory_limit='{limit}B'")
    con.execute(f"SET temp_directory='{tmp}'")
    con.execute("SET preserve_insertion_order=false")
t = time.perf_counter()
try:
    eval(code)
    status = "ok"
except MemoryError as exc:
    status = "MemoryError"
except Exception as exc:
    status = type(exc).__name__ + (": out of memory" if "memory" in str(exc).lower() else "")
wall = time.perf_counter() - t
hwm = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmHWM"))
print("RESULT", wall, hwm, status)
"""


def make_input(path: str, rows: int) -> None:
    if os.path.exists(path):
        return
    import numpy as np
    import polars as pl

    rng = np.random.default_rng(5)
    pl.DataFrame({
        "k": rng.integers(0, rows // 4, rows), "g": rng.integers(0, 1000, rows),
        "v": rng.random(rows), "i": rng.integers(0, 10**9, rows),
    }).write_parquet(path + ".tmp", row_group_size=100_000)
    os.replace(path + ".tmp", path)


def run_once(engine: str, query: str, path: str, limit: int, threads: int) -> dict:
    env = dict(os.environ, FRAZIL_MAX_THREADS=str(threads), POLARS_MAX_THREADS=str(threads))
    env.pop("FRAZIL_MEMORY_LIMIT", None)
    with tempfile.TemporaryDirectory(prefix="spill-bench-") as tmp:
        out = os.path.join(tmp, "out.parquet")
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, engine, QUERIES[query][engine], path, out, str(limit), str(threads), tmp],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        stdout, stderr = proc.stdout.read(), proc.stderr.read()
    line = next((ln for ln in stdout.splitlines() if ln.startswith("RESULT")), None)
    if line is None:
        return {"status": f"crashed ({status}): {stderr.strip().splitlines()[-1] if stderr.strip() else ''}",
                "wall": float("nan"), "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss * 1024}
    _, wall, hwm, result = line.split(" ", 3)
    return {"status": result, "wall": float(wall), "cpu": usage.ru_utime + usage.ru_stime, "rss": int(hwm)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=8_000_000)
    ap.add_argument("--limit", default="64M")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "frazil-bench-spill"))
    ap.add_argument("--queries", default=",".join(QUERIES))
    ap.add_argument("--engines", default="frazil,duckdb,polars")
    args = ap.parse_args()

    limit = _parse(args.limit)
    os.makedirs(args.dir, exist_ok=True)
    path = os.path.join(args.dir, f"input-{args.rows}.parquet")
    make_input(path, args.rows)
    print(f"{args.rows} rows ({os.path.getsize(path) >> 20} MiB Parquet), limit {limit >> 20} MiB, "
          f"{args.threads} threads, {args.reps} runs; load average {os.getloadavg()[0]:.1f}")
    print(f"{'query':18} {'engine':8} {'status':14} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'time/frazil':>11}")
    for query in args.queries.split(","):
        base = None
        for engine in args.engines.split(","):
            runs = [run_once(engine, query, path, limit, args.threads) for _ in range(args.reps)]
            ok = [r for r in runs if r["status"] == "ok"]
            pick = ok or runs
            wall = statistics.median(r["wall"] for r in pick)
            cpu = statistics.median(r["cpu"] for r in pick)
            rss = max(r["rss"] for r in pick)
            if engine == args.engines.split(",")[0]:
                base = wall if ok else None
            ratio = f"{wall / base:.2f}" if base and ok else "-"
            print(f"{query:18} {engine:8} {pick[0]['status'][:14]:14} {wall:8.2f} {cpu:8.2f} {rss / 2**20:9.0f} {ratio:>11}",
                  flush=True)
    print(json.dumps({"rows": args.rows, "limit": limit}))


def _parse(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1].upper()] if text[-1].upper() in units else int(text)


if __name__ == "__main__":
    main()
