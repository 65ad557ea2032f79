"""Cumulative and order-dependent functions, differential against Polars: cum_sum, cum_prod,
cum_min, cum_max, cum_count (and reversed), diff, pct_change, rank, rle, rle_id, peak_min,
peak_max, fill_null strategies, forward/backward_fill, interpolate(_by) and ewm_*; each on
nulls, NaN, -0.0, several dtypes, empty and one-row frames, several chunks, inside agg()
and over() (with and without order_by), optimizations on and off."""
import datetime as dt

import polars as pl
import pytest

from expr_checks import NUMS, check_agg, check_all, check_over, check_select
from fuzz.harness import assert_same, assert_same_error

COLS = ["i", "f", "i8", "u16", "f32", "b"]


@pytest.mark.parametrize("fn", ["cum_sum", "cum_prod", "cum_min", "cum_max", "cum_count"])
@pytest.mark.parametrize("col", COLS)
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative(fn, col, reverse):
    if fn == "cum_prod" and col == "b":
        pytest.skip("Polars: cum_prod of Boolean panics")
    check_all(lambda pl: getattr(pl.col(col), fn)(reverse=reverse))


@pytest.mark.parametrize("fn", ["cum_min", "cum_max", "cum_count"])
def test_cumulative_of_strings(fn):
    check_all(lambda pl: getattr(pl.col("s"), fn)())


def test_cumulative_of_temporals_and_decimals():
    data = pl.DataFrame({
        "d": [dt.date(2020, 1, 3), None, dt.date(2020, 1, 1), dt.date(2021, 1, 1)],
        "du": [dt.timedelta(1), None, dt.timedelta(-2), dt.timedelta(3)],
        "dec": ["1.5", None, "-2.25", "3"],
    }).with_columns(pl.col("dec").cast(pl.Decimal(10, 2)))
    for fn in ("cum_min", "cum_max"):
        check_select(lambda pl: getattr(pl.col("d"), fn)(), data)
    check_select(lambda pl: pl.col("du").cum_sum(), data)
    check_select(lambda pl: pl.col("dec").cum_sum(), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("d").cum_sum()), data)


@pytest.mark.parametrize("n", [1, 2, -1, 0, 10])
@pytest.mark.parametrize("col", ["i", "f", "i8", "u16", "f32"])
def test_diff(col, n):
    check_all(lambda pl: pl.col(col).diff(n))


def test_diff_drop_and_temporals():
    check_select(lambda pl: pl.col("i").diff(2, null_behavior="drop"))
    check_select(lambda pl: pl.col("i").diff(-1, null_behavior="drop"))
    check_agg(lambda pl: pl.col("i").diff(1, null_behavior="drop"))
    data = pl.DataFrame({"d": [dt.date(2020, 1, 3), None, dt.date(2020, 1, 1), dt.date(2021, 1, 1)],
                         "t": [dt.datetime(2020, 1, 1, 5), dt.datetime(2020, 1, 1), None, dt.datetime(2021, 1, 1)]})
    check_select(lambda pl: pl.col("d").diff(), data)
    check_select(lambda pl: pl.col("t").diff(), data)


@pytest.mark.parametrize("n", [1, 2, -1])
@pytest.mark.parametrize("col", ["i", "f", "u16", "f32"])
def test_pct_change(col, n):
    check_all(lambda pl: pl.col(col).pct_change(n))


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("col", ["i", "f", "j", "s", "b"])
def test_rank(method, descending, col):
    check_all(lambda pl: pl.col(col).rank(method, descending=descending))


def test_rank_random_is_a_permutation_of_min_ranks():
    import frazil as fz

    df = fz.DataFrame({"x": [3, 1, 3, 3, None, 2]})
    out = df.select(r=fz.col("x").rank("random", seed=7), lo=fz.col("x").rank("min"), hi=fz.col("x").rank("max"))
    for r, lo, hi in zip(*[out[c].to_list() for c in ("r", "lo", "hi")]):
        assert (r is None) == (lo is None)
        assert r is None or lo <= r <= hi
    assert sorted(x for x in out["r"].to_list() if x is not None) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("col", ["i", "f", "s", "b", "j"])
def test_rle_id(col):
    check_all(lambda pl: pl.col(col).rle_id())


@pytest.mark.parametrize("col", ["i", "s", "j"])
def test_rle(col):
    # (Polars 2.1 orders the fields {value, len} on an empty input, {len, value} otherwise.)
    check_select(lambda pl: pl.col(col).rle(), edges=False)
    check_select(lambda pl: pl.col(col).rle(), NUMS.slice(1, 1), chunks=False, edges=False)
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col(col).rle()).sort("g"), NUMS)


@pytest.mark.parametrize("fn", ["peak_min", "peak_max"])
@pytest.mark.parametrize("col", ["i", "f", "j", "b", "u16"])
def test_peaks(fn, col):
    check_all(lambda pl: getattr(pl.col(col), fn)())


@pytest.mark.parametrize("strategy", ["forward", "backward", "min", "max", "mean", "zero", "one"])
@pytest.mark.parametrize("col", ["i", "f", "i8", "u16", "f32"])
def test_fill_null_strategies(strategy, col):
    check_all(lambda pl: pl.col(col).fill_null(strategy=strategy))


@pytest.mark.parametrize("limit", [None, 0, 1, 2])
def test_forward_and_backward_fill(limit):
    data = pl.DataFrame({"g": [1, 1, 1, 1, 2, 2, 2, 1], "x": [None, 1, None, None, None, 4, None, None],
                         "s": ["a", None, None, "b", None, None, "c", None]})
    for col in ("x", "s"):
        check_all(lambda pl: pl.col(col).forward_fill(limit), data.rename({"g": "g"}))
        check_all(lambda pl: pl.col(col).backward_fill(limit), data)
        check_select(lambda pl: pl.col(col).fill_null(strategy="forward", limit=limit), data)


def test_fill_null_argument_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").fill_null()), NUMS)
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").fill_null(1, strategy="zero")), NUMS)
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").fill_null(strategy="min", limit=1)), NUMS)


INTERP = pl.DataFrame({
    "g": ["a", "a", "b", "a", "b", "a", "b", "a", "a", "b"],
    "x": [None, 1, None, None, 4, None, None, None, 8, None],
    "f": [None, 1.0, None, float("nan"), 4.0, None, -0.0, 5.0, None, None],
    "by": [9, 1, 2, 3, 7, 5, 6, 0, 8, 4],
    "d": [None, dt.date(2020, 1, 1), None, dt.date(2020, 1, 8), None, None, dt.date(2020, 2, 1), None, None, None],
})


@pytest.mark.parametrize("method", ["linear", "nearest"])
@pytest.mark.parametrize("col", ["x", "f", "d"])
def test_interpolate(method, col):
    check_all(lambda pl: pl.col(col).interpolate(method), INTERP)


@pytest.mark.parametrize("col", ["x", "f"])
def test_interpolate_by(col):
    check_all(lambda pl: pl.col(col).interpolate_by("by"), INTERP)
    check_select(lambda pl: pl.col(col).interpolate_by(pl.col("by").cast(pl.UInt32)), INTERP)


def test_interpolate_by_rejects_nulls_in_by():
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").interpolate_by("x")), INTERP)
    assert_same_error(lambda pl, lf: lf.select(pl.lit(1.0).interpolate_by("by")), INTERP)  # lengths differ


def test_interpolate_by_without_nulls_ignores_by():
    # Nothing to fill: Polars returns the values (as floats) and never looks at `by`'s nulls.
    check_all(lambda pl: pl.col("by").interpolate_by("x"), INTERP)
    check_select(lambda pl: pl.col("g").len().cast(pl.Float32).interpolate_by(pl.col("x").first()), INTERP)


EWM_KWARGS = [{"alpha": 0.5}, {"com": 2.0, "adjust": False}, {"span": 3}, {"half_life": 2.0, "min_samples": 2},
              {"alpha": 0.3, "ignore_nulls": True}, {"alpha": 1.0}]


@pytest.mark.parametrize("kw", EWM_KWARGS)
@pytest.mark.parametrize("fn", ["ewm_mean", "ewm_std", "ewm_var", "ewm_sum"])
@pytest.mark.parametrize("col", ["i", "f", "f32"])
def test_ewm(fn, kw, col):
    if fn == "ewm_sum":
        kw = {k: v for k, v in kw.items() if k != "adjust"}
    check_all(lambda pl: getattr(pl.col(col), fn)(**kw), rel_tol=1e-5 if col == "f32" else 1e-9)


def test_ewm_bias_and_argument_errors():
    check_all(lambda pl: pl.col("f").ewm_std(alpha=0.4, bias=True))
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").ewm_mean(alpha=0.5, com=1)), NUMS)
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").ewm_mean()), NUMS)
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").ewm_mean(alpha=1.5)), NUMS)


@pytest.mark.parametrize("fn", ["ewm_mean_by", "ewm_sum_by"])
def test_ewm_by(fn):
    data = pl.DataFrame({
        "g": ["a", "b", "a", "a", "b", "a"],
        "x": [1.0, 2.0, None, 4.0, 5.0, 6.0],
        "t": [0, 1, 2, 5, 6, 10],
        "d": [dt.date(2020, 1, 1), dt.date(2020, 1, 2), dt.date(2020, 1, 4), dt.date(2020, 1, 3),
              dt.date(2020, 1, 9), dt.date(2020, 1, 12)],
    })
    check_all(lambda pl: getattr(pl.col("x"), fn)("t", half_life="2i"), data)
    check_all(lambda pl: getattr(pl.col("x"), fn)("d", half_life="3d"), data)
    check_select(lambda pl: getattr(pl.col("x"), fn)("d", half_life=dt.timedelta(days=1)), data)


def test_cumulative_over_ordered_partitions():
    for desc in (False, True):
        for nulls_last in (False, True):
            assert_same(lambda pl, lf: lf.select(
                pl.col("i").cum_sum().over("g", order_by="t", descending=desc, nulls_last=nulls_last),
                pl.col("f").rank().over("g", order_by="j", descending=desc, nulls_last=nulls_last).alias("r"),
                pl.col("i").diff().over(order_by="j", descending=desc, nulls_last=nulls_last).alias("d"),
            ), NUMS)


def test_over_mapping_strategies():
    for strategy in ("join", "explode"):
        assert_same(lambda pl, lf: lf.select(pl.col("i").cum_sum().over("g", mapping_strategy=strategy)), NUMS,
                    check_row_order=strategy != "explode")
        assert_same(lambda pl, lf: lf.select(pl.col("i").sum().over("g", mapping_strategy=strategy)), NUMS,
                    check_row_order=strategy != "explode")
    assert_same(lambda pl, lf: lf.select(pl.col("i").over("g", mapping_strategy="join")), NUMS)


def test_nested_cumulative_inside_agg_and_over():
    check_agg(lambda pl: pl.col("i").cum_sum().cum_max())
    check_over(lambda pl: pl.col("i").shift().cum_sum())
    check_agg(lambda pl: pl.col("i").cum_sum().max())
    check_agg(lambda pl: (pl.col("i") * 2).cum_sum().alias("c"))
    check_over(lambda pl: pl.col("f").fill_null(strategy="mean").rank())
