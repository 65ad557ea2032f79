"""dt.offset_by, dt.truncate, dt.round, dt.month_start, dt.month_end, differential against
Polars: Polars' duration language (ns .. y, negative, compound "1mo2d"), every time unit,
Date and Datetime, zoned values across DST gaps and overlaps (calendar days keep the
clock time), leap days, before 1970, nulls and per-row durations."""
import datetime as dt

import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error

UNITS = ["ns", "us", "ms"]
ZONES = ["Europe/Amsterdam", "America/New_York", "Asia/Kolkata"]

DATETIMES = [
    dt.datetime(2024, 1, 31, 10, 30, 15, 123456),
    dt.datetime(2024, 2, 29, 23, 59, 59, 999999),
    dt.datetime(2023, 3, 26, 1, 30),      # before Amsterdam's 2023 gap
    dt.datetime(2024, 3, 9, 2, 30),       # a day before New York's gap
    dt.datetime(2024, 10, 26, 2, 30),     # a day before Amsterdam's overlap
    dt.datetime(2024, 11, 2, 1, 30),      # a day before New York's overlap
    dt.datetime(1969, 12, 31, 23, 59, 59),
    dt.datetime(1900, 3, 1, 12),
    dt.datetime(2150, 1, 15, 6),
    None,
]
DATES = [dt.date(2024, 1, 31), dt.date(2024, 2, 29), dt.date(1969, 12, 31), dt.date(1900, 3, 1),
         dt.date(2150, 1, 15), None]

OFFSETS = ["1d", "-1d", "1mo", "-1mo", "1y", "1q", "2w", "1mo2d", "-3h15m", "1h", "25h", "90m", "1s", "500ms",
           "7us", "3ns", "0s", "-1y2mo3w4d5h6m7s"]
EVERIES = ["1d", "2d", "1w", "2w", "1mo", "3mo", "1q", "1y", "1h", "6h", "15m", "1s", "250ms", "10us", "7ns"]


def naive(unit, values=DATETIMES):
    return pl.DataFrame({"t": values}, schema={"t": pl.Datetime(unit)})


def zoned(zone, unit, values=DATETIMES):
    # Polars' zone data merges Amsterdam into Brussels before 1970 (frazil reads tzdata's
    # own history, as zoneinfo does): those instants are left out of the comparison.
    if zone == "Europe/Amsterdam":
        values = [v for v in values if v is None or v.year >= 1970]
    return naive(unit, values).with_columns(pl.col("t").dt.replace_time_zone(zone, non_existent="null",
                                                                           ambiguous="earliest"))


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("by", OFFSETS)
def test_offset_by_naive(unit, by):
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.offset_by(by)), naive(unit), chunks=2)


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("by", ["1d", "-1d", "1w", "1mo", "-1mo", "1y", "24h", "1h", "1mo2d"])
def test_offset_by_zoned_across_dst(zone, by):
    values = [v for v in DATETIMES if v is None or v.year < 2100]
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.offset_by(by)), zoned(zone, "us", values))


@pytest.mark.parametrize("by", ["1d", "-1d", "1mo", "1y", "2w", "1h", "-25h", "1mo2d"])
def test_offset_by_dates(by):
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.offset_by(by)), {"d": DATES})


def test_offset_by_per_row_and_nulls():
    data = {"t": [dt.datetime(2024, 1, 31), dt.datetime(2024, 1, 31), None, dt.datetime(2020, 2, 29)],
            "by": ["1mo", None, "1d", "-4y"]}
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.offset_by(pl.col("by"))), data)
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.offset_by(pl.lit(None, dtype=pl.String))), data)


@pytest.mark.parametrize("bad", ["1x", "1", "d", "1d-1h", "--1d", "1 d"])
def test_offset_by_bad_duration(bad):
    assert_same_error(lambda pl, lf: lf.select(pl.col("t").dt.offset_by(bad)), naive("us"),
                      kind="InvalidOperationError")


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("every", EVERIES)
def test_truncate_and_round_naive(unit, every):
    # (Polars panics rounding to an interval finer than the time unit; only truncate there.)
    finer = (unit == "ms" and every in ("10us", "7ns")) or (unit == "us" and every == "7ns")
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.truncate(every).alias("tr"),
                                         *([] if finer else [pl.col("t").dt.round(every).alias("ro")])),
                naive(unit), chunks=2)


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("every", ["1d", "1w", "1mo", "1y", "1h", "30m"])
def test_truncate_and_round_zoned(zone, every):
    values = [v for v in DATETIMES if v is None or v.year < 2100]
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.truncate(every).alias("tr"),
                                         pl.col("t").dt.round(every).alias("ro")), zoned(zone, "us", values))


@pytest.mark.parametrize("every", ["1d", "3d", "1w", "1mo", "1q", "1y", "12h"])
def test_truncate_and_round_dates(every):
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.truncate(every).alias("tr"),
                                         pl.col("d").dt.round(every).alias("ro")), {"d": DATES})


def test_truncate_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("t").dt.truncate("-1d")), naive("us"), kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("t").dt.truncate("1mo1d")), naive("us"), kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("t").dt.round("-1h")), naive("us"), kind="ComputeError")


def test_truncate_timedelta_and_per_row():
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.truncate(dt.timedelta(hours=2, minutes=30))), naive("us"))
    data = {"t": [dt.datetime(2024, 5, 17, 13, 45), dt.datetime(2024, 5, 17, 13, 45), None],
            "every": ["1h", "1mo", "1d"]}
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.truncate(pl.col("every"))), data)


@pytest.mark.parametrize("unit", UNITS)
def test_month_start_and_end(unit):
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.month_start().alias("s"),
                                         pl.col("t").dt.month_end().alias("e")), naive(unit))
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.month_start().alias("s"),
                                         pl.col("d").dt.month_end().alias("e")), {"d": DATES})


@pytest.mark.parametrize("zone", ZONES)
def test_month_start_and_end_zoned(zone):
    values = [dt.datetime(2024, 3, 15, 12), dt.datetime(2024, 10, 31, 23), dt.datetime(1999, 2, 10), None]
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.month_start().alias("s"),
                                         pl.col("t").dt.month_end().alias("e")), zoned(zone, "ms", values))


def test_not_temporal_is_an_error():
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").dt.truncate("1d")), {"x": [1, 2]})


@pytest.mark.parametrize("tz", [None, "UTC", "Asia/Tokyo"])
@pytest.mark.parametrize("unit", ["us", "ns", "ms"])
def test_parts_of_datetimes_beyond_the_calendar_are_null(tz, unit):
    # A present value beyond chrono's years (-262144 ..= 262143) has no parts in Polars.
    data = pl.DataFrame({"i": [9_000_000_000_000_000_000, 0, None, -9_000_000_000_000_000_000]})
    q = (lambda m, lf: lf.select(m.col("i").cast(m.Datetime(unit, tz)).alias("t")).select(
        *[getattr(m.col("t").dt, p)().alias(p) for p in ("year", "month", "day", "hour", "minute", "second")]))
    assert_same(q, data)
