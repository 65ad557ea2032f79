"""Wide and long plans (issue 5, plan time): long with_columns chains, deep unshared
expressions, concats of many selects and wide projections must plan in time linear in
their size and give Polars' results and schemas, with optimizations on and off."""
import time

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz
from frazil import _frazil

BOTH_OFF = fz.QueryOptFlags(comm_subplan_elim=False, comm_subexpr_elim=False)


def check(query, data, ordered=True):
    pframe = pl.DataFrame(data)
    q = query(fz, fz.DataFrame(pframe).lazy())
    want_q = query(pl, pframe.lazy())
    want = want_q.collect()
    assert q.collect_schema() == want_q.collect_schema()
    for flags in (None, BOTH_OFF, fz.QueryOptFlags.none()):
        got = (q.collect() if flags is None else q.collect(optimizations=flags)).to_polars()
        assert_frame_equal(got, want, check_row_order=ordered)
    return q


def chain(m, lf, n):
    for i in range(1, n + 1):
        lf = lf.with_columns((m.col(f"c{i - 1}") * 2 + i).alias(f"c{i}"))
    return lf


def test_long_with_columns_chain_matches_polars():
    q = check(lambda m, lf: chain(m, lf, 120), {"c0": [1, 2, None]})
    start = time.perf_counter()
    q.explain()
    assert time.perf_counter() - start < 2.0  # ~2 ms; a quadratic pass shows here first


def test_chain_read_only_in_part_prunes_the_rest():
    # Everything above the select needs all its columns, below it only what c7 reads.
    q = check(lambda m, lf: chain(m, lf, 30).select("c7", "x").with_columns(m.col("c7").alias("y")),
              {"c0": [1, 2, None], "x": ["a", "b", "c"], "z": [0.5, 1.5, 2.5]})
    plan = q.explain()
    assert '"c8"' not in plan and "c29" not in plan, plan
    assert "2/3 COLUMNS" in plan, plan


@pytest.mark.parametrize("depth", [50, 400])
def test_deep_unshared_expression_matches_polars(depth):
    # Dynamic literals next to Int64/Float64 operands, casts and comparisons: type
    # coercion rewrites nodes all the way down.
    def query(m, lf):
        e = m.col("a")
        for i in range(depth):
            e = (e * 2 + i) % 1000 if i % 3 == 0 else (e - 1) if i % 3 == 1 else (e.cast(m.Float64) / 2).floor().cast(m.Int64)
        return lf.select(e.alias("x"), (e > 10).alias("big"))
    check(query, {"a": [1, 7, None, -3]})


def test_concat_of_many_selects_matches_polars():
    def query(m, lf):
        return m.concat([lf.select((m.col("a") * (i % 7)).alias("x")) for i in range(300)])
    check(query, {"a": [1, 2, 3], "b": [4, 5, 6]})


def test_wide_projection_matches_polars():
    data = {f"c{i}": [i, i + 1] for i in range(500)}
    check(lambda m, lf: lf.select([m.col(f"c{i}") for i in reversed(range(0, 500, 2))]), data)


def test_trace_times_conversion_and_each_pass():
    lf = fz.LazyFrame({"a": [1, 2]}).filter(fz.col("a") > 1).select("a")
    _frazil.set_trace(True)
    try:
        _frazil.take_trace()
        lf.explain()
        events = _frazil.take_trace()
    finally:
        _frazil.set_trace(False)
    timings = {step: ms for rule, step, ms in events if rule == "timing"}
    for step in ("conversion", "predicate_pushdown", "projection_pushdown", "comm_subexpr_elim"):
        assert step in timings, timings
        assert timings[step].endswith("ms") and float(timings[step][:-2]) >= 0
