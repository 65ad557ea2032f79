"""Plan-time benchmark: how long explain() (conversion + optimization + formatting, no
execution) takes on plans that stress the optimizer, frazil beside Polars.

    PYTHONPATH=python .venv/bin/python bench/plan_time/plan_time.py [--reps N] [--only NAME]

Each query is built with the same code for both engines (the module is passed in as `pl`).
The table shows the median of N runs (after one warm-up) for frazil, for frazil with both
common-subexpression eliminations off (their share of the time), and for Polars.

Cases marked as collected (the cliffs of issue #26) time collect() instead: their
superlinear steps were in execution as well as in optimization. The ratio column is
frazil / Polars.

The nested case doubles its expression per level (20 levels: 2^21 nodes unfolded; frazil
converts the shared subexpressions once, 61 arena nodes), so it runs as a ladder of depths;
an engine stops climbing once a depth takes longer than --budget seconds, and heavy depths
are timed once, without a warm-up.
"""
from __future__ import annotations

import argparse
import statistics
import time

import polars

import frazil

CASES = {}
COLLECTED = set()  # cases timed through collect() (their cliff was in execution too)


def case(name, collect=False):
    def register(fn):
        CASES[name] = fn
        if collect:
            COLLECTED.add(name)
        return fn
    return register


def nested(levels):
    def build(pl):
        c = pl.col("c")
        for _ in range(levels):
            c = (c + c) / 2
        return pl.LazyFrame({"c": [1.0, 2.0, 3.0]}).select(c.alias("out"))
    return build


NESTED_LEVELS = (8, 10, 12, 14, 16, 18, 20)


@case("200 chained with_columns")
def with_columns_chain(pl):
    lf = pl.LazyFrame({"c0": [1, 2, 3]})
    for i in range(1, 201):
        lf = lf.with_columns((pl.col(f"c{i - 1}") * 2 + i).alias(f"c{i}"))
    return lf


@case("concat of 5000 single-column selects")
def concat_selects(pl):
    lf = pl.LazyFrame({"a": [1, 2, 3], "b": [4, 5, 6]})
    # 100 distinct arms, each 50 times: common subplan elimination has work to do.
    return pl.concat([lf.select((pl.col("a") * (i % 100)).alias("x")) for i in range(5000)])


@case("2000-column projection")
def wide_projection(pl):
    lf = pl.LazyFrame({f"c{i}": [i, i + 1] for i in range(2000)})
    return lf.select([pl.col(f"c{i}") for i in reversed(range(2000))])


@case("500-deep unshared expression")
def deep_unshared(pl):
    # Every level is its own node (nothing shared): type coercion adapts a literal at each
    # one, so a pass that re-derives dtypes per node is quadratic here.
    e = pl.col("a")
    for i in range(500):
        e = e * 2 + i if i % 2 else e - 1
    return pl.LazyFrame({"a": [1, 2, 3]}).select(e.alias("x"))


@case("20-table join")
def join_20(pl):
    tables = [pl.LazyFrame({"k": [1, 2, 3], f"v{i}": [i, i + 1, i + 2]}) for i in range(20)]
    q = tables[0]
    for t in tables[1:]:
        q = q.join(t, on="k")
    return q


# Cliffs of issue #26: superlinear steps in optimization (chained filters, long AND
# chains) and in execution (100k-column selects); timed with collect().
@case("1000 chained filters", collect=True)
def filter_chain(pl):
    lf = pl.LazyFrame({"a": [1, 2, 3]})
    for i in range(1000):
        lf = lf.filter(pl.col("a") > -i)
    return lf


@case("4000-term AND chain", collect=True)
def and_chain(pl):
    e = pl.col("a") > 0
    for i in range(1, 4000):
        e = e & (pl.col("a") > -i)
    return pl.LazyFrame({"a": [1, 2, 3]}).filter(e)


def wide_frame(pl, width):
    return pl.LazyFrame({f"c{i}": [i, i + 1] for i in range(width)})


@case("select(pl.all()) over 100k columns", collect=True)
def wide_select_all(pl):
    return wide_frame(pl, 100_000).select(pl.all())


@case("select(pl.all().sum()) over 100k columns", collect=True)
def wide_sum_all(pl):
    return wide_frame(pl, 100_000).select(pl.all().sum())


def measure(build, engine, reps, collect=False, **explain_kwargs):
    times = []
    for rep in range(reps + 1 if reps > 1 else 1):
        q = build(engine)  # a fresh LazyFrame: no cached arenas
        start = time.perf_counter()
        if collect:
            q.collect(**explain_kwargs)
        else:
            q.explain(**explain_kwargs)
        if rep or reps <= 1:  # the first run warms up
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def cell(seconds):
    return "skipped" if seconds is None else f"{seconds * 1e3:.1f}ms"


def ratio(ours, theirs):
    return "" if ours is None or not theirs else f"{ours / theirs:.2f}x"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--only", default=None, help="run the cases whose name contains this")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per depth of the nested case")
    args = parser.parse_args()
    no_cse = frazil.QueryOptFlags(comm_subplan_elim=False, comm_subexpr_elim=False)
    print(f"{'case':44} {'frazil':>12} {'frazil no CSE':>14} {'polars':>12} {'ratio':>8}")

    def row(name, build, reps, runners):
        out = [run(build, reps, name in COLLECTED) if run else None for run in runners]
        print(f"{name:44} {cell(out[0]):>12} {cell(out[1]):>14} {cell(out[2]):>12} {ratio(out[0], out[2]):>8}",
              flush=True)
        return out

    runners = [lambda b, r, c: measure(b, frazil, r, c), lambda b, r, c: measure(b, frazil, r, c, optimizations=no_cse),
               lambda b, r, c: measure(b, polars, r, c)]
    if not args.only or args.only in "nested (c + c) / 2":
        live = list(runners)
        previous = [None] * len(runners)
        for levels in NESTED_LEVELS:
            times = row(f"nested (c + c) / 2, {levels} levels", nested(levels), args.reps if levels <= 12 else 1, live)
            # The next depth has four times the nodes; expect at least that growth.
            for i, t in enumerate(times):
                if t is None:
                    continue
                growth = max(4.0, t / previous[i]) if previous[i] else 4.0
                if t * growth > args.budget:
                    live[i] = None
                previous[i] = t
            if not any(live):
                break
    for name, build in CASES.items():
        if args.only and args.only not in name:
            continue
        row(name, build, args.reps, runners)


if __name__ == "__main__":
    main()
