"""Runs db-benchmark questions in one engine, in its own process: loads the tables into
the engine's memory once, then per question one untimed warm-up run (its answer is
summarised for validation: row count and per-column sums) and `reps` timed runs.

Prints `H2O_LOADED {json}` once the data is in memory, then `H2O_START <n>` before and
`H2O_RESULT {json}` after each question, so that the driver (bench/h2o/run.py) can tell
which question a crash or a timeout happened in.
Usage: python -m bench.h2o.worker --engine frazil --task groupby --tables '{"x": "p.parquet"}'
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
import traceback
from typing import Any, Callable


def summarize(df) -> dict[str, Any]:
    """Order-insensitive fingerprint of a Polars DataFrame: its height and, per column, the
    sum of the values (numbers) or of the byte lengths (strings), and how many are missing
    (null or NaN alike: engines differ on which one a zero-variance corr gives)."""
    import polars as pl

    sums: dict[str, float] = {}
    for name, dtype in df.schema.items():
        s = df.get_column(name)
        if dtype.is_numeric():
            s = s.cast(pl.Float64).fill_nan(None)
            sums[name] = float(s.sum())
        elif dtype == pl.String:
            sums[name] = float(s.str.len_bytes().sum())
        else:
            continue
        sums[f"{name} missing"] = float(s.null_count())
    return {"rows": df.height, "sums": sums}


def load(engine: str, tables: dict[str, str], threads: int):
    """The engine's in-memory tables and a function (question) -> (run, answer): `run` runs
    the question once and returns its result, `answer` turns that into a Polars DataFrame."""
    import pyarrow.parquet as pq

    arrow = {name: pq.read_table(path).combine_chunks() for name, path in tables.items()}
    if engine in ("frazil", "polars"):
        mod = __import__(engine)
        frames = {name: mod.from_arrow(t) for name, t in arrow.items()}
        lazy = {name: f.lazy() for name, f in frames.items()}
        to_polars = (lambda r: r.to_polars()) if engine == "frazil" else (lambda r: r)

        def prepare(q) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
            lf = q.frame(mod, lazy)
            return lf.collect, to_polars

        return frames, prepare
    if engine == "duckdb":
        import duckdb

        con = duckdb.connect()
        con.execute(f"SET threads={threads}")
        con.execute("SET enable_progress_bar=false")
        for name, t in arrow.items():
            con.register(f"{name}_arrow", t)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM {name}_arrow")
            con.unregister(f"{name}_arrow")

        def prepare(q):
            # db-benchmark's way: the answer is materialised as a table inside DuckDB.
            text = f"CREATE OR REPLACE TEMP TABLE ans AS {q.sql}"
            return (lambda: con.execute(text)), (lambda _: con.sql("SELECT * FROM ans").pl())

        return con, prepare
    raise ValueError(f"unknown engine {engine!r}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True, choices=("frazil", "polars", "duckdb"))
    ap.add_argument("--task", required=True, choices=("groupby", "join"))
    ap.add_argument("--tables", required=True, help="JSON object: table name -> Parquet path")
    ap.add_argument("--questions", default="", help="comma-separated question numbers (default all)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)

    # Thread counts must be set before the engines are imported.
    os.environ["POLARS_MAX_THREADS"] = str(args.threads)
    os.environ["FRAZIL_MAX_THREADS"] = str(args.threads)

    from bench.h2o.queries import TASKS

    questions = TASKS[args.task]
    if args.questions:
        wanted = {int(n) for n in args.questions.split(",")}
        questions = [q for q in questions if q.n in wanted]

    def emit(tag: str, payload: Any) -> None:
        sys.stdout.write(f"{tag} {payload if isinstance(payload, (int, str)) else json.dumps(payload)}\n")
        sys.stdout.flush()

    t0 = time.perf_counter()
    _keep, prepare = load(args.engine, json.loads(args.tables), args.threads)
    emit("H2O_LOADED", {"seconds": time.perf_counter() - t0})

    for q in questions:
        emit("H2O_START", q.n)
        out: dict[str, Any] = {"question": q.n}
        stage = "planning"
        try:
            run, answer = prepare(q)
            stage = "warm-up run"
            t = time.perf_counter()
            result = run()
            out["first_seconds"] = time.perf_counter() - t
            out["check"] = summarize(answer(result))
            stage = "timed runs"
            times = []
            for _ in range(args.reps):
                # The previous answer is freed before the clock starts, as db-benchmark does.
                result = None
                t = time.perf_counter()
                result = run()
                times.append(time.perf_counter() - t)
            result = None
            out["times"] = times
            out["seconds"] = statistics.median(times)
            out["status"] = "ok"
        except BaseException as exc:  # noqa: BLE001 - every failure is reported, never hidden
            out["status"] = "error"
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            out["error"] = f"{stage}: {type(exc).__name__}: {first}".strip()
            out["traceback"] = traceback.format_exc()
        out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        emit("H2O_RESULT", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
