"""DelayRechunk: concat(rechunk=True) gives contiguous columns (as Polars' in-memory engine
does), and the optimizer drops the rechunk below a group-by, join, sort or distinct, with
results equal to Polars' and to frazil's without any rechunk, on nulls, NaN, -0.0, empty and
one-row inputs."""
import math

import polars
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

DATA = {"a": [1, 2, None, 4, 2, 1], "b": [1.0, math.nan, -0.0, None, 0.0, 2.5], "g": ["x", "y", "x", None, "y", "x"]}
SCHEMA = {"a": polars.Int64, "b": polars.Float64, "g": polars.String}
RIGHT = {"a": [1, 2, 5, None], "f": [True, None, False, True]}


def frames():
    full = polars.DataFrame(DATA, schema=SCHEMA)
    return {"nulls_nan_zero": full, "empty": full.head(0), "one_row": full.head(1)}


def lazy(m, df):
    return m.LazyFrame(df.to_dict(as_series=False), schema=SCHEMA) if m is fz else df.lazy()


def rechunked(m, df, rechunk=True):
    return m.concat([lazy(m, df), lazy(m, df.reverse())], rechunk=rechunk)


QUERIES = {
    "group_by": lambda m, u: u.group_by("g").agg(m.col("b").sum(), m.col("a").max()).sort("g", nulls_last=True),
    "group_by_two_keys": lambda m, u: u.group_by("g", "a").agg(m.len()).sort("g", "a", nulls_last=True),
    "join": lambda m, u: u.join(m.LazyFrame(RIGHT), on="a").sort("a", "b", nulls_last=True),
    "filter_then_sort": lambda m, u: u.filter(m.col("b") > -1.0).with_columns(c=m.col("a") * 2).sort("b", "a"),
    "unique": lambda m, u: u.unique(maintain_order=True),
}


@pytest.mark.parametrize("query", sorted(QUERIES))
@pytest.mark.parametrize("frame", sorted(frames()))
def test_results_equal_polars_with_and_without_rechunk(query, frame):
    df = frames()[frame]
    build = QUERIES[query]
    want = build(polars, rechunked(polars, df)).collect()
    for rechunk in (True, False):
        q = build(fz, rechunked(fz, df, rechunk))
        for flags in (fz.QueryOptFlags(), fz.QueryOptFlags.none()):
            got = polars.from_arrow(q.collect(optimizations=flags).to_arrow())
            assert_frame_equal(got, want)


@pytest.mark.parametrize("query", sorted(QUERIES))
def test_the_rechunk_is_dropped_below_a_consumer_that_gathers(query):
    q = QUERIES[query](fz, rechunked(fz, frames()["nulls_nan_zero"]))
    assert "UNION[rechunk: true]" in q.explain(optimized=False)
    assert "rechunk" not in q.explain()


def test_a_union_read_as_the_result_keeps_it():
    df = frames()["nulls_nan_zero"]
    for q in (rechunked(fz, df), rechunked(fz, df).filter(fz.col("a") > 1), rechunked(fz, df).head(4)):
        assert "UNION[rechunk: true]" in q.explain()
    assert "UNION\n" in rechunked(fz, df, rechunk=False).explain()


def test_the_union_output_is_contiguous_as_in_polars_in_memory():
    df = frames()["nulls_nan_zero"]
    for rechunk in (True, False):
        want = rechunked(polars, df, rechunk).collect(engine="in-memory").n_chunks("all")
        got = rechunked(fz, df, rechunk).collect()
        assert got.n_chunks("all") == want, rechunk
        assert_frame_equal(polars.from_arrow(got.to_arrow()), rechunked(polars, df).collect())
    assert "rechunked" in rechunked(fz, df).explain(format="physical")


def test_eager_concat_rechunks_as_polars():
    a, b = fz.DataFrame({"a": [1, 2]}), fz.DataFrame({"a": [3]})
    pa, pb = polars.DataFrame({"a": [1, 2]}), polars.DataFrame({"a": [3]})
    for rechunk in (True, False):
        assert fz.concat([a, b], rechunk=rechunk).n_chunks("all") == polars.concat([pa, pb], rechunk=rechunk).n_chunks("all")
    diagonal = fz.concat([a, fz.DataFrame({"b": [1.0]})], how="diagonal", rechunk=True)
    assert diagonal.n_chunks("all") == [1, 1]
