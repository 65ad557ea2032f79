"""A Date, Datetime or Time compared with a string raises InvalidOperationError, as in
Polars (regression: frazil cast the date to text and compared strings, so
`col("when") > "2024-03-01"` compared text and `> "garbage"` silently returned no rows).
Text becomes a temporal only through str.to_date / to_datetime / to_time: the String ->
temporal casts were removed in Polars 2."""
import datetime as dt

import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_same, assert_same_error

DATA = {
    "when": [dt.date(2024, 1, 1), dt.date(2024, 5, 1), None],
    "at": [dt.datetime(2024, 1, 1, 12), dt.datetime(2024, 5, 1), None],
    "tm": [dt.time(1, 2), dt.time(23, 0), None],
    "s": ["2024-03-01", "garbage", None],
}


@pytest.mark.parametrize("column", ["when", "at", "tm"])
@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
@pytest.mark.parametrize("rhs", ["2024-03-01", "garbage", "column"])
def test_temporal_vs_string_raises(column, op, rhs):
    def query(pl, lf):
        other = pl.col("s") if rhs == "column" else pl.lit(rhs)
        return lf.filter({"==": pl.col(column) == other, "!=": pl.col(column) != other,
                          "<": pl.col(column) < other, "<=": pl.col(column) <= other,
                          ">": pl.col(column) > other, ">=": pl.col(column) >= other}[op])

    assert_same_error(query, DATA, kind="InvalidOperationError")


def test_python_string_on_the_left_and_message():
    assert_same_error(lambda pl, lf: lf.select(pl.lit("2024-03-01") < pl.col("when")), DATA,
                      kind="InvalidOperationError")
    with pytest.raises(fz.InvalidOperationError, match="cannot compare 'date/datetime/time' to a string value"):
        fz.DataFrame(DATA).filter(fz.col("when") > "garbage")


def test_is_between_with_string_bounds_raises():
    assert_same_error(lambda pl, lf: lf.select(pl.col("when").is_between(pl.lit("2024-01-01"), pl.lit("2024-06-01"))),
                      DATA, kind="InvalidOperationError")


def test_casting_text_to_temporal_was_removed():
    for dtype in (pl.Date, pl.Datetime("us"), pl.Time, pl.Datetime("ms", "Asia/Tokyo")):
        assert_same_error(lambda pl, lf, d=dtype: lf.select(pl.col("s").cast(d)), DATA, kind="InvalidOperationError")
    with pytest.raises(fz.InvalidOperationError, match="Use `str.to_date\\(\\)` instead"):
        fz.DataFrame(DATA).select(fz.col("s").cast(fz.Date))


def test_native_python_values_and_explicit_casts_still_compare():
    assert_same(lambda pl, lf: lf.filter(pl.col("when") > dt.date(2024, 3, 1)), DATA)
    assert_same(lambda pl, lf: lf.filter(pl.col("at") <= dt.datetime(2024, 3, 1)), DATA)
    assert_same(lambda pl, lf: lf.filter(pl.col("when").cast(pl.String) > "2024-03"), DATA)
    # A string supertype is still allowed where Polars allows it (fill_null, when/then).
    assert_same(lambda pl, lf: lf.select(pl.col("when").fill_null("none")), DATA)
