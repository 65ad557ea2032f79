"""Runs one query in one engine in its own process (so a crash or a hang is contained):
one untimed warm-up run whose result is saved for validation, then `reps` timed runs.

Prints one line `PDSH_RESULT {json}` with status, wall and CPU times, peak memory and row count.
Usage: python -m bench.pdsh.worker --engine frazil --query 1 --result out.parquet [...]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
import traceback


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--query", type=int, required=True)
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--format", default="parquet")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--result", required=True, help="where to write the result (Parquet)")
    args = ap.parse_args(argv)

    # Thread counts must be set before the engines are imported.
    os.environ["POLARS_MAX_THREADS"] = str(args.threads)
    os.environ["FRAZIL_MAX_THREADS"] = str(args.threads)

    from bench.pdsh.engines import prepare

    out: dict = {"engine": args.engine, "query": args.query}
    stage = "planning"
    try:
        run = prepare(args.engine, args.query, args.scale, args.format, args.threads)
        stage = "warm-up run"
        t0 = time.perf_counter()
        result = run()
        out["first_seconds"] = time.perf_counter() - t0
        out["rows"] = result.height
        result.write_parquet(args.result)
        stage = "timed runs"
        # frazil-ray's work is done in the Ray workers: their CPU time counts too.
        if args.engine == "frazil-ray":
            from bench.pdsh.engines import ray_worker_cpu_seconds as workers_cpu
        else:
            def workers_cpu() -> float:
                return 0.0
        times, cpu = [], []
        for _ in range(args.reps):
            t0, c0 = time.perf_counter(), time.process_time() + workers_cpu()
            run()
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() + workers_cpu() - c0)
        out["times"] = times
        out["cpu_times"] = cpu  # CPU seconds of all threads: robust to a loaded machine
        # Peak resident memory of this process (one engine, one query): Linux reports KiB.
        out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        if args.engine == "frazil-ray":  # the driver's, and each Ray worker's (they do the work)
            from bench.pdsh.engines import ray_worker_peak_rss_mb

            out["worker_peak_rss_mb"] = ray_worker_peak_rss_mb()
        out["status"] = "ok"
    except BaseException as exc:  # noqa: BLE001 - every failure is reported, never hidden
        out["status"] = "error"
        out["error"] = f"{stage}: {type(exc).__name__}: {exc}".strip()
        out["traceback"] = traceback.format_exc()
    sys.stdout.write("PDSH_RESULT " + json.dumps(out) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
