"""Aggregations inside another aggregation's row-wise input (`(x - x.mean()).sum()`, corr's
centred sums, `(x / pl.len()).sum()`) are computed per group by the grouped kernels and
spread over their groups' rows (exec/sinks/group_by_sink.cpp). Results must be Polars', also when
the same inner aggregation is a result of its own, with nulls, NaN, one-row and empty
frames, and in first-appearance order when asked."""
import numpy as np
import polars
import pytest
from polars.testing import assert_frame_equal

import frazil as fz


def frame(n, seed):
    r = np.random.default_rng(seed)
    f = r.random(n) * 100
    f[r.random(n) < 0.05] = np.nan
    return polars.DataFrame({
        "g": r.integers(0, 7, n),
        "x": r.integers(-20, 20, n),
        "f": f,
    }).with_columns(polars.when(polars.col("x") % 5 == 0).then(None).otherwise(polars.col("x")).alias("x"))


def aggs(pl):
    x, f = pl.col("x"), pl.col("f")
    return [
        (x - x.mean()).sum().alias("centred"),
        ((x - x.mean()) ** 2).sum().alias("ss"),
        x.mean().alias("mean"),                                 # also an inner node above
        (x / pl.len()).sum().alias("per_len"),
        pl.len().alias("n"),
        (f - f.max()).min().alias("below_max"),
        pl.when(x.count() > 2).then((x * (f - f.mean())).sum()).alias("guarded"),
        pl.corr("x", "f").alias("corr"),
        (x.cast(pl.Float64) - x.median()).abs().max().alias("dev"),
        # One value per group aggregated again: 1 per group, not the group's size.
        pl.lit(True).any().count().alias("count_of_any"),
        x.sum().max().alias("max_of_sum"),
        (x - x.max().first()).sum().alias("first_of_max"),
    ]


@pytest.mark.parametrize("n", [0, 1, 50, 5000])
@pytest.mark.parametrize("maintain_order", [False, True])
def test_nested_aggregations_match_polars(n, maintain_order):
    df = frame(n, seed=n + 1)
    want = df.lazy().group_by("g", maintain_order=maintain_order).agg(aggs(polars)).collect()
    got = fz.DataFrame(df).lazy().group_by("g", maintain_order=maintain_order).agg(aggs(fz)).collect().to_polars()
    assert_frame_equal(got, want, check_row_order=maintain_order, check_dtypes=True, rel_tol=1e-9, abs_tol=1e-9)


def test_windows_over_different_partitions_of_one_frame():
    # Each window groups the same frame its own way: what one gathered by its partitions
    # must not be reused by the other (their groupings may live at the same address).
    df = frame(300, seed=5).with_columns((polars.col("g") % 2).alias("h"))

    def q(pl):
        x = pl.col("f").shift(1)
        return pl.DataFrame(df).lazy().select(x.sum().over("g").alias("by_g"), x.sum().over("h").alias("by_h"),
                                              (pl.col("x") - pl.col("x").mean()).max().over("h").alias("dev_h"))

    assert_frame_equal(q(fz).collect().to_polars(), q(polars).collect(), rel_tol=1e-9, abs_tol=1e-9)


def _imploded_eval(pl, frame_data):
    x, o = pl.col("x"), pl.col("o")
    return (pl.LazyFrame(frame_data).group_by("g", maintain_order=True).agg(
        x.implode().list.eval(pl.element().sum()).alias("sum"),
        x.filter(o == "a").implode().list.eval(pl.element().sum()).list.first().alias("cell"),
        x.implode().list.eval(pl.element() * 2).alias("doubled"),
        x.sum().implode().list.eval(pl.element() + 1).alias("of_sum"),
        x.filter(o == "zz").implode().list.eval(pl.element().first()).alias("empty"),
    ).collect(), pl.LazyFrame(frame_data).select(x.implode().list.eval(pl.element().max()).over("g")).collect())


@pytest.mark.parametrize("rows", [0, 1, 9])
def test_list_eval_of_imploded_group(rows):
    # list.eval over implode() in agg()/over() evaluates each group's list (it evaluated
    # the whole column's list once and gave it to every group).
    data = {"g": [1, 1, 2, None, 2, 1, 3, 3, None][:rows], "o": ["a", "b", "a", None, "a", "a", "b", None, "a"][:rows],
            "x": [1, 2, None, 4, 5, 6, 7, 8, 9][:rows]}
    for ours, theirs in zip(_imploded_eval(fz, data), _imploded_eval(polars, data)):
        assert_frame_equal(polars.from_arrow(ours.to_arrow()), theirs)
