"""The optimizer rules of issue #22, each against Polars and against frazil with the rule's flag
off and with no optimization, on nulls, NaN, -0.0, ±inf, empty, one-row and multi-chunk inputs;
explain() shows the rewrite with the flag on and not with it off."""
import math

import polars
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

NAN = math.nan
INF = math.inf

BASE = {
    "i": [3, None, 1, 4, 1, 5, 9, 2],
    "k": [10, 20, 30, 40, 50, 60, 70, 80],
    "x": [1.5, None, NAN, -0.0, 0.0, INF, -INF, 2.0],
    "y": [-0.0, 2.0, None, 3.0, NAN, 1e308, 0.5, -1.0],
    "z": [0.0, -0.0, 1.0, None, 2.5, 1e308, NAN, 4.0],
    "g": ["a", None, "b", "a", "c", "b", None, "a"],
}
SCHEMA = {"i": polars.Int64, "k": polars.Int64, "x": polars.Float64, "y": polars.Float64, "z": polars.Float64,
          "g": polars.String}


def frames():
    full = polars.DataFrame(BASE, schema=SCHEMA)
    return {
        "nulls_nan_zero": full,
        "empty": full.head(0),
        "one_row": full.head(1),
        "one_null_row": full.slice(1, 1),
    }


def lazy(m, df, chunks):
    lf = m.LazyFrame(df.to_dict(as_series=False), schema=dict(df.schema)) if m is fz else df.lazy()
    if chunks == 1:
        return lf
    return m.concat([lf] * chunks)


def check(query, flag, chunks=1):
    for name, df in frames().items():
        want = query(polars, lazy(polars, df, chunks)).collect()
        q = query(fz, lazy(fz, df, chunks))
        for flags in (fz.QueryOptFlags(), fz.QueryOptFlags(**{flag: False}), fz.QueryOptFlags.none()):
            got = polars.from_arrow(q.collect(optimizations=flags).to_arrow())
            assert_frame_equal(got, want, check_dtypes=True), (name, flags)


def plan_on_off(query, flag):
    q = query(fz, lazy(fz, polars.DataFrame(BASE, schema=SCHEMA), 1))
    return q.explain(), q.explain(optimizations=fz.QueryOptFlags(**{flag: False}))


# --- sort collapse -------------------------------------------------------------------------

SORTS = [
    ("unstable_over_sort", lambda m, lf: lf.sort("i").sort("k")),
    ("stable_over_stable", lambda m, lf: lf.sort("x", maintain_order=True).sort("g", maintain_order=True)),
    ("stable_desc_nulls_last",
     lambda m, lf: lf.sort(["g", "y"], descending=[True, False], nulls_last=True, maintain_order=True)
     .sort("g", nulls_last=True, maintain_order=True)),
    ("three_sorts", lambda m, lf: lf.sort("x").sort("y", maintain_order=True).sort("k", maintain_order=True)),
    ("topk_inner_stays", lambda m, lf: lf.sort("k", descending=True).head(3).sort("k")),
]


@pytest.mark.parametrize("name,query", SORTS, ids=[s[0] for s in SORTS])
@pytest.mark.parametrize("chunks", [1, 3])
def test_sort_collapse_results(name, query, chunks):
    check(query, "sort_collapse", chunks)


def test_sort_collapse_plan():
    on, off = plan_on_off(lambda m, lf: lf.sort("i").sort("k"), "sort_collapse")
    assert on.count("SORT BY") == 1 and off.count("SORT BY") == 2
    on, _ = plan_on_off(lambda m, lf: lf.sort("i", descending=True).sort("k", maintain_order=True), "sort_collapse")
    want = polars.LazyFrame(BASE, schema=SCHEMA).sort("i", descending=True).sort("k", maintain_order=True).explain()
    assert on.splitlines()[0] == want.splitlines()[0]  # SORT BY [descending: [false, true]] [col("k"), col("i")]
    on, _ = plan_on_off(lambda m, lf: lf.sort("k").head(2).sort("i"), "sort_collapse")
    assert on.count("SORT BY") == 2  # a top-k below decides which rows there are


# --- cluster_with_columns ------------------------------------------------------------------

WITH_COLUMNS = [
    ("independent", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("y") * 2)),
    ("overwritten_unread", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(a=m.col("z") - 1)),
    ("dependent", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("a") * m.col("y"))),
    ("replaced_input_read_by_staying",
     lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("a") + m.col("y"), y=m.lit(0.0))),
    ("reorder", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("a") * 2, c=m.col("y") - 1)),
    ("input_column_replaced", lambda m, lf: lf.with_columns(x=m.col("y") + 1).with_columns(y=m.col("z"), w=m.col("y"))),
    ("aggregates_and_windows",
     lambda m, lf: lf.with_columns(s=m.col("x").sum()).with_columns(w=m.col("k").sum().over("g"), n=m.len())),
    ("three_stages", lambda m, lf: lf.with_columns(a=m.lit(1)).with_columns(b=m.col("i") * 2)
     .with_columns(a=m.col("k") + 3, c=m.col("g"))),
    ("then_select", lambda m, lf: lf.with_columns(a=m.col("x") * 2).with_columns(b=m.col("i") + 1).select("b", "a")),
]


@pytest.mark.parametrize("name,query", WITH_COLUMNS, ids=[w[0] for w in WITH_COLUMNS])
@pytest.mark.parametrize("chunks", [1, 3])
def test_cluster_with_columns_results(name, query, chunks):
    check(query, "cluster_with_columns", chunks)


def test_cluster_with_columns_plan():
    on, off = plan_on_off(dict(WITH_COLUMNS)["independent"], "cluster_with_columns")
    assert on.count("WITH_COLUMNS") == 1 and off.count("WITH_COLUMNS") == 2
    assert '[(col("x") + 1.0).alias("a"), (col("y") * 2.0).alias("b")]' in on
    want = dict(WITH_COLUMNS)["independent"](polars, polars.LazyFrame(BASE, schema=SCHEMA)).explain()
    assert '[(col("x") + 1.0).alias("a"), (col("y") * 2.0).alias("b")]' in want
    on, off = plan_on_off(dict(WITH_COLUMNS)["overwritten_unread"], "cluster_with_columns")
    assert on.count("WITH_COLUMNS") == 1 and "+ 1.0" not in on and "+ 1.0" in off
    on, _ = plan_on_off(dict(WITH_COLUMNS)["dependent"], "cluster_with_columns")
    assert on.count("WITH_COLUMNS") == 2
