"""Plan operations over every dtype frazil holds, and the temporal functions,
differential against Polars."""
import datetime as dt
import decimal

import polars as pl
import pytest

from fuzz.harness import assert_same

N = None
COLUMNS = {
    "bool": (pl.Boolean, [True, N, False, True, False]),
    "i8": (pl.Int8, [-128, 127, N, 0, 127]),
    "i16": (pl.Int16, [-32768, 5, N, 5, 32767]),
    "i32": (pl.Int32, [2**31 - 1, -(2**31), 0, N, 7]),
    "i64": (pl.Int64, [2**63 - 1, -(2**63), N, 0, -1]),
    "u8": (pl.UInt8, [255, 0, N, 1, 255]),
    "u16": (pl.UInt16, [65535, 0, 3, N, 3]),
    "u32": (pl.UInt32, [2**32 - 1, 0, N, 9, 9]),
    "u64": (pl.UInt64, [2**64 - 1, 0, 5, N, 2**63]),
    "f32": (pl.Float32, [float("nan"), -0.0, float("inf"), N, 1.5]),
    "f64": (pl.Float64, [-float("inf"), 0.0, float("nan"), 1e-308, N]),
    "str": (pl.String, ["", "a longer string value", N, "ä", "a"]),
    "bin": (pl.Binary, [b"", b"\x00\xff", N, b"abc", b"abc"]),
    "date": (pl.Date, [dt.date(1970, 1, 1), dt.date(1900, 3, 1), N, dt.date(2262, 4, 11), dt.date(2024, 2, 29)]),
    "dt_us": (pl.Datetime("us"), [dt.datetime(2024, 2, 29, 23, 59, 59, 999999), N, dt.datetime(1969, 12, 31, 23),
                                  dt.datetime(2000, 1, 1), dt.datetime(2000, 1, 1)]),
    "dt_ms_tz": (pl.Datetime("ms", "UTC"), [dt.datetime(2024, 1, 1, 12, tzinfo=dt.timezone.utc), N,
                                            dt.datetime(1999, 12, 31, tzinfo=dt.timezone.utc),
                                            dt.datetime(2024, 1, 1, 12, tzinfo=dt.timezone.utc),
                                            dt.datetime(2030, 5, 5, 5, 5, 5, tzinfo=dt.timezone.utc)]),
    "dur": (pl.Duration("us"), [dt.timedelta(days=-1), dt.timedelta(0), N, dt.timedelta(hours=5), dt.timedelta(0)]),
    "time": (pl.Time, [dt.time(0, 0), dt.time(23, 59, 59, 999999), N, dt.time(12, 30), dt.time(0, 0)]),
    "dec": (pl.Decimal(10, 2), [decimal.Decimal("1.25"), decimal.Decimal("-99999999.99"), N, decimal.Decimal("0"),
                                decimal.Decimal("1.25")]),
}
FRAME = pl.DataFrame({name: pl.Series(name, values, dtype=t) for name, (t, values) in COLUMNS.items()})
FRAME = FRAME.with_columns(g=pl.Series(["x", "y", "x", N, "y"]))
NAMES = list(COLUMNS)

OPS = [
    ("select", lambda pl, lf, c: lf.select(c, "g")),
    ("filter_not_null", lambda pl, lf, c: lf.filter(pl.col(c).is_not_null()).select(c)),
    ("filter_eq_first", lambda pl, lf, c: lf.filter(pl.col(c) == pl.col(c).first()).select(c)),
    ("sort", lambda pl, lf, c: lf.select(c).sort(c, nulls_last=True)),
    ("sort_desc", lambda pl, lf, c: lf.select(c, "g").sort(c, "g", descending=True)),
    ("group_by_key", lambda pl, lf, c: lf.group_by(c, maintain_order=True).agg(pl.len())),
    ("group_by_first_last", lambda pl, lf, c: lf.group_by("g", maintain_order=True).agg(pl.col(c).first(),
                                                                                         pl.col(c).last().alias("l"))),
    ("unique", lambda pl, lf, c: lf.select(c).unique(maintain_order=True)),
    ("min_max", lambda pl, lf, c: lf.select(pl.col(c).min().alias("lo"), pl.col(c).max().alias("hi"))),
    ("count_n_unique", lambda pl, lf, c: lf.select(pl.col(c).count().alias("n"), pl.col(c).n_unique().alias("u"))),
    ("is_null", lambda pl, lf, c: lf.select(pl.col(c).is_null())),
    ("fill_null_first", lambda pl, lf, c: lf.select(pl.col(c).fill_null(pl.col(c).first()))),
    ("self_join", lambda pl, lf, c: lf.select(c).join(lf.select(c, "g"), on=c, how="inner").sort("g", c)),
    ("concat", lambda pl, lf, c: pl.concat([lf.select(c), lf.select(c).reverse() if False else lf.select(c)])),
    ("when_then", lambda pl, lf, c: lf.select(pl.when(pl.col("g") == "x").then(pl.col(c)).otherwise(
        pl.col(c).last()))),
    ("shift", lambda pl, lf, c: lf.select(pl.col(c).shift(1))),
    ("cast_string", lambda pl, lf, c: lf.select(pl.col(c).cast(pl.String))),
]


@pytest.mark.parametrize("column", NAMES)
@pytest.mark.parametrize("op", [o for _, o in OPS], ids=[n for n, _ in OPS])
def test_operation_over_dtype(op, column):
    assert_same(lambda pl, lf: op(pl, lf, column), FRAME, chunks=2)


TEMPORAL = [
    ("year", lambda pl, c: pl.col(c).dt.year()),
    ("month", lambda pl, c: pl.col(c).dt.month()),
    ("day", lambda pl, c: pl.col(c).dt.day()),
    ("weekday", lambda pl, c: pl.col(c).dt.weekday()),
    ("ordinal_day", lambda pl, c: pl.col(c).dt.ordinal_day()),
    ("quarter", lambda pl, c: pl.col(c).dt.quarter()),
]
TIME_PARTS = [
    ("hour", lambda pl, c: pl.col(c).dt.hour()),
    ("minute", lambda pl, c: pl.col(c).dt.minute()),
    ("second", lambda pl, c: pl.col(c).dt.second()),
]


@pytest.mark.parametrize("column", ["date", "dt_us", "dt_ms_tz"])
@pytest.mark.parametrize("fn", [f for _, f in TEMPORAL + TIME_PARTS], ids=[n for n, _ in TEMPORAL + TIME_PARTS])
def test_temporal_parts(fn, column):
    assert_same(lambda pl, lf: lf.select(fn(pl, column).alias("out")), FRAME)


TEMPORAL_ARITH = [
    ("datetime_minus_datetime", lambda pl: pl.col("dt_us") - pl.col("dt_us").min()),
    ("datetime_plus_duration", lambda pl: pl.col("dt_us") + pl.col("dur")),
    ("date_minus_date", lambda pl: pl.col("date") - pl.col("date").max()),
    ("date_vs_datetime", lambda pl: pl.col("date") < pl.col("dt_us")),
    ("date_cast_datetime", lambda pl: pl.col("date").cast(pl.Datetime("ms"))),
    ("datetime_cast_date", lambda pl: pl.col("dt_us").cast(pl.Date)),
    ("duration_sum", lambda pl: pl.col("dur").sum()),
    ("date_is_between", lambda pl: pl.col("date").is_between(pl.lit(dt.date(1950, 1, 1)), pl.lit(dt.date(2100, 1, 1)))),
    ("date_eq_literal", lambda pl: pl.col("date") == dt.date(1970, 1, 1)),
    ("datetime_gt_literal", lambda pl: pl.col("dt_us") > dt.datetime(1999, 1, 1)),
    ("date_to_int", lambda pl: pl.col("date").cast(pl.Int32)),
]


@pytest.mark.parametrize("fn", [f for _, f in TEMPORAL_ARITH], ids=[n for n, _ in TEMPORAL_ARITH])
def test_temporal_expressions(fn):
    assert_same(lambda pl, lf: lf.select(fn(pl).alias("out")), FRAME)
