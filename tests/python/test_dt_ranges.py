"""pl.datetime / date / time / duration and pl.date_range(s) / datetime_range(s) /
time_range(s) / from_epoch, differential against Polars: intervals of every unit and
calendar intervals from the start (month ends), closed ends, time units, time zones across
DST, per-row ranges, nulls, before 1970 and after 2100."""
import datetime as dt

import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error

ONE = {"x": [1]}


@pytest.mark.parametrize("closed", ["both", "left", "right", "none"])
@pytest.mark.parametrize("interval", ["1d", "3d", "1w", "1mo", "1q", "1y", "2mo15d"])
def test_date_range(closed, interval):
    assert_same(lambda pl, lf: pl.DataFrame().lazy().select(pl.date_range(dt.date(2024, 1, 31), dt.date(2025, 3, 31),
                                                                          interval, closed=closed)), ONE)


@pytest.mark.parametrize("unit", [None, "ns", "us", "ms"])
@pytest.mark.parametrize("interval", ["1h", "90m", "1d", "1mo", "7ns", "1s500ms"])
def test_datetime_range(unit, interval):
    if interval == "7ns" and unit in ("us", "ms"):
        return
    start, end = dt.datetime(1969, 12, 31, 22), dt.datetime(1970, 1, 2, 3)
    if interval == "7ns":
        end = dt.datetime(1969, 12, 31, 22, 0, 0, 1)
    assert_same(lambda pl, lf: pl.DataFrame().lazy().select(pl.datetime_range(start, end, interval, time_unit=unit)),
                ONE)


@pytest.mark.parametrize("zone", ["Europe/Amsterdam", "America/New_York", "Asia/Kolkata"])
@pytest.mark.parametrize("interval", ["1h", "1d", "1mo", "30m"])
def test_datetime_range_zoned_across_dst(zone, interval):
    start, end = dt.datetime(2024, 3, 9), dt.datetime(2024, 4, 2)
    if interval in ("1h", "30m"):
        start, end = dt.datetime(2024, 3, 30, 22), dt.datetime(2024, 3, 31, 5)
    assert_same(lambda pl, lf: pl.DataFrame().lazy().select(pl.datetime_range(start, end, interval,
                                                                              time_zone=zone)), ONE)


def test_ranges_per_row():
    data = {"a": [dt.date(2024, 1, 1), dt.date(2024, 1, 5), None], "b": [dt.date(2024, 1, 3), dt.date(2024, 1, 4),
                                                                          dt.date(2024, 1, 1)]}
    assert_same(lambda pl, lf: lf.select(pl.date_ranges("a", "b").alias("d"),
                                         pl.datetime_ranges("a", "b", "12h").alias("t"),
                                         pl.date_ranges("a", dt.date(2024, 1, 6), closed="left").alias("e")), data)


def test_time_ranges():
    assert_same(lambda pl, lf: pl.DataFrame().lazy().select(pl.time_range(interval="6h")), ONE)
    assert_same(lambda pl, lf: pl.DataFrame().lazy().select(
        pl.time_range(dt.time(1, 30), dt.time(3), "15m", closed="right")), ONE)
    data = {"a": [dt.time(1), dt.time(22), None], "b": [dt.time(2), dt.time(23, 30), dt.time(1)]}
    assert_same(lambda pl, lf: lf.select(pl.time_ranges("a", "b", "20m")), data)


def test_range_errors():
    assert_same_error(lambda pl, lf: pl.DataFrame().lazy().select(pl.date_range(dt.date(2024, 1, 1),
                                                                                 dt.date(2024, 1, 3), "12h")), ONE,
                      kind="ComputeError")
    assert_same_error(lambda pl, lf: pl.DataFrame().lazy().select(pl.date_range(dt.date(2024, 1, 1),
                                                                                 dt.date(2024, 1, 3), "-1d")), ONE,
                      kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.date_range("a", dt.date(2024, 1, 3))),
                      {"a": [dt.date(2024, 1, 1), dt.date(2024, 1, 2)]})


def test_eager_ranges():
    import frazil as fz

    got = fz.date_range(dt.date(2024, 1, 1), dt.date(2024, 1, 3), eager=True)
    assert got.to_list() == pl.date_range(dt.date(2024, 1, 1), dt.date(2024, 1, 3), eager=True).to_list()
    got = fz.time_range(interval="8h", eager=True)
    assert got.to_list() == pl.time_range(interval="8h", eager=True).to_list()


@pytest.mark.parametrize("unit", ["ns", "us", "ms"])
@pytest.mark.parametrize("zone", [None, "Asia/Kolkata", "America/New_York"])
def test_datetime_constructor(unit, zone):
    data = {"y": [2024, 1969, None, 2150], "m": [2, 12, 1, 6], "d": [29, 31, 1, 30], "h": [13, 23, 0, 1]}
    if zone == "America/New_York":  # (no DST after 2099 in Polars' zone data; see test_time_zones)
        data = {k: v[:3] for k, v in data.items()}
    assert_same(lambda pl, lf: lf.select(
        pl.datetime("y", "m", "d", "h", 5, 6, 7, time_unit=unit, time_zone=zone).alias("t"),
        pl.date("y", "m", "d").alias("d"), pl.time("h", 30).alias("tm"),
        pl.datetime(2024, 1, 2).alias("lit")), data)


def test_constructor_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.date("y", 2, 30)), {"y": [2023]}, kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.datetime(2024, 1, 1, "h")), {"h": [24]}, kind="ComputeError")


@pytest.mark.parametrize("unit", [None, "ns", "us", "ms"])
def test_duration_constructor(unit):
    data = {"n": [1, -2, None, 0], "f": [1.5, -0.25, 2.0, None]}
    assert_same(lambda pl, lf: lf.select(
        pl.duration(weeks="n", days=2, hours=3, minutes=4, seconds=5, milliseconds=6, microseconds=7,
                    nanoseconds=8 if unit == "ns" else None, time_unit=unit).alias("a"),
        pl.duration(days="f", time_unit=unit).alias("b"),
        pl.duration(hours=1.5, minutes=2, time_unit=unit).alias("c")), data)


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns", "d"])
def test_from_epoch(unit):
    data = {"e": [0, 1704067200, -86400, None] + ([] if unit == "d" else [2**31])}
    assert_same(lambda pl, lf: lf.select(pl.from_epoch("e", time_unit=unit)), data)
    if unit == "d":  # beyond Date's 32 bits
        assert_same_error(lambda pl, lf: lf.select(pl.from_epoch("e", time_unit=unit)), {"e": [0, 2**31]},
                          kind="InvalidOperationError")
