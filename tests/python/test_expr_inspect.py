"""Inspection and re-labelling functions, differential against Polars: is_empty, has_nulls,
is_sorted, index_of, item, lower_bound/upper_bound, to_physical, reinterpret, truncdiv,
drop_nans, hist, approx_quantile, cumulative_eval, pipe/set_sorted, and the rolling
group_by of DataFrame/LazyFrame.rolling."""
import datetime as dt

import polars as pl
import pytest

from expr_checks import NUMS, check_agg, check_all, check_select, ok
from fuzz.harness import assert_same, assert_same_error


@pytest.mark.parametrize("col", ["i", "f", "s", "b", "t"])
def test_is_empty_has_nulls_is_sorted(col):
    check_all(lambda pl: pl.col(col).is_empty())
    check_all(lambda pl: pl.col(col).has_nulls())
    for desc in (False, True):
        for nl in (False, True):
            check_all(lambda pl: pl.col(col).is_sorted(descending=desc, nulls_last=nl))
            check_select(lambda pl: pl.col(col).sort(descending=desc, nulls_last=nl).is_sorted(descending=desc,
                                                                                              nulls_last=nl))
    for desc, nl in ((None, False), (False, None), (None, None)):
        check_all(lambda pl: pl.col(col).is_sorted(descending=desc, nulls_last=nl))
        check_select(lambda pl: pl.col(col).sort(descending=True).is_sorted(descending=desc, nulls_last=nl))


@pytest.mark.parametrize("col", ["i", "f", "s", "b"])
def test_ignore_nulls_of_first_last_is_empty(col):
    check_all(lambda pl: pl.col(col).first(ignore_nulls=True))
    check_all(lambda pl: pl.col(col).last(ignore_nulls=True))
    check_all(lambda pl: pl.col(col).is_empty(ignore_nulls=True))


def test_ignore_nulls_of_an_all_null_group():
    nulls = pl.DataFrame({"g": [1, 1, 2], "x": [None, None, 3]})
    for ignore in (False, True):
        for fn in ("first", "last", "is_empty"):
            check_all(lambda pl: getattr(pl.col("x"), fn)(ignore_nulls=ignore), nulls)


def test_group_by_first_last_ignore_nulls():
    nulls = pl.DataFrame({"g": [1, 1, 2, 2, 3], "x": [None, 2, None, None, 5], "s": ["a", None, None, "b", None]})
    for ignore in (False, True):
        for fn in ("first", "last"):
            ok(assert_same(lambda pl, lf: getattr(lf.group_by("g", maintain_order=True), fn)(ignore_nulls=ignore),
                           nulls))


def test_first_last_columns():
    ok(assert_same(lambda pl, lf: lf.select(pl.first(), pl.last(), pl.first("f").alias("f1")), NUMS))
    ok(assert_same(lambda pl, lf: lf.filter(pl.last().is_not_null()), NUMS))


def test_top_level_any_all():
    for ignore in (False, True):
        check_all(lambda pl: pl.any("b", ignore_nulls=ignore))
        check_all(lambda pl: pl.all("b", ignore_nulls=ignore))


@pytest.mark.parametrize("col, element", [("i", 3), ("i", 99), ("i", None), ("s", "y"), ("f", 0.0)])
def test_index_of(col, element):
    check_all(lambda pl: pl.col(col).index_of(element))


def test_item():
    check_select(lambda pl: pl.col("i").head(1).item(), edges=False)
    check_select(lambda pl: pl.col("i").first().item())
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").item()), NUMS)


@pytest.mark.parametrize("col", ["i", "i8", "u16", "f", "f32", "t"])
def test_bounds_and_physical(col):
    check_select(lambda pl: pl.col(col).lower_bound())
    check_select(lambda pl: pl.col(col).upper_bound())
    check_all(lambda pl: pl.col(col).to_physical())


def test_temporal_physical_and_reinterpret():
    data = pl.DataFrame({"d": [dt.date(2020, 1, 1), None], "u": [1, 2**64 - 1], "i": [-1, 5]},
                        schema_overrides={"u": pl.UInt64})
    check_select(lambda pl: pl.col("d").to_physical(), data)
    check_select(lambda pl: pl.col("d").lower_bound(), data)
    check_select(lambda pl: pl.col("u").reinterpret(signed=True), data)
    check_select(lambda pl: pl.col("i").reinterpret(signed=False), data)


@pytest.mark.parametrize("cols", [("i", "j"), ("f", "h"), ("i", "f")])
def test_truncdiv(cols):
    check_all(lambda pl: pl.col(cols[0]).truncdiv(pl.col(cols[1])))
    check_select(lambda pl: pl.col(cols[0]).truncdiv(-2))


def test_drop_nans():
    check_select(lambda pl: pl.col("f").drop_nans())
    check_agg(lambda pl: pl.col("f").drop_nans())
    check_select(lambda pl: pl.col("i").drop_nans())


@pytest.mark.parametrize("kw", [{}, {"bin_count": 3}, {"bins": [-5, 0, 2, 10]}, {"bin_count": 4, "include_breakpoint": True},
                                {"bins": [0, 1], "include_breakpoint": True}])
def test_hist(kw):
    check_select(lambda pl: pl.col("i").hist(**kw))
    check_select(lambda pl: pl.col("h").hist(**kw))


def test_approx_quantile_is_close_to_the_exact():
    import frazil as fz

    df = fz.DataFrame({"x": list(range(1001))})
    assert abs(df.select(fz.col("x").approx_quantile(0.5)).item() - 500) <= 1


@pytest.mark.parametrize("build", [lambda pl: pl.element().sum(), lambda pl: pl.element().max() - pl.element().min(),
                                   lambda pl: pl.element().last() * 2])
@pytest.mark.parametrize("min_samples", [1, 3])
def test_cumulative_eval(build, min_samples):
    check_select(lambda pl: pl.col("i").cumulative_eval(build(pl), min_samples=min_samples))


def test_pipe_and_set_sorted():
    ok(assert_same(lambda pl, lf: lf.select(pl.col("i").pipe(lambda e, k: e * k, 3), pl.col("t").set_sorted()), NUMS))


@pytest.mark.parametrize("period, closed", [("2i", "right"), ("3i", "left"), ("3i", "both")])
def test_rolling_group_by(period, closed):
    data = pl.DataFrame({"t": [1, 2, 3, 4, 5, 6, 8], "g": ["a", "b", "a", "b", "a", "b", "a"],
                         "x": [1, 2, None, 4, 5, 6, 7]})
    ok(assert_same(lambda pl, lf: lf.rolling("t", period=period, closed=closed).agg(
        pl.col("x").sum(), pl.col("x").mean().alias("m"), pl.len()), data))
    ok(assert_same(lambda pl, lf: lf.rolling("t", period=period, closed=closed, group_by="g").agg(
        pl.col("x").max()), data))
    ok(assert_same(lambda pl, lf: lf.set_sorted("t").rolling("t", period=period).agg(pl.col("x")), data))
