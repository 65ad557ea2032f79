"""Shared subexpressions (`c = (c + c) / 2`: the expression is a DAG): frazil converts,
optimizes, explains and evaluates each shared node once. Results must equal Polars' with
optimizations on, with both eliminations off and with everything off, in select, filter
(predicate context), with_columns, sort and group_by().agg()."""
import time

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

BOTH_OFF = fz.QueryOptFlags(comm_subplan_elim=False, comm_subexpr_elim=False)

DATA = {
    "c": [1.0, 2.5, None, -4.0, 0.5, 3.0],
    "a": [1, 5, 3, None, 2, 8],
    "b": [True, None, False, True, True, False],
    "g": [1, 2, 1, 2, 1, 3],
}


def nested(x, levels):
    for _ in range(levels):
        x = (x + x) / 2
    return x


def check(query, ordered=True):
    pframe = pl.DataFrame(DATA)
    q = query(fz, fz.DataFrame(pframe).lazy())
    want = query(pl, pframe.lazy()).collect()
    for flags in (None, BOTH_OFF, fz.QueryOptFlags.none()):
        got = (q.collect() if flags is None else q.collect(optimizations=flags)).to_polars()
        assert_frame_equal(got, want, check_row_order=ordered)
    return q


@pytest.mark.parametrize("levels", [1, 4, 8])
def test_nested_select_matches_polars(levels):
    check(lambda m, lf: lf.select(nested(m.col("c"), levels).alias("out"), m.col("a")))


def test_nested_with_columns_and_sort():
    check(lambda m, lf: lf.with_columns(nested(m.col("a"), 6).alias("n")).sort(nested(m.col("c"), 5), nulls_last=True))


def test_shared_in_filter_predicate():
    check(lambda m, lf: lf.filter(nested(m.col("c"), 6) > 0.7))
    check(lambda m, lf: lf.filter((nested(m.col("c"), 5) > 0) & (nested(m.col("c"), 5) < 2.6)))
    # A shared AND chain: p & p & p ... (conjuncts deduplicated, not 2^levels of them).
    def shared_and(m, lf):
        p = m.col("c") > 0
        for _ in range(12):
            p = p & p
        return lf.filter(p)
    check(shared_and)


def test_shared_node_in_predicate_and_value_context():
    # p is both a predicate (under |) and a value (under is_null): simplifying it as a
    # predicate (null -> false) must not change what is_null sees.
    def query(m, lf):
        p = m.col("b") & (m.col("a") > 2)
        return lf.filter(p.is_null() | p)
    check(query)

    def query2(m, lf):
        p = m.col("b") & m.lit(None, dtype=m.Boolean)
        return lf.filter(p.is_null() | p)
    check(query2)


def test_shared_in_group_by_agg():
    def query(m, lf):
        n = nested(m.col("c"), 6)
        s = m.col("a") * 2
        return (
            lf.group_by("g")
            .agg(n.sum().alias("s"), (s + s).max().alias("m"), (n - n.mean()).alias("z"), (s * s).alias("l"))
            .sort("g")
        )
    check(query)


def test_shared_in_when_then_and_window():
    def query(m, lf):
        s = m.col("a") * 2
        w = s.sum().over("g")
        return lf.select(
            m.when(s > 4).then(s).otherwise(-s).alias("t"),
            (w + w).alias("w"),
            (s.shift(1) + s.shift(1)).alias("sh"),
        )
    check(query)


def test_twenty_levels_are_fast_and_readable():
    n = nested(fz.col("c"), 20)
    lf = fz.DataFrame(pl.DataFrame(DATA)).lazy()
    q = lf.select(n.alias("out"))
    for flags in (None, BOTH_OFF, fz.QueryOptFlags.none()):
        kw = {} if flags is None else {"optimizations": flags}
        start = time.perf_counter()
        text = q.explain(**kw)
        assert time.perf_counter() - start < 1.0
        assert len(text) < 20000, text[:500]
        # (c + c) / 2 is c, exactly, at every level.
        assert_frame_equal(q.collect(**kw).to_polars(), pl.DataFrame({"out": DATA["c"]}))
    assert "__FRAZIL_CSER" in q.explain()
    assert "_shared_" in q.explain(optimizations=BOTH_OFF)
    for query in (lf.filter(n > 0.7), lf.group_by("g").agg(n.sum()), lf.sort(n), lf.with_columns(n.alias("x"))):
        start = time.perf_counter()
        query.explain()
        query.collect()
        assert time.perf_counter() - start < 2.0
