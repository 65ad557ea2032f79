"""Rolling windows, differential against Polars: every rolling_* over fixed windows (sizes,
min_samples, center, weights), every rolling_*_by over index windows (integer, Date and
Datetime indices, unsorted, closed ends), Expr.rolling (kernel and generic paths), on
nulls, NaN, infinities, several dtypes, empty/one-row frames, several chunks, inside agg()
and over(), optimizations on and off."""
import datetime as dt
import math

import polars as pl
import pytest

from expr_checks import NUMS, check_agg, check_all, check_over, check_select
from fuzz.harness import assert_same, assert_same_error

NAN, INF = math.nan, math.inf
FIXED = ["sum", "mean", "min", "max", "std", "var", "median", "skew", "kurtosis"]


@pytest.mark.parametrize("fn", FIXED)
@pytest.mark.parametrize("col", ["i", "f", "h", "i8", "u16", "f32"])
@pytest.mark.parametrize("window, min_samples, center", [(2, None, False), (3, 1, False), (3, 2, True), (4, 1, True),
                                                         (1, None, False), (20, 1, False)])
def test_rolling_fixed(fn, col, window, min_samples, center):
    check_all(lambda pl: getattr(pl.col(col), "rolling_" + fn)(window, min_samples=min_samples, center=center),
              rel_tol=1e-5 if col == "f32" else 1e-9)


def test_rolling_of_booleans_and_temporals():
    data = pl.DataFrame({
        "b": [True, None, False, True, True],
        "d": [dt.date(2020, 1, 1), dt.date(2020, 1, 5), None, dt.date(2019, 3, 1), dt.date(2021, 1, 1)],
        "du": [dt.timedelta(1), None, dt.timedelta(-3), dt.timedelta(2), dt.timedelta(5)],
    })
    for fn in ("sum", "min", "max", "mean"):
        check_select(lambda pl: getattr(pl.col("b"), "rolling_" + fn)(2, min_samples=1), data)
    for fn in ("min", "max", "mean", "median"):
        check_select(lambda pl: getattr(pl.col("d"), "rolling_" + fn)(2, min_samples=1), data)
        check_select(lambda pl: getattr(pl.col("du"), "rolling_" + fn)(3, min_samples=1), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("d").rolling_sum(2)), data)


@pytest.mark.parametrize("q", [0.0, 0.25, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("method", ["nearest", "lower", "higher", "midpoint", "linear"])
def test_rolling_quantile(q, method):
    check_all(lambda pl: pl.col("f").rolling_quantile(q, method, 3, min_samples=1))
    check_select(lambda pl: pl.col("i").rolling_quantile(q, method, 4, center=True, min_samples=2))


@pytest.mark.parametrize("ddof", [0, 1, 2])
def test_rolling_std_var_ddof(ddof):
    check_all(lambda pl: pl.col("h").rolling_std(3, min_samples=1, ddof=ddof))
    check_all(lambda pl: pl.col("i").rolling_var(3, min_samples=1, ddof=ddof))


@pytest.mark.parametrize("kw", [{"bias": False}, {"fisher": False}, {"fisher": False, "bias": False}])
def test_rolling_kurtosis_options(kw):
    data = pl.DataFrame({"x": [1.0, 2.0, 4.0, -1.0, 3.0, 9.0, 2.0, 2.0, 5.0]})
    check_select(lambda pl: pl.col("x").rolling_kurtosis(4, **kw), data)
    check_select(lambda pl: pl.col("x").rolling_skew(3, bias=kw.get("bias", True)), data)


@pytest.mark.parametrize("method", ["average", "min", "max", "dense"])
def test_rolling_rank(method):
    data = pl.DataFrame({"g": [1, 1, 2, 1, 2, 1, 2, 1], "x": [3, 1, 3, 2, 3, None, 1, 5]})
    check_select(lambda pl: pl.col("x").rolling_rank(3, method), data, edges=False)
    check_agg(lambda pl: pl.col("x").rolling_rank(3, method), data)
    check_over(lambda pl: pl.col("x").rolling_rank(3, method), data)
    check_select(lambda pl: pl.col("x").rolling_rank(3, method, min_samples=1, center=True), data)


@pytest.mark.parametrize("fn", ["sum", "mean", "min", "max", "std", "var"])
@pytest.mark.parametrize("center", [False, True])
def test_rolling_weighted(fn, center):
    data = pl.DataFrame({"g": [1, 1, 1, 2, 2, 2, 2], "x": [1.0, 4.0, 2.0, 8.0, 5.0, -3.0, 0.5],
                         "i": [1, 4, 2, 8, 5, -3, 0]})
    # (Polars 2.1 gives an empty or one-row input's dtype to a weighted result.)
    check_select(lambda pl: getattr(pl.col("x"), "rolling_" + fn)(3, weights=[0.5, 2.0, 1.0], center=center), data,
                 edges=False)
    check_agg(lambda pl: getattr(pl.col("x"), "rolling_" + fn)(3, weights=[0.5, 2.0, 1.0], center=center), data)
    check_over(lambda pl: getattr(pl.col("x"), "rolling_" + fn)(3, weights=[0.5, 2.0, 1.0], center=center), data)
    check_select(lambda pl: getattr(pl.col("i"), "rolling_" + fn)(2, weights=[1.5, 0.25], center=center), data,
                 edges=False)


def test_rolling_argument_errors():
    import frazil as fz

    with pytest.raises(fz.ComputeError, match="weights"):  # (Polars panics)
        fz.DataFrame({"x": [1.0, 2.0]}).select(fz.col("x").rolling_sum(2, weights=[1.0]))
    # (Polars panics on weights with nulls.)
    with pytest.raises(fz.ComputeError, match="weights"):
        fz.DataFrame({"x": [1.0, None]}).select(fz.col("x").rolling_sum(2, weights=[1.0, 1.0]))
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").rolling_sum(2)), NUMS)
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").rolling_rank(2, "ordinal")), NUMS)


def test_rolling_nan_and_infinities():
    data = pl.DataFrame({"x": [1.0, NAN, 2.0, 8.0, 5.0, INF, 1.0, 2.0, -INF, INF, 3.0, None, 4.0]})
    for fn in FIXED:
        check_select(lambda pl: getattr(pl.col("x"), "rolling_" + fn)(2, min_samples=1), data)
        check_select(lambda pl: getattr(pl.col("x"), "rolling_" + fn)(4), data)


BY = pl.DataFrame({
    "g": ["a", "a", "b", "a", "b", "a", "b", "a"],
    "t": [1, 2, 2, 5, 6, 9, 10, 10],
    "u": [3, 1, 2, 2, 5, 9, 0, 4],
    "x": [1.0, 2.0, None, 5.0, NAN, 6.0, 3.0, -1.0],
    "i": [4, None, 1, 2, 8, 3, 3, 7],
    "d": [dt.date(2020, 1, 1), dt.date(2020, 1, 2), dt.date(2020, 1, 2), dt.date(2020, 1, 5), dt.date(2020, 1, 6),
          dt.date(2020, 1, 9), dt.date(2020, 1, 10), dt.date(2020, 1, 10)],
})
BY = BY.with_columns(ts=pl.col("d").cast(pl.Datetime("ms")) + pl.duration(hours=pl.col("t")))
BY_FNS = ["sum", "mean", "min", "max", "std", "var", "median"]


@pytest.mark.parametrize("fn", BY_FNS)
@pytest.mark.parametrize("closed", ["right", "left", "both", "none"])
@pytest.mark.parametrize("col", ["x", "i"])
def test_rolling_by_integer_index(fn, closed, col):
    check_all(lambda pl: getattr(pl.col(col), "rolling_" + fn + "_by")("t", "3i", closed=closed), BY)
    check_select(lambda pl: getattr(pl.col(col), "rolling_" + fn + "_by")("u", "2i", closed=closed, min_samples=2), BY)


@pytest.mark.parametrize("fn", BY_FNS)
def test_rolling_by_temporal_index(fn):
    check_all(lambda pl: getattr(pl.col("x"), "rolling_" + fn + "_by")("d", "2d"), BY)
    check_all(lambda pl: getattr(pl.col("i"), "rolling_" + fn + "_by")("ts", "36h", closed="both"), BY)
    check_select(lambda pl: getattr(pl.col("i"), "rolling_" + fn + "_by")("ts", dt.timedelta(days=1, hours=1)), BY)


@pytest.mark.parametrize("fn", BY_FNS)
def test_rolling_by_an_index_with_nulls(fn):
    # A row without a `by` value is null and in no other row's window (unsorted, in agg and over).
    data = BY.with_columns(t=pl.when(pl.col("u") == 2).then(None).otherwise(pl.col("t")).reverse(),
                           d=pl.when(pl.col("u") > 4).then(None).otherwise(pl.col("d")))
    check_all(lambda pl: getattr(pl.col("x"), "rolling_" + fn + "_by")("t", "3i"), data)
    check_all(lambda pl: getattr(pl.col("i"), "rolling_" + fn + "_by")("d", "2d", closed="both"), data)


def test_rolling_quantile_and_rank_by():
    for method in ("nearest", "linear", "midpoint"):
        check_all(lambda pl: pl.col("x").rolling_quantile_by("t", "4i", quantile=0.3, interpolation=method), BY)
    # (Polars 2.1 gives an empty input's dtype to an empty result.)
    for method in ("average", "min", "max", "dense"):
        check_select(lambda pl: pl.col("i").rolling_rank_by("t", "4i", method), BY, edges=False)


def test_rolling_by_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").rolling_sum_by("t", "2d")), BY)
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").rolling_sum_by("d", "2i")), BY)
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").rolling_sum_by("x", "2i")), BY)
    # A rank needs its own row in the window.
    for closed in ("left", "none"):
        assert_same_error(lambda pl, lf: lf.select(pl.col("x").rolling_rank_by("t", "2i", closed=closed)), BY)
    check_select(lambda pl: pl.col("i").rolling_rank_by("t", "4i", closed="both"), BY, edges=False)


ROLLING_EXPRS = [
    lambda pl: pl.col("x").sum(),
    lambda pl: pl.col("x").mean(),
    lambda pl: pl.col("i").min(),
    lambda pl: pl.col("i").max(),
    lambda pl: pl.col("x").std(),
    lambda pl: pl.col("x").var(ddof=0),
    lambda pl: pl.col("i").median(),
    lambda pl: pl.col("i").quantile(0.3, "linear"),
    lambda pl: pl.col("x").count(),
    lambda pl: pl.len(),
    lambda pl: pl.col("i").first(),
    lambda pl: pl.col("i").n_unique(),
    lambda pl: pl.col("x"),
    lambda pl: pl.col("x").sum() * 2 - pl.col("i").min(),
    lambda pl: (pl.col("x") * pl.col("i")).sum(),
]


@pytest.mark.parametrize("build", ROLLING_EXPRS)
@pytest.mark.parametrize("period, offset, closed", [("2i", None, "right"), ("3i", None, "left"), ("3i", "0i", "right"),
                                                    ("4i", "-2i", "both"), ("1i", None, "none")])
def test_expr_rolling(build, period, offset, closed):
    assert_same(lambda pl, lf: lf.select(build(pl).rolling("t", period=period, offset=offset, closed=closed)), BY)
    assert_same(lambda pl, lf: lf.select(build(pl).rolling("t", period=period, offset=offset, closed=closed)),
                BY.clear())


def test_expr_rolling_by_dates_and_within_over():
    assert_same(lambda pl, lf: lf.select(pl.col("x").sum().rolling("d", period="2d")), BY)
    assert_same(lambda pl, lf: lf.select(pl.col("i").max().rolling("ts", period="1d", offset="-12h")), BY)
    assert_same(lambda pl, lf: lf.select(pl.col("x").sum().rolling("t", period="3i").over("g")), BY)


def test_expr_rolling_needs_a_sorted_index():
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").sum().rolling("u", period="2i")), BY)


@pytest.mark.parametrize("window_size, min_samples, ddof", [(3, None, 1), (10, 5, 1), (2, 1, 0), (4, None, 2)])
def test_rolling_cov_corr(window_size, min_samples, ddof):
    data = pl.DataFrame({
        "g": ["a", "b", "a", "a", "b", "a", "b", "a"],
        "x": [1.0, None, 2.5, 4.0, -1.0, 3.0, NAN, 2.0],
        "y": [2, 1, None, 3, 0, 1, 2, 5],
    })
    check_select(lambda pl: pl.rolling_cov("x", "y", window_size=window_size, min_samples=min_samples, ddof=ddof),
                 data)
    check_select(lambda pl: pl.rolling_corr(pl.col("x"), "y", window_size=window_size, min_samples=min_samples),
                 data)
    check_agg(lambda pl: pl.rolling_cov("x", "y", window_size=window_size, min_samples=min_samples, ddof=ddof),
              data)
    check_over(lambda pl: pl.rolling_corr("x", "y", window_size=window_size, min_samples=min_samples), data)


CALENDAR_DAYS = [dt.date(2024, 1, 31), dt.date(2024, 2, 29), dt.date(2024, 3, 15),
                 dt.date(2024, 3, 31), dt.date(2024, 4, 30), dt.date(2024, 5, 31)]


@pytest.mark.parametrize("closed", ["right", "left", "both", "none"])
@pytest.mark.parametrize(("period", "offset"), [("1mo", None), ("2mo", "-1mo"), ("1mo", "0d"), ("1y", None),
                                                ("1mo1d", None), ("3d", None), ("1q", "-2mo")])
@pytest.mark.parametrize("index", ["date", "datetime", "zoned"])
def test_rolling_group_by_with_calendar_durations(index, period, offset, closed):
    # Months clamp to the month's end, and the default offset (-period) ends each window at its row.
    days = CALENDAR_DAYS
    if index != "date":
        days = [dt.datetime(d.year, d.month, d.day, 12) for d in days]
    data = pl.DataFrame({"t": days, "v": [1, 2, None, 4, 5, 6]})
    if index == "zoned":
        data = data.with_columns(pl.col("t").dt.replace_time_zone("America/New_York"))
    assert_same(lambda m, lf: lf.rolling(index_column="t", period=period, offset=offset, closed=closed).agg(
        m.col("v").sum().alias("s"), m.col("v")), data)


@pytest.mark.parametrize("offset", ["0d", "1d", "-1d", None])
@pytest.mark.parametrize("closed", ["right", "left", "both", "none"])
def test_rolling_days_across_dst_are_calendar_days(offset, closed):
    # 2021-11-07 ends DST in Chicago: "2d" is two calendar days there, not 48 hours.
    def q(m, lf):
        return lf.rolling(index_column="t", period="2d", offset=offset, closed=closed).agg(m.col("v"))
    data = pl.DataFrame({"t": pl.datetime_range(dt.datetime(2021, 11, 6), dt.datetime(2021, 11, 9), "1d",
                                                time_zone="America/Chicago", eager=True), "v": [1, 4, 9, 155]})
    assert_same(q, data)
