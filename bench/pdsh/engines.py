"""How each engine runs one PDS-H query: build it once, then collect it as often as asked.

frazil and Polars run the same Python query modules (bench/pdsh/queries); frazil-ray runs
them with collect(engine=RayEngine(...)) on a local Ray cluster of `threads` CPUs, one
single-threaded task per CPU (run.py starts its worker in a loopback-only namespace); frazil-sql
(frazil's SQL front end), DuckDB and DataFusion run the SQL text of bench/pdsh/sql. Every runner returns a Polars DataFrame so
that results can be validated the same way.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from bench.pdsh import tables
from bench.pdsh.queries import load, tables_of

ENGINES = ("frazil", "frazil-sql", "frazil-ray", "polars", "duckdb", "datafusion")
SQL_DIR = Path(__file__).resolve().parent / "sql"


def sql_text(n: int) -> str:
    return (SQL_DIR / f"q{n}.sql").read_text()


def prepare(engine: str, n: int, scale: float, fmt: str, threads: int) -> Callable[[], Any]:
    """A function that runs query n once in `engine` and returns its result as a Polars
    DataFrame. Planning (building the lazy query, registering tables) happens here, once."""
    if engine == "frazil":
        import frazil

        fn = load(n, "frazil")
        lf = fn(**tables.lazy_tables(frazil, tables_of(fn), scale, fmt))
        return lambda: lf.collect().to_polars()
    if engine == "frazil-ray":
        import ray

        import frazil
        from frazil.ray import RayEngine

        # The object store holds the exchanges: 4 GiB (in /dev/shm) is the design's figure for scale 10.
        ray.init(num_cpus=threads, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1",
                 object_store_memory=4 << 30)
        ray_engine = RayEngine(partitions=threads, threads_per_task=1)
        fn = load(n, "frazil")
        lf = fn(**tables.lazy_tables(frazil, tables_of(fn), scale, fmt))
        return lambda: lf.collect(engine=ray_engine).to_polars()
    if engine == "frazil-sql":
        import frazil

        from bench.pdsh import datagen

        ctx = frazil.SQLContext(tables.lazy_tables(frazil, list(datagen.TABLES), scale, fmt))
        lf = ctx.execute(sql_text(n))
        return lambda: lf.collect().to_polars()
    if engine == "polars":
        import polars

        fn = load(n, "polars")
        lf = fn(**tables.lazy_tables(polars, tables_of(fn), scale, fmt))
        return lambda: lf.collect(engine="streaming")
    if engine == "duckdb":
        con = tables.duckdb_connect(scale, fmt, threads)
        text = sql_text(n)
        return lambda: con.sql(text).pl()
    if engine == "datafusion":
        import polars

        ctx = tables.datafusion_context(scale, fmt, threads)
        text = sql_text(n)
        return lambda: polars.from_arrow(ctx.sql(text).to_arrow_table())
    raise ValueError(f"unknown engine {engine!r}: expected one of {ENGINES}")



def _ray_workers() -> list[int]:
    """The Ray worker processes below this one (the local cluster's raylet starts them)."""
    import os

    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    workers, stack = [], list(children.get(os.getpid(), []))
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                title = f.read().split(b"\0")[0].strip()
        except OSError:
            continue
        # Ray names its worker processes "ray::IDLE" or "ray::<task>" (and its agents "ray::...Agent")
        if title.startswith(b"ray::") and not title.endswith(b"Agent"):
            workers.append(pid)
    return workers


def ray_worker_peak_rss_mb() -> list[float]:
    """The peak resident memory (VmHWM) of each Ray worker process, in MB."""
    peaks = []
    for pid in _ray_workers():
        try:
            with open(f"/proc/{pid}/status") as f:
                peaks += [int(line.split()[1]) / 1024 for line in f if line.startswith("VmHWM:")]
        except OSError:
            continue
    return peaks


def ray_worker_cpu_seconds() -> float:
    """CPU seconds (user + system) the Ray worker processes have used so far."""
    import os

    ticks = 0
    for pid in _ray_workers():
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, ValueError, IndexError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")
