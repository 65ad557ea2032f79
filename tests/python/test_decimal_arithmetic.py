"""Decimal arithmetic and rounding, differential against Polars 2.1: every operator gives
Decimal(38, max scale), products and quotients round half to even, mixed integer operands
meet in Decimal(38, s), floats in Float64; overflow and division by zero are ComputeErrors;
round/floor/ceil keep the dtype; sums past 38 digits fail; nulls, several chunks, agg/over."""
from decimal import Decimal as D

import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_same, assert_same_error


def dec_frame():
    return pl.DataFrame({
        "g": [1, 2, 1, 2, 1, 3],
        "a": pl.Series([D("1.25"), D("-3.50"), None, D("0.05"), D("0.15"), D("99999999.99")], dtype=pl.Decimal(10, 2)),
        "b": pl.Series([D("0.125"), D("2.000"), D("1"), D("0.5"), D("-0.5"), D("-7.25")], dtype=pl.Decimal(5, 3)),
        "i": [2, 3, 4, -1, 7, None],
        "f": [1.5, 2.0, None, 0.1, -2.5, 3.0],
    })


@pytest.mark.parametrize("chunks", [1, 3])
def test_operators(chunks):
    df = dec_frame()
    assert_same(lambda pl, lf: lf.select((pl.col("a") + pl.col("b")).alias("add"), (pl.col("a") - pl.col("b")).alias("sub"),
                                         (pl.col("a") * pl.col("b")).alias("mul"), (pl.col("a") / pl.col("b")).alias("div"),
                                         (pl.col("a") // pl.col("b")).alias("fd"), (pl.col("a") % pl.col("b")).alias("mod")),
                df, chunks=chunks)
    assert_same(lambda pl, lf: lf.select((pl.col("a") + pl.col("i")).alias("ai"), (pl.col("i") - pl.col("a")).alias("ia"),
                                         (pl.col("a") * 2).alias("a2"), (pl.col("a") / 3).alias("a3"),
                                         (pl.col("a") * 1.5).alias("af"), (pl.col("a") * pl.col("f")).alias("aff"),
                                         (pl.col("a") > 1).alias("gt"), (pl.col("a") == pl.col("b")).alias("eq")),
                df, chunks=chunks)


def test_errors():
    df = dec_frame()
    assert_same_error(lambda pl, lf: lf.select(pl.col("a") / (pl.col("b") * 0)), df, kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("a") % (pl.col("b") * 0)), df, kind="ComputeError")
    big = pl.DataFrame({"d": pl.Series([D(10**37), D(10**38 - 1)], dtype=pl.Decimal(38, 0))})
    assert_same_error(lambda pl, lf: lf.select(pl.col("d") * pl.col("d")), big, kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("d").sum()), big, kind="ComputeError")
    with pytest.raises(fz.ComputeError, match="overflow in decimal addition in sum"):
        fz.Series("d", [D(10**38 - 1)] * 2, dtype=fz.Decimal(38, 0)).sum()


@pytest.mark.parametrize("chunks", [1, 2])
def test_rounding_keeps_the_dtype(chunks):
    df = pl.DataFrame({"x": pl.Series([D("1.505"), D("2.5"), D("-2.5"), D("0.125"), None, D("-1.001")],
                                      dtype=pl.Decimal(10, 3))})
    assert_same(lambda pl, lf: lf.select(pl.col("x").round(2).alias("r2"), pl.col("x").round(0).alias("r0"),
                                         pl.col("x").round(1, mode="half_away_from_zero").alias("away"),
                                         pl.col("x").round(5).alias("r5"),
                                         pl.col("x").floor().alias("floor"), pl.col("x").ceil().alias("ceil")),
                df, chunks=chunks)


@pytest.mark.parametrize("chunks", [1, 3])
def test_in_aggregations(chunks):
    df = dec_frame()
    assert_same(lambda pl, lf: lf.group_by("g").agg((pl.col("a") * pl.col("b")).sum().alias("s"),
                                                    (pl.col("a") / pl.col("b")).alias("l")).sort("g"),
                df, chunks=chunks)
    assert_same(lambda pl, lf: lf.select((pl.col("a") - pl.col("a").mean().over("g").cast(pl.Decimal(10, 2))).alias("d")),
                df, chunks=chunks)


def test_construction_from_floats_and_wide_values():
    s = fz.Series("d", [D(10**38 - 1), None], dtype=fz.Decimal(38, 0))
    assert s.to_list() == [D(10**38 - 1), None]
    df = fz.DataFrame({"x": [1.0, 0.125, None]}, schema={"x": fz.Decimal(15, 2)})
    expected = pl.DataFrame({"x": [1.0, 0.125, None]}, schema={"x": pl.Decimal(15, 2)})
    assert df["x"].to_list() == expected["x"].to_list()


def test_float_to_decimal_rounds_the_double_product():
    # Polars multiplies by 10^scale in double and rounds half to even: 2.675 -> 2.68, 1.005 -> 1.00.
    df = pl.DataFrame({"x": [1.245, 0.125, 2.5, 2.675, 0.135, 1.005, 2.345, 0.015, -1.725, None]})
    assert_same(lambda pl, lf: lf.select(pl.col("x").cast(pl.Decimal(10, 2))), df)
