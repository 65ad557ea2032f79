"""str.strptime / to_date / to_datetime / to_time, differential against Polars: chrono's
parsing rules (widths, whitespace, names, fractions, offsets, %s, %j, ISO weeks, leap
seconds), format inference from the data, exact=False, strict errors naming the column and
the values, time zones (ambiguous local times), every time unit, before 1970, after 2100."""
import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error

DATETIMES = [" 2024-01-05 10:00", "2024-01- 5 10:00", "2024-1-5 1:2", "24-01-05 10:00", "-0044-03-15 10:00",
             "2024-01-05  10:00", "2024-01-05\t10:00", "002024-01-05 10:00", "2024-01-05 10:00 ", "2024-01-0510:00",
             "2024-02-30 10:00", "2024-01-05 24:00", "1900-02-28 23:59", "2150-12-31 00:00", None, ""]


@pytest.mark.parametrize("unit", ["ns", "us", "ms"])
def test_to_datetime_with_format(unit):
    # (Polars wraps years outside the nanosecond range around silently; frazil gives null.)
    values = [v for v in DATETIMES if unit != "ns" or v is None or not v.startswith(("24-", "-0044"))]
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime("%Y-%m-%d %H:%M", time_unit=unit,
                                                                      strict=False)), {"s": values}, chunks=2)


FORMATS = [
    ("%Y-%m-%d %H:%M:%S%.f", ["2024-01-05 10:00:00.5", "2024-01-05 10:00:00.123456789123", "2024-01-05 10:00:00",
                               "2024-01-05 10:00:00.", "2024-01-05 10:00:60"]),
    ("%Y-%m-%d %H:%M:%S.%f", ["2024-01-05 10:00:00.5", "2024-01-05 10:00:00.123456"]),
    ("%Y-%m-%d %H:%M:%S%.3f", ["2024-01-05 10:00:00.500", "2024-01-05 10:00:00.5"]),
    ("%d %B %Y %I:%M%p", ["05 January 2024 3:05pm", "05 jan 2024 3:05PM", "5 JANUARY 2024 12:05am",
                          "05 Janu 2024 3:05pm"]),
    ("%A %d %b %Y %H:%M", ["Friday 05 Jan 2024 10:00", "Fri 05 Jan 2024 10:00", "Mon 05 Jan 2024 10:00"]),
    ("%Y-%j %H:%M", ["2024-005 10:00", "2024-366 10:00", "2023-366 10:00"]),
    ("%G-W%V-%u %H:%M", ["2024-W01-5 10:00", "2020-W53-7 10:00"]),
    ("%s", ["1704448800", "-1", "1704448800.5"]),
    ("%Y%m%d%H%M", ["202401051000", "2024010510"]),
    ("%m/%d/%y %H:%M", ["1/5/24 10:00", "12/31/69 23:59", "01/01/70 00:00"]),
    ("%Y-%m-%d %H:%M %Z", ["2024-01-05 10:00 CET"]),
    ("%Y-%m-%dT%H:%M:%S", ["2024-01-05T10:00:00", "2024-01-05 10:00:00"]),
]


@pytest.mark.filterwarnings("ignore::polars.exceptions.ChronoFormatWarning")
@pytest.mark.parametrize("fmt,values", FORMATS)
def test_formats(fmt, values):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime(fmt, strict=False)), {"s": values + [None]})


@pytest.mark.parametrize("fmt", ["%Y-%m-%d %H:%M %#z", "%Y-%m-%d %H:%M %z", "%Y-%m-%d %H:%M %:z"])
def test_offsets(fmt):
    values = ["2024-01-05 10:00 +01:00", "2024-01-05 10:00 +0100", "2024-01-05 10:00 +01", "2024-01-05 10:00 Z",
              "2024-01-05 10:00 -05:30", "2024-01-05 10:00", None]
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime(fmt, strict=False)), {"s": values})
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime(fmt, strict=False,
                                                                      time_zone="Asia/Kolkata")), {"s": values})


def test_rfc3339():
    values = ["2024-01-05T10:00:00+01:00", "2024-01-05T10:00:00.5Z", "2024-01-05 10:00:00Z", None]
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime("%+", strict=False)), {"s": values})


def test_to_date_and_to_time():
    dates = {"s": ["2024-01-31", "2024-1-5", "2024-02-30", "x", "2024/01/31", " 2024-01-31", "1969-12-31",
                   "2024-01-31 12:00", None, "2000-02-29", "20240131"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_date("%Y-%m-%d", strict=False)), dates)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_date("%Y%m%d", strict=False)), dates)
    times = {"s": ["10:05", "10:05:07.123", "23:59:60", "24:00", "1:2", None]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_time("%H:%M", strict=False).alias("a"),
                                         pl.col("s").str.to_time("%H:%M:%S%.f", strict=False).alias("b")), times)


@pytest.mark.parametrize("values", [
    ["2024-01-31", "2024-02-01", None],
    ["31/01/2024", "01/02/2024"],
    ["2024-01-31 10:00:00", "2024-01-31T11:30"],
    ["31.01.2024 10:00", "01.02.2024"],
    ["20240131T103000"],
    [None, None],
])
def test_inference(values):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime(strict=False).alias("dt"),
                                         pl.col("s").str.to_date(strict=False).alias("d")),
                pl.DataFrame({"s": values}, schema={"s": pl.String}))


def test_inference_of_times_and_zoned_text():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_time(strict=False)), {"s": ["10:01:02.5", "23:00", None]})
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.to_time()), {"s": ["10:01:02.5", "23:00", None]},
                      kind="InvalidOperationError")
    zoned = {"s": ["2024-01-31 10:00:00+01:00", None]}
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.to_datetime()), zoned, kind="ComputeError")
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime(time_zone="UTC")), zoned)
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.to_date()), {"s": ["Jan 31 2024"]},
                      kind="ComputeError")


def test_not_exact():
    data = {"s": ["abc 2024-01-31 def", "on 2024-02-29!", "no date", None, "x2024-13-01 2024-12-01"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_date("%Y-%m-%d", exact=False, strict=False)), data)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime("%Y-%m-%d", exact=False, strict=False)), data)


def test_strict_error_names_column_and_values():
    import frazil as fz

    data = {"when": ["2024-01-31", "2024-13-01", None, "x"]}
    assert_same_error(lambda pl, lf: lf.select(pl.col("when").str.to_date()), data, kind="InvalidOperationError")
    with pytest.raises(fz.InvalidOperationError,
                       match=r"conversion from `str` to `date` failed in column 'when' for 2 out of 4 values: "
                             r"\[\"2024-13-01\", \"x\"\]"):
        fz.DataFrame(data).select(fz.col("when").str.to_date("%Y-%m-%d"))


@pytest.mark.parametrize("bad", ["%Y-%m-%d %H", "%Y %M", "%S", "%I:%M", "%H:%M %p"])
def test_invalid_formats(bad):
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.to_datetime(bad)), {"s": ["2024"]},
                      kind="ComputeError")


@pytest.mark.parametrize("zone", ["Europe/Amsterdam", "America/New_York", "Asia/Kolkata"])
@pytest.mark.parametrize("ambiguous", ["earliest", "latest", "null"])
def test_time_zones(zone, ambiguous):
    values = ["2024-10-27 02:30", "2024-11-03 01:30", "2024-07-01 12:00", "1960-01-01 00:00", None]
    if zone == "Europe/Amsterdam":
        values = [v for v in values if v is None or not v.startswith("1960")]
    # ambiguous="null" with strict=True fails on the nulls it makes.
    strict = ambiguous != "null" or zone == "Asia/Kolkata"
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime("%Y-%m-%d %H:%M", time_zone=zone, strict=strict,
                                                                      ambiguous=ambiguous)), {"s": values})
    if not strict:
        assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.to_datetime("%Y-%m-%d %H:%M", time_zone=zone,
                                                                                ambiguous=ambiguous)),
                          {"s": values}, kind="InvalidOperationError")


def test_strptime_dtypes():
    data = {"s": ["2024-01-31 10:00:00", None]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.strptime(pl.Datetime("ms"), "%Y-%m-%d %H:%M:%S").alias("a"),
                                         pl.col("s").str.strptime(pl.Date, "%Y-%m-%d %H:%M:%S").alias("b"),
                                         pl.col("s").str.strptime(pl.Time, "%Y-%m-%d %H:%M:%S").alias("c"),
                                         pl.col("s").str.strptime(pl.Datetime, "%Y-%m-%d %H:%M:%S").alias("d")),
                data)


@pytest.mark.parametrize("value,fmt", [("2022-01", "%Y-%m"), ("2022", "%Y"), ("2022 Jan", "%Y %b"), ("Jan 2022", "%b %Y"),
                                       ("01-15", "%m-%d"), ("15", "%d"), ("22-01", "%y-%m"), ("2022-15", "%Y-%d"),
                                       ("2022-13", "%Y-%m"), ("2022 Tue", "%Y %a"), ("2022-02 Tue", "%Y-%m %a")])
def test_missing_fields_default_to_the_first(value, fmt):
    # Without week or weekday fields, what the format lacks is filled from 0001-01-01.
    data = {"s": [value, None]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_date(fmt, strict=False).alias("d"),
                                         pl.col("s").str.to_datetime(fmt, strict=False).alias("t")), data)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_datetime("%H:%M", strict=False)), {"s": ["10:30", None]})
