"""A join whose right input groups by exactly the right join keys only needs the groups the
left side has keys for; with a small left side the executor runs it first and filters
the grouped rows by its keys before grouping (exec/executor.cpp, sideways information
passing). The results must be Polars', for every join type that allows it, with null and
duplicate keys, keys named in another order, and groups kept in order."""
import numpy as np
import polars
import pytest
from polars.testing import assert_frame_equal

import frazil as fz


def frames(n_left, n_big, card, seed):
    r = np.random.default_rng(seed)
    big = polars.DataFrame({
        "g1": r.integers(0, card, n_big),
        "g2": r.integers(0, 3, n_big),
        "v": r.random(n_big),
        "s": polars.Series([f"s{i}" for i in r.integers(0, 50, n_big)]),
    }).with_columns(polars.when(polars.col("v") < 0.03).then(None).otherwise(polars.col("g1")).alias("g1"))
    left = polars.DataFrame({
        "k1": r.integers(0, card * 2, n_left),
        "k2": r.integers(0, 3, n_left),
        "w": r.random(n_left),
    }).with_columns(polars.when(polars.col("w") < 0.1).then(None).otherwise(polars.col("k1")).alias("k1"))
    return left, big


def query(pl, left, big, how, keys, maintain_order):
    lk, rk = keys
    grouped = (pl.DataFrame(big).lazy().filter(pl.col("v") < 0.9)
               .group_by(["g2", "g1"], maintain_order=maintain_order)
               .agg(pl.col("v").sum().alias("vs"), pl.len().alias("n"), pl.col("s").n_unique().alias("ns"),
                    pl.col("s").first().alias("first_s")))
    # frazil keeps the left order, Polars does when asked.
    kw = {"maintain_order": "left"} if pl is polars and how in ("inner", "left") else {}
    return pl.DataFrame(left).lazy().join(grouped, left_on=lk, right_on=rk, how=how, **kw)


@pytest.mark.parametrize("how", ["inner", "left", "semi", "anti"])
@pytest.mark.parametrize("keys", [(["k1"], ["g1"]), (["k1", "k2"], ["g1", "g2"]), (["k2", "k1"], ["g2", "g1"])])
@pytest.mark.parametrize("sizes", [(40, 20000, 500), (0, 5000, 50), (1, 5000, 50), (300, 20000, 20000)])
def test_small_left_side_filters_the_grouped_rows(how, keys, sizes):
    left, big = frames(*sizes, seed=sum(sizes))
    for maintain_order in (False, True):
        want = query(polars, left, big, how, keys, maintain_order).collect()
        got = query(fz, left, big, how, keys, maintain_order).collect().to_polars()
        # With both group keys joined each left row has one partner at most, and the row
        # order is the left side's (Polars does not fix the order of several partners).
        ordered = len(keys[0]) == 2 and how in ("inner", "left")
        assert_frame_equal(got, want, check_row_order=ordered, check_dtypes=True,
                           rel_tol=1e-9)
        unopt = query(fz, left, big, how, keys, maintain_order).collect(no_optimization=True).to_polars()
        assert_frame_equal(unopt, want, check_row_order=False, check_dtypes=True, rel_tol=1e-9)


def test_keys_through_an_alias_do_not_filter_wrongly():
    # A group key under another name than its input column is not taken for a join key.
    left, big = frames(30, 20000, 500, seed=3)

    def q(pl):
        grouped = pl.DataFrame(big).lazy().group_by(pl.col("g2").alias("g1")).agg(pl.col("v").sum())
        return pl.DataFrame(left).lazy().join(grouped, left_on="k2", right_on="g1", how="inner")

    assert_frame_equal(q(fz).collect().to_polars(), q(polars).collect(), check_row_order=False, rel_tol=1e-9)
