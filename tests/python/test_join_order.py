"""join_order: runs of inner joins whose row order nobody observes are reordered by the
cost model's estimates; results equal Polars' with the flag on and off."""
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz


def _inputs(m, n_big=600):
    big = m.LazyFrame({"k": [i % 60 if i % 11 else None for i in range(n_big)],
                       "a": [float("nan") if i % 17 == 0 else (-0.0 if i % 5 == 0 else float(i % 7)) for i in range(n_big)]})
    mid = m.LazyFrame({"k": list(range(60)), "j": [i % 12 if i % 13 else None for i in range(60)]})
    small = m.LazyFrame({"j": list(range(12)), "s": [i % 4 for i in range(12)]})
    return big, mid, small


def _chain(m, small_rows=None):
    big, mid, small = _inputs(m)
    if small_rows is not None:
        small = m.LazyFrame({"j": small_rows, "s": [1] * len(small_rows)}, schema={"j": m.Int64, "s": m.Int64})
    return big.join(mid, on="k").join(small.filter(m.col("s") == 1), on="j")


QUERIES = {
    "sum by k": lambda m, r=None: _chain(m, r).group_by("k").agg(m.col("a").sum(), m.len()),
    "by s": lambda m, r=None: _chain(m, r).group_by("s").agg(m.col("k").n_unique(), m.col("a").max()),
    "scalar": lambda m, r=None: _chain(m, r).select(m.len(), m.col("a").sum()),
}
FLAGS = [fz.QueryOptFlags(), fz.QueryOptFlags(join_order=False), fz.QueryOptFlags.none()]


def _check(name, rows=None):
    q = QUERIES[name](fz, rows)
    want = QUERIES[name](pl, rows).collect()
    for flags in FLAGS:
        got = pl.from_arrow(q.collect(optimizations=flags).to_arrow())
        assert_frame_equal(got, want, check_row_order=False, check_dtypes=True)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_reordered_runs_equal_polars(name):
    _check(name)


@pytest.mark.parametrize("rows", [[], [3]], ids=["empty", "one row"])
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_empty_and_one_row_inputs(name, rows):
    _check(name, rows)


def test_explain_shows_the_cheaper_order_and_its_absence():
    q = QUERIES["sum by k"](fz)
    on = q.explain()
    off = q.explain(optimizations=fz.QueryOptFlags(join_order=False))
    # Written: big with mid on k, then small on j (the outer join is on j). Reordered: mid
    # with the filtered small first (the outer join is on k).
    assert on.index('ON: [col("k")]') < on.index('ON: [col("j")]'), on
    assert off.index('ON: [col("j")]') < off.index('ON: [col("k")]'), off


def test_several_chunks():
    big, mid, small = _inputs(fz)
    chunked = fz.concat([big, big], rechunk=False)
    q = chunked.join(mid, on="k").join(small.filter(fz.col("s") == 1), on="j").group_by("k").agg(fz.col("a").sum())
    pbig, pmid, psmall = _inputs(pl)
    want = pl.concat([pbig, pbig]).join(pmid, on="k").join(psmall.filter(pl.col("s") == 1), on="j").group_by(
        "k").agg(pl.col("a").sum()).collect()
    for flags in FLAGS:
        assert_frame_equal(pl.from_arrow(q.collect(optimizations=flags).to_arrow()), want, check_row_order=False)


def test_observed_order_and_suffixed_columns_keep_the_written_order():
    # Without a consumer that ignores order, the joins' left order is the result's order.
    q = _chain(fz)
    assert q.explain() == q.explain(optimizations=fz.QueryOptFlags(join_order=False))
    want = _chain(pl).collect()
    assert_frame_equal(pl.from_arrow(q.collect().to_arrow()), want, check_row_order=False)
    # "a" on two inputs: the second is suffixed, so another order would mean other columns.
    big, mid, small = _inputs(fz)
    clash = big.join(mid.with_columns(a=fz.col("j")), on="k").join(small.filter(fz.col("s") == 1), on="j")
    agg = clash.group_by("k").agg(fz.col("a").sum(), fz.col("a_right").sum())
    assert agg.explain() == agg.explain(optimizations=fz.QueryOptFlags(join_order=False))
