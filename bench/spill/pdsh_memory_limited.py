"""PDS-H under a memory limit: each query run once by frazil under FRAZIL_MEMORY_LIMIT and by
DuckDB under SET memory_limit (both spill to a temporary directory), each engine and query in
a fresh child process: whether it completed, wall and CPU seconds (user + system, from
wait4), peak RSS (VmHWM), and whether frazil's result equals DuckDB's (assert_frame_equal,
check_dtypes=False, the default float tolerance; rows sorted first where the query's order
leaves ties).

Usage: FRAZIL_PDSH_DATA=/tmp/sf10data python -m bench.spill.pdsh_memory_limited --scale 10
       [--limit 1G] [--queries 1-22] [--engines frazil,duckdb] [--threads 2] [--timeout 900]
FRAZIL_BENCH_PYTHON=/other/tree/python runs another build's frazil (before/after).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading

CHILD = """
import os, sys, time
engine, n, scale, limit, threads, tmp, out = sys.argv[1:8]
n, scale, threads = int(n), float(scale), int(threads)
os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp
os.environ["FRAZIL_MAX_THREADS"] = os.environ["POLARS_MAX_THREADS"] = str(threads)
if engine == "frazil":
    os.environ["FRAZIL_MEMORY_LIMIT"] = limit
    from bench.pdsh.engines import prepare
    run = prepare("frazil", n, scale, "parquet", threads)
else:
    from bench.pdsh import tables
    from bench.pdsh.engines import sql_text
    con = tables.duckdb_connect(scale, "parquet", threads)
    con.execute(f"SET memory_limit='{limit}B'")
    con.execute(f"SET temp_directory='{tmp}'")
    text = sql_text(n)
    run = lambda: con.sql(text).pl()
t = time.perf_counter()
try:
    result = run()
    result.write_parquet(out)
    status = "ok"
except MemoryError as exc:
    status = "MemoryError: " + str(exc).replace(chr(10), " ")[:300]
except Exception as exc:
    status = type(exc).__name__ + ": " + str(exc).replace(chr(10), " ")[:300]
wall = time.perf_counter() - t
hwm = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmHWM"))
print("RESULT", wall, hwm, status)
"""


def run_once(engine: str, n: int, scale: float, limit: int, threads: int, out: str, timeout: float) -> dict:
    env = dict(os.environ)
    env.pop("FRAZIL_MEMORY_LIMIT", None)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    # FRAZIL_BENCH_PYTHON: another build's python/ folder (a before/after comparison).
    frazil_python = os.environ.get("FRAZIL_BENCH_PYTHON", os.path.join(root, "python"))
    env["PYTHONPATH"] = os.pathsep.join([root, frazil_python, env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory(prefix="pdsh-spill-") as tmp:
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, engine, str(n), str(scale), str(limit), str(threads), tmp, out],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root)
        timer = threading.Timer(timeout, proc.kill)  # a run past the timeout is reported as killed
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        stdout, stderr = proc.stdout.read(), proc.stderr.read()
    line = next((ln for ln in stdout.splitlines() if ln.startswith("RESULT")), None)
    cpu = usage.ru_utime + usage.ru_stime
    if line is None:
        tail = stderr.strip().splitlines()[-1] if stderr.strip() else ""
        return {"status": f"crashed ({status}): {tail}", "wall": float("nan"), "cpu": cpu, "rss": usage.ru_maxrss * 1024}
    _, wall, hwm, result = line.split(" ", 3)
    return {"status": result, "wall": float(wall), "cpu": cpu, "rss": int(hwm)}


def same_result(a: str, b: str) -> str:
    import polars as pl
    from polars.testing import assert_frame_equal

    x, y = pl.read_parquet(a), pl.read_parquet(b)
    try:
        assert_frame_equal(x, y, check_dtypes=False)
        return "equal"
    except AssertionError:
        try:  # ties of the ORDER BY may come in either order
            assert_frame_equal(x.sort(x.columns), y.sort(y.columns), check_dtypes=False)
            return "equal (sorted)"
        except AssertionError as exc:
            return "DIFFERENT: " + str(exc).splitlines()[0][:120]


def queries(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=10)
    ap.add_argument("--limit", default="1G")
    ap.add_argument("--queries", default="1-22")
    ap.add_argument("--engines", default="frazil,duckdb")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=900, help="seconds per engine and query")
    args = ap.parse_args()
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    limit = int(args.limit[:-1]) * units[args.limit[-1].upper()] if args.limit[-1].upper() in units else int(args.limit)
    engines = args.engines.split(",")
    print(f"PDS-H scale {args.scale:g}, limit {limit >> 20} MiB, {args.threads} threads; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'q':>3} {'engine':7} {'wall s':>7} {'cpu s':>7} {'peak MiB':>9}  status / result")
    with tempfile.TemporaryDirectory(prefix="pdsh-spill-out-") as outdir:
        for n in queries(args.queries):
            outs = {}
            for engine in engines:
                out = os.path.join(outdir, f"{engine}-q{n}.parquet")
                r = run_once(engine, n, args.scale, limit, args.threads, out, args.timeout)
                if r["status"] == "ok":
                    outs[engine] = out
                print(f"{n:>3} {engine:7} {r['wall']:7.1f} {r['cpu']:7.1f} {r['rss'] / 2**20:9.0f}  {r['status']}",
                      flush=True)
            if len(outs) == 2:
                print(f"{n:>3} {'':7} {'':7} {'':7} {'':9}  frazil vs duckdb: {same_result(*outs.values())}", flush=True)


if __name__ == "__main__":
    main()
