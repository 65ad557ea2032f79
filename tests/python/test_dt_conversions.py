"""dt.date, dt.time, dt.timestamp, dt.epoch, dt.cast_time_unit, dt.total_*, dt.combine,
dt.replace, dt.to_string / dt.strftime, differential against Polars: every time unit,
zoned values (local date, time and offset), negative values and durations, nulls."""
import datetime as dt

import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error

UNITS = ["ns", "us", "ms"]
VALUES = [dt.datetime(2024, 2, 29, 13, 45, 59, 123456), dt.datetime(1969, 12, 31, 23, 59, 59, 999999),
          dt.datetime(1900, 1, 1), dt.datetime(2150, 12, 31, 0, 0, 0, 1), None]
ZONES = ["America/New_York", "Asia/Kolkata", "Europe/Amsterdam"]


def frame(unit, zone=None):
    df = pl.DataFrame({"t": VALUES}, schema={"t": pl.Datetime(unit)})
    if zone:
        values = VALUES if zone != "Europe/Amsterdam" else [v for v in VALUES if v is None or 1970 <= v.year < 2100]
        df = pl.DataFrame({"t": values}, schema={"t": pl.Datetime(unit)})
        df = df.with_columns(pl.col("t").dt.replace_time_zone(zone))
    return df


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("zone", [None] + ZONES)
def test_date_time_timestamp_epoch(unit, zone):
    assert_same(lambda pl, lf: lf.select(
        pl.col("t").dt.date().alias("d"), pl.col("t").dt.time().alias("tm"),
        *[pl.col("t").dt.timestamp(u).alias(f"ts_{u}") for u in UNITS],
        *[pl.col("t").dt.epoch(u).alias(f"ep_{u}") for u in ["ns", "us", "ms", "s", "d"]],
        *[pl.col("t").dt.cast_time_unit(u).alias(f"cu_{u}") for u in UNITS]), frame(unit, zone), chunks=2)


def test_dates():
    data = {"d": [dt.date(2024, 2, 29), dt.date(1969, 12, 31), None]}
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.date().alias("d"), pl.col("d").dt.timestamp("ms").alias("ts"),
                                         pl.col("d").dt.epoch("s").alias("s"), pl.col("d").dt.epoch("d").alias("days")),
                data)


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("fractional", [False, True])
def test_duration_totals(unit, fractional):
    data = pl.DataFrame({"du": [dt.timedelta(days=3, hours=4, microseconds=5), dt.timedelta(seconds=-90),
                                dt.timedelta(microseconds=-1), dt.timedelta(0), None]},
                        schema={"du": pl.Duration(unit)})
    names = ["days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"]
    assert_same(lambda pl, lf: lf.select(
        *[getattr(pl.col("du").dt, f"total_{n}")(fractional=fractional).alias(n) for n in names],
        pl.col("du").dt.cast_time_unit("ms").alias("ms")), data)


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("zone", [None, "Asia/Kolkata", "America/New_York"])
def test_combine(unit, zone):
    data = frame("us", zone).with_columns(tm=pl.Series([dt.time(1, 2, 3, 456789), None, dt.time(23, 59), dt.time(0),
                                                        dt.time(12)][: frame("us", zone).height]))
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.combine(pl.col("tm"), unit).alias("c"),
                                         pl.col("t").dt.combine(dt.time(6, 30)).alias("k"),
                                         pl.col("t").dt.date().dt.combine(pl.col("tm"), unit).alias("fromdate")),
                data)


@pytest.mark.parametrize("zone", [None, "Asia/Kolkata"])
def test_replace(zone):
    data = frame("us", zone).with_columns(y=pl.Series([2000, None, 1999, 2001, 2024][: frame("us", zone).height]))
    assert_same(lambda pl, lf: lf.select(
        pl.col("t").dt.replace(year=2020).alias("y"), pl.col("t").dt.replace(month=3, day=1).alias("md"),
        pl.col("t").dt.replace(hour=5, minute=6, second=7, microsecond=8).alias("hms"),
        pl.col("t").dt.replace(year=pl.col("y")).alias("per_row")), data)
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.replace(year=2023, day=15)),
                {"d": [dt.date(2024, 2, 29) + dt.timedelta(days=1), dt.date(1960, 5, 5), None]})


def test_replace_of_one_value_by_columns():
    # A one-value Series literal broadcast against per-row parts (named as the Series), str
    # parts being column names.
    data = {"year": [None, 2, 3], "month": [1, None, 3], "day": [1, 2, None], "hour": [1, 2, 3]}
    assert_same(lambda pl, lf: lf.select(pl.lit(pl.Series("dates", [dt.datetime(2088, 8, 8, 8, 8, 8, 8)])).dt.replace(
        year="year", month="month", day="day", hour="hour")), data)


def test_replace_invalid_date_raises():
    assert_same_error(lambda pl, lf: lf.select(pl.col("d").dt.replace(year=2023)),
                      {"d": [dt.date(2024, 2, 29)]}, kind="ComputeError")


FORMATS = ["%Y-%m-%d %H:%M:%S", "%F %T%.f", "%d/%m/%y %I:%M %p", "%A %e %B %Y", "%a %b %j %U %W %V %G %u %w",
           "%H%M%S%.3f|%.6f|%.9f|%3f|%6f|%9f|%f", "%c", "%D %R %r", "%C %g %k %l %P %%", "%s", "%-d/%-m %_H",
           "literal only", "%Y%m%d", "%T%.f"]


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_strftime_naive(unit, fmt):
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.strftime(fmt)), frame(unit))


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("fmt", ["%Y-%m-%d %H:%M:%S %z", "%+", "%Z %:z %::z %:::z", "%F %T%.f%:z", "%s"])
def test_strftime_zoned(zone, fmt):
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.strftime(fmt)), frame("us", zone))


@pytest.mark.parametrize("unit", UNITS)
def test_to_string_iso_and_dtypes(unit):
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.to_string().alias("iso"),
                                         pl.col("t").dt.to_string("iso:strict").alias("strict"),
                                         pl.col("t").dt.date().dt.to_string("%d.%m.%Y").alias("d"),
                                         pl.col("t").dt.time().dt.to_string().alias("tm"),
                                         pl.col("t").dt.time().dt.strftime("%H:%M").alias("hm")), frame(unit))
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.to_string()), frame(unit, "Asia/Kolkata"))


@pytest.mark.parametrize("unit", UNITS)
def test_duration_to_string(unit):
    data = pl.DataFrame({"du": [dt.timedelta(days=3, hours=4, microseconds=5), dt.timedelta(seconds=-90),
                                dt.timedelta(microseconds=-1500), dt.timedelta(0), None]},
                        schema={"du": pl.Duration(unit)})
    assert_same(lambda pl, lf: lf.select(pl.col("du").dt.to_string().alias("iso"),
                                         pl.col("du").dt.to_string("polars").alias("polars")), data)


def test_strftime_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("t").dt.strftime("%z")), frame("us"), kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("d").dt.strftime("%H")), {"d": [dt.date(2024, 1, 1)]},
                      kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("du").dt.to_string("%H")),
                      {"du": [dt.timedelta(1)]}, kind="InvalidOperationError")
