"""`make run`: the 22 PDS-H queries in frazil and its peers, validated, timed, tabulated.

Every (engine, query) pair runs in its own process (bench/pdsh/worker.py): one untimed
warm-up run whose result is validated, then REPS timed hot runs whose median is reported.
A failure of any kind (error, wrong answer, crash, timeout) is shown in the table, and
the run goes on.

Usage: python -m bench.pdsh.run [--scale 1] [--engines frazil,polars,duckdb,datafusion]
                                [--reps 3] [--threads 2] [--format parquet|csv]
                                [--queries 1-22] [--timeout 600] [--out bench/results]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.pdsh import datagen, validate
from bench.pdsh.engines import ENGINES
from bench.pdsh.queries import QUERY_NUMBERS

ROOT = datagen.ROOT
MODULE_OF = {"frazil": "frazil", "frazil-sql": "frazil", "frazil-ray": "ray", "polars": "polars", "duckdb": "duckdb",
             "datafusion": "datafusion"}
LABEL = {"frazil": "frazil", "frazil-sql": "frazil (SQL)", "frazil-ray": "frazil (Ray)", "polars": "polars (streaming)",
         "duckdb": "duckdb", "datafusion": "datafusion"}


@dataclass
class Outcome:
    """What one engine did with one query."""

    status: str = "pending"  # ok | WRONG | FAILED | CRASH | TIMEOUT | n/a
    seconds: float | None = None  # median of the timed runs
    rows: int | None = None
    detail: str = ""
    times: list = field(default_factory=list)
    cpu_seconds: float | None = None  # median CPU time (all threads) of the timed runs
    peak_rss_mb: float | None = None  # the worker process's peak resident memory
    result_path: Path | None = None

    @property
    def passed(self) -> bool:
        return self.status == "ok" and self.seconds is not None


def parse_queries(text: str) -> list[int]:
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if "-" in part:
            lo, hi = part.split("-")
            out.extend(range(int(lo.lstrip("qQ")), int(hi.lstrip("qQ")) + 1))
        else:
            out.append(int(part.lstrip("qQ")))
    bad = [q for q in out if q not in QUERY_NUMBERS]
    if bad:
        raise SystemExit(f"unknown queries {bad}: PDS-H has queries 1 to 22")
    return out


def parse_engines(text: str) -> list[str]:
    engines = [e.strip().lower() for e in text.split(",") if e.strip()]
    bad = [e for e in engines if e not in ENGINES]
    if bad:
        raise SystemExit(f"unknown engines {bad}: choose among {', '.join(ENGINES)}")
    return engines


def worker_env(threads: int) -> dict:
    env = dict(os.environ)
    paths = [str(ROOT / "python"), str(ROOT)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["POLARS_MAX_THREADS"] = str(threads)
    env["FRAZIL_MAX_THREADS"] = str(threads)
    return env


def run_one(engine: str, n: int, args: argparse.Namespace, result_path: Path) -> Outcome:
    result_path.parent.mkdir(parents=True, exist_ok=True)
    result_path.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "bench.pdsh.worker", "--engine", engine, "--query", str(n),
           "--scale", str(args.scale), "--format", args.format, "--reps", str(args.reps),
           "--threads", str(args.threads), "--result", str(result_path)]
    env = worker_env(args.threads)
    if engine == "frazil-ray":  # a local Ray cluster, listening on loopback only
        cmd = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', *cmd]
        env.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")
    try:
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return Outcome("TIMEOUT", detail=f"no answer within {args.timeout:g} s")
    report = None
    for line in proc.stdout.splitlines():
        if line.startswith("PDSH_RESULT "):
            report = json.loads(line[len("PDSH_RESULT "):])
    if report is None:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return Outcome("CRASH", detail=f"exit code {proc.returncode}: " + " | ".join(tail))
    if report["status"] != "ok":
        return Outcome("FAILED", rows=report.get("rows"), detail=report.get("error", ""))
    times = report["times"] or [report["first_seconds"]]
    # frazil-ray: the largest Ray worker's peak (the workers run the fragments; the driver
    # plans and concatenates the result)
    peak = max(report["worker_peak_rss_mb"]) if report.get("worker_peak_rss_mb") else report.get("peak_rss_mb")
    cpu = report.get("cpu_times")
    return Outcome("ok", seconds=statistics.median(times), rows=report["rows"], times=times,
                   cpu_seconds=statistics.median(cpu) if cpu else None, peak_rss_mb=peak,
                   result_path=result_path)


def check(outcome: Outcome, n: int, reference) -> None:
    """Turns an `ok` outcome into WRONG when its result differs from the reference."""
    import polars as pl

    if outcome.status != "ok" or reference is None:
        return
    diff = validate.mismatch(pl.read_parquet(outcome.result_path), reference)
    if diff is not None:
        outcome.status = "WRONG"
        outcome.detail = diff


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt_seconds(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if x < 100 else f"{x:.1f}"


def cell(o: Outcome) -> str:
    return fmt_seconds(o.seconds) if o.passed else o.status


def build_table(queries, engines, outcomes) -> tuple[list[str], list[list[str]], dict]:
    """Header, rows and summary numbers of the result table."""
    peers = [e for e in engines if not e.startswith("frazil")]
    with_ratio = "frazil" in engines and bool(peers)
    with_ray = "frazil" in engines and "frazil-ray" in engines  # distributed over single-node
    header = (["query", "rows"] + [LABEL[e] for e in engines] + (["frazil / best peer"] if with_ratio else [])
              + (["Ray / single"] if with_ray else []))
    rows = []
    ratios = {}
    for n in queries:
        row_count = next((outcomes[e, n].rows for e in engines if outcomes[e, n].rows is not None), None)
        row = [f"q{n}", "-" if row_count is None else str(row_count)]
        row += [cell(outcomes[e, n]) for e in engines]
        if with_ratio:
            best = min((outcomes[e, n].seconds for e in peers if outcomes[e, n].passed), default=None)
            f = outcomes["frazil", n]
            if f.passed and best:
                ratios[n] = f.seconds / best
                row.append(f"{ratios[n]:.2f}x")
            else:
                row.append(f.status if not f.passed else "-")
        if with_ray:
            f, r = outcomes["frazil", n], outcomes["frazil-ray", n]
            row.append(f"{r.seconds / f.seconds:.2f}x" if f.passed and r.passed and f.seconds else "-")
        rows.append(row)
    # Geometric means over the queries that every engine answered correctly, so that all
    # columns average the same queries.
    common = [n for n in queries if all(outcomes[e, n].passed for e in engines)]
    summary = {"common": common, "geomean": {}, "ratio": None}
    if common:
        gm_row = [f"geomean ({len(common)} q)", ""]
        for e in engines:
            g = geomean([outcomes[e, n].seconds for n in common])
            summary["geomean"][e] = g
            gm_row.append(fmt_seconds(g))
        if with_ratio:
            g = geomean([ratios[n] for n in common if n in ratios])
            summary["ratio"] = g
            gm_row.append("-" if g is None else f"{g:.2f}x")
        if with_ray:
            g = geomean([outcomes["frazil-ray", n].seconds / outcomes["frazil", n].seconds for n in common])
            gm_row.append("-" if g is None else f"{g:.2f}x")
        rows.append(gm_row)
    return header, rows, summary


def build_resource_table(queries, engines, outcomes, what: str) -> tuple[list[str], list[list[str]]]:
    """Per query and engine: peak memory in MB (`what` = "peak_rss_mb") or median CPU
    seconds ("cpu_seconds"), with frazil's figure over the best peer's."""
    peers = [e for e in engines if not e.startswith("frazil")]
    with_ratio = "frazil" in engines and bool(peers)
    header = ["query"] + [LABEL[e] for e in engines] + (["frazil / best peer"] if with_ratio else [])
    rows, ratios = [], []
    for n in queries:
        vals = {e: getattr(outcomes[e, n], what) if outcomes[e, n].passed else None for e in engines}
        row = [f"q{n}"] + ["-" if vals[e] is None else (f"{vals[e]:.0f}" if what == "peak_rss_mb" else
                                                         f"{vals[e]:.3f}") for e in engines]
        if with_ratio:
            best = min((vals[e] for e in peers if vals[e]), default=None)
            if vals["frazil"] and best:
                ratios.append(vals["frazil"] / best)
                row.append(f"{ratios[-1]:.2f}x")
            else:
                row.append("-")
        rows.append(row)
    if ratios:
        rows.append([f"geomean ({len(ratios)} q)"] + [""] * len(engines) + [f"{geomean(ratios):.2f}x"])
    return header, rows


def render_text(header, rows) -> str:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    def line(r):
        return "  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in enumerate(zip(r, widths)))
    sep = "  ".join("-" * w for w in widths)
    body = [line(r) for r in rows]
    if rows and rows[-1][0].startswith("geomean"):
        body.insert(len(body) - 1, sep)
    return "\n".join([line(header), sep] + body)


def render_markdown(header, rows) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(v) for v in r) + " |" for r in rows]
    return "\n".join(out)


def write_png(path: Path, title: str, queries, engines, outcomes, header, rows) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    colors = {"frazil": "#d62728", "polars": "#1f77b4", "duckdb": "#ff7f0e", "datafusion": "#2ca02c"}
    fig_height = 5 + 0.24 * (len(rows) + 1)
    fig, (ax, ax_t) = plt.subplots(2, 1, figsize=(max(11, 0.6 * len(queries) + 4), fig_height),
                                   gridspec_kw={"height_ratios": [5, 0.24 * (len(rows) + 1)]})
    width = 0.8 / max(1, len(engines))
    xs = range(len(queries))
    ymin = None
    for k, e in enumerate(engines):
        secs = [outcomes[e, n].seconds if outcomes[e, n].passed else None for n in queries]
        pos = [x + (k - (len(engines) - 1) / 2) * width for x in xs]
        ax.bar([p for p, s in zip(pos, secs) if s], [s for s in secs if s], width, label=LABEL[e],
               color=colors.get(e))
        found = [s for s in secs if s]
        if found:
            ymin = min(found) if ymin is None else min(ymin, min(found))
        for p, n in zip(pos, queries):
            if not outcomes[e, n].passed:
                ax.annotate(outcomes[e, n].status, (p, 0), xycoords=("data", "axes fraction"), xytext=(0, 3),
                            textcoords="offset points", rotation=90, ha="center", va="bottom", fontsize=7,
                            color="red")
    ax.set_yscale("log")
    plain = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.set_xticks(list(xs), [f"q{n}" for n in queries])
    ax.set_ylabel("seconds (median, log scale)")
    ax.set_title(title)
    ax.legend(loc="upper left", ncols=len(engines), fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    ax_t.axis("off")
    table = ax_t.table(cellText=rows, colLabels=header, loc="center", cellLoc="right")
    table.auto_set_font_size(False)
    table.set_fontsize(7)
    for (r, _c), cell_ in table.get_celld().items():
        text = cell_.get_text().get_text()
        if r > 0 and text in ("WRONG", "FAILED", "CRASH", "TIMEOUT"):
            cell_.get_text().set_color("red")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


class Progress:
    """One line per finished (engine, query); on a terminal, also a live 'running' line."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.tty = sys.stdout.isatty()
        self.t0 = time.perf_counter()

    def start(self, engine: str, n: int) -> None:
        if self.tty:
            sys.stdout.write(f"\r\033[K[{self.done + 1:>3}/{self.total}] q{n:<3} {engine:<11} running ...")
            sys.stdout.flush()

    def finish(self, engine: str, n: int, o: Outcome) -> None:
        self.done += 1
        what = f"{fmt_seconds(o.seconds):>8} s" if o.passed else f"{o.status:>10}"
        note = "" if o.passed else f"  {o.detail[:110]}"
        prefix = "\r\033[K" if self.tty else ""
        elapsed = time.perf_counter() - self.t0
        print(f"{prefix}[{self.done:>3}/{self.total}] q{n:<3} {engine:<11}{what}{note}   ({elapsed:.0f} s)",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--format", choices=datagen.FORMATS, default="parquet")
    ap.add_argument("--queries", default="1-22")
    ap.add_argument("--timeout", type=float, default=600, help="seconds allowed per engine and query")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = ap.parse_args(argv)
    if args.reps < 1:
        raise SystemExit("--reps must be at least 1")
    queries = parse_queries(args.queries)
    engines = parse_engines(args.engines)
    tag = f"sf{datagen.scale_name(args.scale)}_{args.format}"

    datagen.generate(args.scale, args.format)

    outcomes: dict = {}
    missing = [e for e in engines if importlib.util.find_spec(MODULE_OF[e]) is None]
    for e in missing:
        for n in queries:
            outcomes[e, n] = Outcome("n/a", detail=f"{e} is not installed (make setup-bench)")
    answers = validate.answers_dir() if datagen.scale_name(args.scale) == "1" else None
    reference_note = (f"answers in {answers}" if answers else
                      "no reference answers at this scale: results are checked against polars/duckdb")
    print(f"PDS-H scale {datagen.scale_name(args.scale)}, {args.format}, {args.threads} threads, "
          f"median of {args.reps} hot runs after one warm-up; engines: {', '.join(engines)}; {reference_note}",
          flush=True)

    progress = Progress(len(queries) * (len(engines) - len(missing)))
    for n in queries:
        for e in engines:
            if e in missing:
                continue
            progress.start(e, n)
            outcomes[e, n] = run_one(e, n, args, args.out / tag / e / f"q{n}.parquet")
            if answers is not None:
                check(outcomes[e, n], n, validate.answer(n))
            progress.finish(e, n, outcomes[e, n])
        if answers is None:
            # Without answers, every engine is compared with the first trusted peer that succeeded.
            import polars as pl

            ref_engine = next((e for e in ("polars", "duckdb", "datafusion") if e in engines
                               and outcomes[e, n].status == "ok"), None)
            if ref_engine is not None:
                reference = pl.read_parquet(outcomes[ref_engine, n].result_path)
                for e in engines:
                    if e != ref_engine:
                        check(outcomes[e, n], n, reference)
            elif "frazil-ray" in engines and "frazil" in engines and outcomes["frazil", n].status == "ok":
                # No peer: the distributed result must at least equal single-node frazil's.
                check(outcomes["frazil-ray", n], n, pl.read_parquet(outcomes["frazil", n].result_path))

    header, rows, summary = build_table(queries, engines, outcomes)
    title = (f"PDS-H scale {datagen.scale_name(args.scale)} ({args.format}), {args.threads} threads, "
             f"median of {args.reps} hot runs, seconds")
    print()
    print(title)
    print(render_text(header, rows))
    mem_header, mem_rows = build_resource_table(queries, engines, outcomes, "peak_rss_mb")
    print("\nPeak memory per query, MB (resident set of the engine's process, Python included)")
    print(render_text(mem_header, mem_rows))
    cpu_header, cpu_rows = build_resource_table(queries, engines, outcomes, "cpu_seconds")
    print("\nCPU seconds per run (all threads, median)")
    print(render_text(cpu_header, cpu_rows))
    problems = [(e, n, outcomes[e, n]) for n in queries for e in engines if not outcomes[e, n].passed]
    if problems:
        print("\nnot passed:")
        for e, n, o in problems:
            print(f"  q{n} {e}: {o.status}: {o.detail}")
    if summary["ratio"] is not None:
        print(f"\nfrazil / best peer, geometric mean over {len(summary['common'])} queries: {summary['ratio']:.2f}x")
    ok = sum(outcomes["frazil", n].passed for n in queries) if "frazil" in engines else None
    if ok is not None:
        print(f"frazil: {ok}/{len(queries)} queries validated")

    args.out.mkdir(parents=True, exist_ok=True)
    md = args.out / f"pdsh_{tag}.md"
    md.write_text(f"{title}\n\n{render_markdown(header, rows)}\n\nPeak memory, MB\n\n"
                  f"{render_markdown(mem_header, mem_rows)}\n\nCPU seconds per run\n\n"
                  f"{render_markdown(cpu_header, cpu_rows)}\n")
    raw = {f"{e}/q{n}": {"status": o.status, "seconds": o.seconds, "times": o.times, "rows": o.rows,
                         "cpu_seconds": o.cpu_seconds, "peak_rss_mb": o.peak_rss_mb, "detail": o.detail}
           for (e, n), o in outcomes.items()}
    (args.out / f"pdsh_{tag}.json").write_text(json.dumps(raw, indent=1))
    png = args.out / f"pdsh_{tag}.png"
    try:
        write_png(png, title, queries, engines, outcomes, header, rows)
        print(f"\nwrote {png} and {md}")
    except ImportError as exc:
        print(f"\nno chart ({exc}); wrote {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
