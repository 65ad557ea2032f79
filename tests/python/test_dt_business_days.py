"""dt.add_business_days, dt.is_business_day and pl.business_day_count, differential
against Polars: week masks, holidays (sorted or not, on weekends, duplicated, per row),
rolling forward/backward, negative counts, Datetime inputs (zoned ones in local time)."""
import datetime as dt
import re

import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error

DATES = [dt.date(2024, 1, 1) + dt.timedelta(days=k) for k in range(0, 40, 3)] + [None, dt.date(1969, 12, 27)]
HOLIDAYS = [dt.date(2024, 1, 10), dt.date(2024, 1, 1), dt.date(2024, 1, 13), dt.date(2024, 1, 10)]
MASKS = [(True, True, True, True, True, False, False), (True, False, True, False, True, False, True),
         (False, False, False, False, False, False, True)]


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("holidays", [(), HOLIDAYS])
@pytest.mark.parametrize("n", [0, 1, 5, -3, 17, -40])
def test_add_business_days(mask, holidays, n):
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.add_business_days(n, week_mask=mask, holidays=holidays,
                                                                          roll="forward").alias("f"),
                                         pl.col("d").dt.add_business_days(n, week_mask=mask, holidays=holidays,
                                                                          roll="backward").alias("b")),
                {"d": DATES})


def test_add_business_days_raise_and_per_row():
    assert_same_error(lambda pl, lf: lf.select(pl.col("d").dt.add_business_days(1)),
                      {"d": [dt.date(2024, 1, 6)]}, kind="ComputeError")
    data = {"d": [dt.date(2024, 1, 1), dt.date(2024, 1, 2), None], "n": [1, None, 3]}
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.add_business_days(pl.col("n"))), data)
    # A str n is a column name.
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.add_business_days("n", week_mask=[True] * 6 + [False])),
                data)


@pytest.mark.parametrize("zone", [None, "Asia/Kolkata", "America/New_York"])
def test_add_business_days_datetimes(zone):
    df = pl.DataFrame({"t": [dt.datetime(2024, 1, 5, 13, 30), dt.datetime(2024, 3, 8, 1, 30), None]})
    if zone:
        df = df.with_columns(pl.col("t").dt.replace_time_zone(zone))
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.add_business_days(2)), df)


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("holidays", [(), HOLIDAYS])
def test_is_business_day(mask, holidays):
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.is_business_day(week_mask=mask, holidays=holidays)),
                {"d": DATES})


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("holidays", [(), HOLIDAYS])
def test_business_day_count(mask, holidays):
    data = {"a": DATES, "b": list(reversed(DATES))}
    assert_same(lambda pl, lf: lf.select(pl.business_day_count("a", "b", week_mask=mask, holidays=holidays)), data)


def test_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("d").dt.is_business_day(week_mask=[False] * 7)),
                      {"d": [dt.date(2024, 1, 1)]}, kind="ComputeError")
    import frazil as fz

    for m in (pl, fz):
        with pytest.raises(ValueError, match=r"expected a sequence of length 7 \(got 2\)"):
            m.col("d").dt.add_business_days("n", week_mask=(False, 0))
        with pytest.raises(ValueError, match=r"`roll` must be one of \{'raise', 'forward', 'backward'\}, got x"):
            m.col("d").dt.add_business_days("n", roll="x")
    for start, n, msg in [([dt.timedelta(1)], 2, "expected date or datetime, got duration"),
                          ([dt.date(2020, 1, 1)], 1.5, "expected Int64, Int32, UInt64, or UInt32, got f64")]:
        for m in (pl, fz):
            with pytest.raises(m.exceptions.InvalidOperationError, match=re.escape(msg)):
                m.DataFrame({"d": start}).select(m.col("d").dt.add_business_days(n, week_mask=[True] * 7))


def test_holidays_per_row_from_a_series():
    # A Series of holidays is a list per row (its length must match), not one list for all.
    data = {"d": [dt.date(2020, 1, 1), dt.date(2020, 1, 2), dt.date(2020, 1, 2)], "n": [5, 5, 7]}
    per_row = [[dt.date(2020, 1, 3)], [dt.date(2020, 1, 6)], []]
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.add_business_days("n", holidays=pl.Series(per_row)).alias("a"),
                                         pl.col("d").dt.is_business_day(holidays=pl.Series(per_row)).alias("b")), data)
    # A Series of dates is one list for all rows.
    assert_same(lambda pl, lf: lf.select(pl.col("d").dt.is_business_day(
        holidays=pl.Series([dt.date(2020, 1, 2), dt.date(2020, 1, 1), dt.date(2020, 1, 9)], dtype=pl.Date))), data)
    for bad, kind in [([[dt.date(2020, 1, 3)], [None], []], "ComputeError"), ([[dt.date(2020, 1, 3)], []], "ShapeError"),
                      (["abc", "xx", "def"], "ComputeError")]:
        assert_same_error(lambda pl, lf, b=bad: lf.select(pl.col("d").dt.add_business_days("n", holidays=pl.Series(b))),
                          data, kind=kind)
