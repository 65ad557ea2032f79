"""The H2O db-benchmark (https://h2oai.github.io/db-benchmark/, now duckdblabs/db-benchmark)
group-by q1-q10 and join q1-q5 in frazil, Polars and DuckDB, in one run.

Data: generated in-process with numpy as the db-benchmark generators define it
(bench/h2o/datagen.py), cached as Parquet under data/h2o/. Each engine runs in its own
process (bench/h2o/worker.py) with 2 threads (FRAZIL_MAX_THREADS / POLARS_MAX_THREADS,
DuckDB `SET threads`), loads the tables into memory, and times each question as the median
of `--reps` hot runs after one warm-up run. frazil's and DuckDB's answers are checked
against Polars' (row count and per-column sums, order-insensitive). A question frazil
cannot run is reported as n/a with its error; a crash or a timeout is reported too and the
remaining questions run in a fresh process.

Prints one table per data set (question, seconds per engine, frazil / best peer) with
geometric means, and writes them to bench/results/h2o_<dataset>.md and h2o_1e7.md.

Usage: python -m bench.h2o.run [--rows 10000000] [--k 1e2,1e5,1e7] [--tasks groupby,join]
                               [--engines frazil,polars,duckdb] [--reps 3] [--timeout 300]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.h2o import datagen
from bench.h2o.queries import TASKS

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
ENGINES = ("frazil", "polars", "duckdb")
REFERENCE = "polars"
REL_TOL = 1e-6


def _reader(stream, out: queue.Queue) -> None:
    for line in stream:
        out.put(line)
    out.put(None)


def run_engine(engine: str, task: str, tables: dict[str, str], args) -> dict[int, dict]:
    """Every question of `task` in `engine`, one worker process at a time: a question that
    crashes or times out is recorded, and the rest continue in a new process."""
    todo = [q.n for q in TASKS[task]]
    results: dict[int, dict] = {}
    env = dict(os.environ, POLARS_MAX_THREADS=str(args.threads), FRAZIL_MAX_THREADS=str(args.threads))
    while todo:
        cmd = [sys.executable, "-m", "bench.h2o.worker", "--engine", engine, "--task", task,
               "--tables", json.dumps(tables), "--questions", ",".join(map(str, todo)),
               "--reps", str(args.reps), "--threads", str(args.threads)]
        with tempfile.TemporaryFile(mode="w+") as err:
            proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err, text=True)
            lines: queue.Queue = queue.Queue()
            threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
            current, deadline = None, time.monotonic() + args.load_timeout
            failure = None
            while True:
                try:
                    line = lines.get(timeout=max(deadline - time.monotonic(), 0.01))
                except queue.Empty:
                    proc.kill()
                    failure = f"timeout after {args.timeout if current else args.load_timeout:.0f}s"
                    break
                if line is None:
                    code = proc.wait()
                    if todo:
                        err.seek(0)
                        tail = err.read().strip().splitlines()[-3:]
                        failure = f"worker exited with code {code}: {' | '.join(tail)}"
                    break
                tag, _, payload = line.strip().partition(" ")
                if tag == "H2O_LOADED":
                    print(f"  {engine}: loaded in {json.loads(payload)['seconds']:.1f}s", flush=True)
                elif tag == "H2O_START":
                    current, deadline = int(payload), time.monotonic() + args.timeout
                elif tag == "H2O_RESULT":
                    r = json.loads(payload)
                    results[r["question"]] = r
                    todo.remove(r["question"])
                    current, deadline = None, time.monotonic() + args.timeout
                    shown = f"{r['seconds']:.3f}s" if r["status"] == "ok" else f"n/a ({r['error']})"
                    print(f"  {engine} q{r['question']}: {shown}", flush=True)
            proc.wait()
        if failure is not None:
            # Blame the question that was running; if none was (loading failed), all are lost.
            lost = [current] if current is not None else list(todo)
            for n in lost:
                results[n] = {"question": n, "status": "error", "error": failure}
                todo.remove(n)
                print(f"  {engine} q{n}: n/a ({failure})", flush=True)
    return results


def compare(check: dict, ref: dict) -> str | None:
    """None when `check` agrees with the reference answer's, else what differs."""
    if check["rows"] != ref["rows"]:
        return f"rows {check['rows']} != {ref['rows']}"
    for name, want in ref["sums"].items():
        got = check["sums"].get(name)
        if got is None:
            return f"column {name} missing"
        if not math.isclose(got, want, rel_tol=REL_TOL, abs_tol=1e-9):
            return f"sum({name}) {got!r} != {want!r}"
    return None


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def report(dataset: str, task: str, res: dict[str, dict[int, dict]], engines: list[str]) -> str:
    """The markdown table of one data set, with validation notes and geometric means."""
    head = "| q | question | " + " | ".join(f"{e} s" for e in engines) + " | frazil / best peer | check |"
    lines = [f"### {dataset} ({task})", "", head, "|" + "---|" * (len(engines) + 4)]
    notes: list[str] = []
    ratios: list[float] = []
    all_ok: dict[str, list[float]] = {e: [] for e in engines}
    for q in TASKS[task]:
        row = {e: res[e].get(q.n, {"status": "error", "error": "not run"}) for e in engines}
        cells = []
        for e in engines:
            r = row[e]
            if r["status"] == "ok":
                cells.append(f"{r['seconds']:.3f}")
            else:
                notes.append(f"- q{q.n} {e}: {r['error']}")
                cells.append(f"n/a [{len(notes)}]")
        peers = [row[e]["seconds"] for e in engines if e != "frazil" and row[e]["status"] == "ok"]
        ratio = ""
        if "frazil" in row and row["frazil"]["status"] == "ok" and peers:
            r = row["frazil"]["seconds"] / min(peers)
            ratios.append(r)
            ratio = f"{r:.2f}"
        if all(row[e]["status"] == "ok" for e in engines):
            for e in engines:
                all_ok[e].append(row[e]["seconds"])
        check = ""
        ref = row.get(REFERENCE)
        if ref is not None and ref["status"] == "ok":
            bad = [f"{e}: {d}" for e in engines if e != REFERENCE and row[e]["status"] == "ok"
                   for d in [compare(row[e]["check"], ref["check"])] if d]
            checked = [e for e in engines if e != REFERENCE and row[e]["status"] == "ok"]
            check = ("MISMATCH " + "; ".join(bad)) if bad else ("ok" if checked else "")
        lines.append(f"| q{q.n} | {q.name} | " + " | ".join(cells) + f" | {ratio} | {check} |")
    n_all = len(all_ok[engines[0]])
    lines.append("| | geomean over the questions all engines ran (" + str(n_all) + ") | "
                 + " | ".join(f"{geomean(all_ok[e]):.3f}" for e in engines)
                 + f" | {geomean(ratios):.2f} (over {len(ratios)} frazil ran) | |")
    return "\n".join(lines + ([""] + notes if notes else [])) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--k", default="1e2,1e5,1e7", help="group-by key cardinalities K")
    ap.add_argument("--tasks", default="groupby,join")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per question (warm-up + reps)")
    ap.add_argument("--load-timeout", type=float, default=600)
    args = ap.parse_args(argv)
    n = int(args.rows)
    engines = args.engines.split(",")

    datasets: list[tuple[str, str, dict[str, str]]] = []
    for task in args.tasks.split(","):
        if task == "groupby":
            for k in args.k.split(","):
                datasets.append((datagen.groupby_name(n, int(float(k))), task,
                                 {"x": str(datagen.ensure_groupby(n, int(float(k))))}))
        elif task == "join":
            datasets.append((datagen.join_names(n)["x"], task,
                             {role: str(p) for role, p in datagen.ensure_join(n).items()}))
        else:
            raise SystemExit(f"unknown task {task!r}: expected groupby or join")

    RESULTS.mkdir(parents=True, exist_ok=True)
    header = (f"H2O db-benchmark, {n:,} rows, {args.threads} threads, median of {args.reps} hot runs "
              f"after a warm-up; frazil vs polars {_version('polars')} and duckdb {_version('duckdb')}; "
              f"{time.strftime('%Y-%m-%d %H:%M')}\n")
    sections = [header]
    for dataset, task, tables in datasets:
        print(f"{dataset} ({task})", flush=True)
        res = {e: run_engine(e, task, tables, args) for e in engines}
        text = report(dataset, task, res, engines)
        print(text, flush=True)
        (RESULTS / f"h2o_{dataset}.md").write_text(header + "\n" + text)
        sections.append(text)
    (RESULTS / f"h2o_{datagen.pretty_sci(n)}.md").write_text("\n".join(sections))
    return 0


def _version(mod: str) -> str:
    try:
        return __import__(mod).__version__
    except ImportError:
        return "missing"


if __name__ == "__main__":
    sys.exit(main())
