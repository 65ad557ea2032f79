"""The fuzz loop: generate cases from a seed, check them, shrink and report failures.

    cd tests/python && python -m fuzz.run --seconds 60            # today's seed
    python -m fuzz.run --seed 20261130 --case 17                   # rerun one case
    python -m fuzz.run --seconds 600 --report out.json --crash-file last_case.py

Each case i of seed S is generated from its own Random(S * 1_000_003 + i), so a reported
(seed, case) pair regenerates the same frames and query. Before each check the case's
reproducer is written to --crash-file, so a crash of the process leaves it behind.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
import time
import traceback

# Keep Polars from competing with frazil for the (few) cores, and its panics short.
os.environ.setdefault("POLARS_MAX_THREADS", "2")
os.environ["RUST_BACKTRACE"] = "0"

from .exprs import GROUPABLE, ExprGen  # noqa: E402
from .frames import DTYPES, FrameGen  # noqa: E402
from .known import match_known  # noqa: E402
from .oracles import FLAGS, Case, Failure, check  # noqa: E402
from .plans import PlanGen, polars_env_with  # noqa: E402
from .shrink import shrink  # noqa: E402


# The share of cases with a wide frame (40-160 columns) and long expression lists.
WIDE_SHARE = 0.05


def default_seed() -> int:
    return int(dt.date.today().strftime("%Y%m%d"))


def generate(seed: int, index: int) -> Case:
    import polars as pl

    from .oracles import build_frames

    rng = random.Random(seed * 1_000_003 + index)
    fg = FrameGen(rng)
    wide = rng.random() < WIDE_SHARE
    frames = {"df0": fg.frame("c", width=rng.randint(40, 160), height=rng.randint(0, 12)) if wide else fg.frame("c")}
    if rng.random() < 0.6:
        keyable = [c for c in frames["df0"].columns if DTYPES[c.dtype][1] in GROUPABLE and c.dtype != "Null"]
        shared = rng.sample(keyable, min(len(keyable), rng.choice([1, 1, 2]))) if keyable else []
        frames["df1"] = fg.frame("d", width=rng.randint(0, 3), height=rng.randint(0, 12),
                                 fixed=[(c.name, c.dtype) for c in shared])
        if not frames["df1"].columns:
            del frames["df1"]
    case = Case(frames, None)  # type: ignore[arg-type]
    env = polars_env_with(build_frames(case, pl))
    gen = PlanGen(rng, frames, env, wide=wide)
    case.plan = gen.plan()
    schema = gen.schema(case.plan)
    if schema and rng.random() < 0.7:
        case.predicate = ExprGen(rng, schema, "row", 3).gen("bool")
    case.flag_off = rng.choice(FLAGS)
    case.all_flags = index % 8 == 0
    case.morsel_size = rng.choice([None, None, None, 1, 2, 3, 5, 16])
    return case


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=None, help="base seed (default: today's date, YYYYMMDD)")
    ap.add_argument("--seconds", type=float, default=60.0, help="time budget for generating and checking")
    ap.add_argument("--max-queries", type=int, default=10**9)
    ap.add_argument("--case", type=int, default=None, help="run only this case index")
    ap.add_argument("--shrink-seconds", type=float, default=20.0)
    ap.add_argument("--report", default=None, help="write a JSON summary here")
    ap.add_argument("--crash-file", default=None, help="write each case's reproducer here before running it")
    ap.add_argument("--show-known", action="store_true", help="print reproducers of known issues too")
    ap.add_argument("--memory-gb", type=float, default=6.0,
                    help="address-space limit of this process, so that a runaway query fails instead of "
                         "exhausting the machine (0: none)")
    args = ap.parse_args(argv)
    if args.memory_gb > 0:
        import resource

        limit = int(args.memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    seed = args.seed if args.seed is not None else default_seed()
    cpu0, wall0 = time.process_time(), time.monotonic()
    deadline = wall0 + args.seconds
    indices = [args.case] if args.case is not None else range(10**9)
    failures: dict = {}
    known: dict = {}
    n = errors_compared = polars_panics = 0
    for i in indices:
        if args.case is None and (time.monotonic() >= deadline or n >= args.max_queries):
            break
        try:
            case = generate(seed, i)
        except Exception:  # noqa: BLE001 - a generator bug: report it, do not hide it
            failures[("generator", traceback.format_exc(limit=2))] = {"seed": seed, "case": i, "oracle": "generator",
                                                                     "signature": "generator",
                                                                     "message": traceback.format_exc()}
            n += 1
            continue
        n += 1
        if args.crash_file:
            with open(args.crash_file, "w") as fh:
                fh.write(f"# fuzz seed {seed} case {i}\n" + case.program())
        try:
            failure = check(case)
        except Exception as exc:  # noqa: BLE001 - an oracle bug or an unexpected exception type
            failure = Failure("harness", f"harness:{type(exc).__name__}", traceback.format_exc())
        if case.notes.get("polars_error", "-") != "-":
            errors_compared += 1
        if "polars_panic" in case.notes:
            polars_panics += 1
        if failure is None and "known" in case.notes:  # tolerated inside an oracle
            known.setdefault(case.notes["known"], []).append({"seed": seed, "case": i})
        if failure is None:
            continue
        k = match_known(case, failure, recheck=lambda c, o=failure.oracle: check(c, o))
        if k is not None:
            known.setdefault(k, []).append({"seed": seed, "case": i})
            if not args.show_known:
                continue
        key = (failure.oracle, failure.signature)
        entry = failures.setdefault(key, {"seed": seed, "case": i, "oracle": failure.oracle,
                                          "signature": failure.signature, "count": 0})
        entry["count"] = entry.get("count", 0) + 1
        if entry["count"] == 1:
            small = shrink(case, failure, seconds=args.shrink_seconds)
            again = check(small, failure.oracle) or failure
            # Shrinking can bring out the known shape of a failure (a column became a literal).
            k = k or match_known(small, again, recheck=lambda c, o=failure.oracle: check(c, o))
            if k is not None and not args.show_known:
                known.setdefault(k, []).append({"seed": seed, "case": i})
                del failures[key]
                continue
            entry["message"] = again.message
            entry["reproducer"] = small.program(failure.oracle)
            entry["known"] = k
    cpu = time.process_time() - cpu0
    wall = time.monotonic() - wall0
    summary = {"seed": seed, "queries": n, "error_cases": errors_compared, "polars_panics": polars_panics,
               "cpu_seconds": round(cpu, 2),
               "wall_seconds": round(wall, 2), "failures": list(failures.values()),
               "known": {k: len(v) for k, v in known.items()}}
    print(f"fuzz: seed {seed}: {n} queries ({errors_compared} expected to fail in Polars, {polars_panics} "
          f"skipped as Polars panicked) in {wall:.1f}s "
          f"wall, {cpu:.1f}s CPU; {len(failures)} distinct failures; known issues hit: "
          f"{summary['known'] or 'none'}")
    for f in failures.values():
        print(f"\n=== {f['oracle']} / {f['signature']} (seed {f['seed']} case {f['case']}, seen {f.get('count', 1)}x)")
        print(f.get("message", "")[:2000])
        if f.get("reproducer"):
            print("--- reproducer ---")
            print(f["reproducer"])
    if args.report:
        with open(args.report, "w") as fh:
            json.dump(summary, fh, indent=1, default=str)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
