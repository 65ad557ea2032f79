"""Time zones, differential against Polars: zoned datetimes print, decompose and cast in
their local time (regression: they used to show UTC clock time under the zone's name),
replace_time_zone with ambiguous/non-existent local times in DST gaps and overlaps,
convert_time_zone, base_utc_offset and dst_offset, in Europe/Amsterdam, America/New_York
and Asia/Kolkata, every time unit, before 1970 and after 2100.

Known data difference: Polars' zone data (chrono-tz) has no DST after 2099 and merges
Europe/Amsterdam into Europe/Brussels before 1970; frazil reads the system's tzdata (as
Python's zoneinfo does), so those cases are compared against zoneinfo instead."""
import datetime as dt
from zoneinfo import ZoneInfo

import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_same, assert_same_error

ZONES = ["Europe/Amsterdam", "America/New_York", "Asia/Kolkata"]
UNITS = ["ns", "us", "ms"]

# Local wall times: ordinary, leap day, pre-1970, after 2100 (winter: no DST question), and
# the DST gap (non-existent) and overlap (ambiguous) of each zone in 2024 (Kolkata has none).
NAIVE = [
    dt.datetime(2024, 1, 15, 8, 30, 15, 123456),
    dt.datetime(2024, 2, 29, 23, 59, 59, 999999),
    dt.datetime(1969, 12, 31, 23, 0),
    dt.datetime(1955, 6, 1, 12, 0),
    dt.datetime(2150, 1, 10, 6, 45),
    None,
]
GAP = {"Europe/Amsterdam": dt.datetime(2024, 3, 31, 2, 30), "America/New_York": dt.datetime(2024, 3, 10, 2, 30)}
OVERLAP = {"Europe/Amsterdam": dt.datetime(2024, 10, 27, 2, 30), "America/New_York": dt.datetime(2024, 11, 3, 1, 30)}


def naive_frame(unit, values=NAIVE):
    return pl.DataFrame({"t": values}, schema={"t": pl.Datetime(unit)})


def zoned_frame(zone, unit, values=NAIVE):
    return naive_frame(unit, values).with_columns(pl.col("t").dt.replace_time_zone(zone))


# ---- the regression: local time, not UTC clock time ------------------------------------

def test_zoned_values_show_and_decompose_in_local_time():
    df = fz.DataFrame({"t": [dt.datetime(2024, 1, 1, tzinfo=ZoneInfo("Asia/Tokyo"))]})
    text = str(df)
    assert "2024-01-01 00:00:00 JST" in text and "2023-12-31" not in text
    out = df.select(fz.col("t").dt.day().alias("d"), fz.col("t").dt.hour().alias("h"),
                    fz.col("t").cast(fz.String).alias("s")).to_dicts()
    assert out == [{"d": 1, "h": 0, "s": "2024-01-01 00:00:00.000000+09:00"}]


@pytest.mark.parametrize("zone", ZONES + ["Asia/Tokyo", "UTC"])
@pytest.mark.parametrize("unit", UNITS)
def test_fields_in_local_time(zone, unit):
    fields = ["year", "month", "day", "hour", "minute", "second", "millisecond", "microsecond", "nanosecond",
              "weekday", "ordinal_day", "quarter", "week", "iso_year", "century", "millennium", "is_leap_year",
              "days_in_month"]
    values = [v for v in NAIVE if v is None or v.year < 2100 or zone == "Asia/Kolkata"]
    assert_same(lambda pl, lf: lf.select(*[getattr(pl.col("t").dt, f)().alias(f) for f in fields]),
                zoned_frame(zone, unit, values), chunks=2)


@pytest.mark.parametrize("zone", ZONES)
def test_cast_to_string_and_display(zone):
    values = [v for v in NAIVE if v is None or v.year >= 1970 or zone != "Europe/Amsterdam"]
    assert_same(lambda pl, lf: lf.select(pl.col("t").cast(pl.String)), zoned_frame(zone, "us", values))
    df = zoned_frame(zone, "us", values)
    assert str(fz.DataFrame(df)) == str(df)


def test_display_matches_polars():
    df = zoned_frame("America/New_York", "us")
    assert str(fz.DataFrame(df)) == str(df)
    ams = zoned_frame("Europe/Amsterdam", "ms", [dt.datetime(2024, 7, 1, 12, 0, 0, 123000), None])
    assert str(fz.DataFrame(ams)) == str(ams)


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("unit", UNITS)
def test_casts_of_zoned_values_are_of_the_instant(zone, unit):
    assert_same(lambda pl, lf: lf.select(pl.col("t").cast(pl.Date).alias("d"), pl.col("t").cast(pl.Time).alias("tm"),
                                         pl.col("t").cast(pl.Datetime("us")).alias("n"),
                                         pl.col("t").cast(pl.Datetime(unit, "Asia/Kolkata")).alias("k"),
                                         pl.col("t").cast(pl.Int64).alias("i")),
                zoned_frame(zone, unit))


def test_python_values_round_trip():
    values = [dt.datetime(2024, 3, 31, 3, 0, tzinfo=ZoneInfo("Europe/Amsterdam")),
              dt.datetime(1950, 1, 1, tzinfo=ZoneInfo("Europe/Amsterdam")), None]
    s = fz.Series("t", values)
    assert s.dtype == fz.Datetime("us", "Europe/Amsterdam")
    assert s.to_list() == values


@pytest.mark.parametrize("values,dtype", [
    ([dt.date(2020, 1, 1), None], lambda m: m.Datetime("ms")),
    ([dt.date(2020, 1, 1), dt.date(2020, 7, 1)], lambda m: m.Datetime("us", "Europe/London")),
    ([dt.date(2020, 7, 1)], lambda m: m.Datetime("ns", "Asia/Kathmandu")),
    ([dt.datetime(2020, 1, 1, 23, 30)], lambda m: m.Datetime("us", "Asia/Kathmandu")),  # naive is UTC
    ([8401, None, -1], lambda m: m.Date),
    ([1, 2], lambda m: m.Datetime("ms")),
    ([1, None], lambda m: m.Duration("ms")),
    ([1000], lambda m: m.Time),
    ([True], lambda m: m.Date),
])
def test_series_of_other_python_values(values, dtype):
    # Polars builds a Datetime column from dates (midnight UTC) and a temporal one from
    # integers alone (its physical values).
    expected = pl.Series("s", values, dtype=dtype(pl))
    got = fz.Series("s", values, dtype=dtype(fz))
    assert str(got.dtype) == str(expected.dtype)
    assert got.to_list() == expected.to_list()


def test_series_of_mixed_integers_and_dates_is_refused():
    with pytest.raises(TypeError):
        pl.Series([1, dt.date(2020, 1, 1)], dtype=pl.Date)
    with pytest.raises(TypeError):
        fz.Series([1, dt.date(2020, 1, 1)], dtype=fz.Date)


# ---- replace_time_zone -------------------------------------------------------------------

@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("unit", UNITS)
def test_replace_time_zone(zone, unit):
    values = [v for v in NAIVE if v is None or v.year >= 1970 or zone != "Europe/Amsterdam"]
    assert_same(lambda pl, lf: lf.with_columns(pl.col("t").dt.replace_time_zone(zone).alias("z"))
                .with_columns(pl.col("z").dt.replace_time_zone(None).alias("back"),
                              pl.col("z").dt.replace_time_zone("Asia/Tokyo").alias("tokyo"),
                              pl.col("z").dt.convert_time_zone("UTC").alias("utc")),
                naive_frame(unit, values), chunks=2)


@pytest.mark.parametrize("zone", ["Europe/Amsterdam", "America/New_York"])
@pytest.mark.parametrize("ambiguous", ["earliest", "latest", "null", "raise"])
def test_dst_overlap(zone, ambiguous):
    data = naive_frame("us", [OVERLAP[zone], OVERLAP[zone] + dt.timedelta(hours=2), None])
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.replace_time_zone(zone, ambiguous=ambiguous)), data)


@pytest.mark.parametrize("zone", ["Europe/Amsterdam", "America/New_York"])
@pytest.mark.parametrize("non_existent", ["null", "raise"])
@pytest.mark.parametrize("unit", UNITS)
def test_dst_gap(zone, non_existent, unit):
    data = naive_frame(unit, [GAP[zone], GAP[zone] + dt.timedelta(hours=2), None])
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.replace_time_zone(zone, non_existent=non_existent)), data)


def test_dst_errors_name_the_value_and_zone():
    df = fz.DataFrame(naive_frame("us", [GAP["Europe/Amsterdam"]]))
    with pytest.raises(fz.ComputeError, match="datetime '2024-03-31 02:30:00' is non-existent in time zone "
                                              "'Europe/Amsterdam'"):
        df.select(fz.col("t").dt.replace_time_zone("Europe/Amsterdam"))
    df = fz.DataFrame(naive_frame("us", [OVERLAP["America/New_York"]]))
    with pytest.raises(fz.ComputeError, match="datetime '2024-11-03 01:30:00' is ambiguous in time zone "
                                              "'America/New_York'"):
        df.select(fz.col("t").dt.replace_time_zone("America/New_York"))


def test_ambiguous_per_row():
    zone = "Europe/Amsterdam"
    data = pl.DataFrame({"t": [OVERLAP[zone]] * 3 + [None], "a": ["earliest", "latest", None, "raise"]})
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.replace_time_zone(zone, ambiguous=pl.col("a"))), data)


def test_unknown_zone_is_a_compute_error():
    data = naive_frame("us")
    assert_same_error(lambda pl, lf: lf.select(pl.col("t").dt.replace_time_zone("Europe/Amsterdma")), data,
                      kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("t").dt.replace_time_zone("UTC").dt.convert_time_zone("Mars/X")),
                      data, kind="ComputeError")
    with pytest.raises(fz.ComputeError, match="did you mean 'Europe/Amsterdam'"):
        fz.DataFrame(data).select(fz.col("t").dt.replace_time_zone("Europe/Amsterdma"))


def test_fixed_offsets_are_etc_zones():
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.replace_time_zone("+01:00").alias("a"),
                                         pl.col("t").dt.replace_time_zone("-05:00").alias("b"),
                                         pl.col("t").dt.replace_time_zone("+00:00").alias("c")),
                naive_frame("us", NAIVE[:2]))


def test_convert_time_zone_of_naive_reads_utc():
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.convert_time_zone("Asia/Kolkata")), naive_frame("us"))


@pytest.mark.parametrize("zone", ZONES)
def test_base_utc_offset_and_dst_offset(zone):
    values = [dt.datetime(2024, 1, 15), dt.datetime(2024, 7, 15), dt.datetime(1960, 7, 1), None]
    if zone == "Europe/Amsterdam":
        values = values[:2] + [None]
    assert_same(lambda pl, lf: lf.select(pl.col("t").dt.base_utc_offset().alias("b"),
                                         pl.col("t").dt.dst_offset().alias("d")),
                zoned_frame(zone, "us", values))


def test_after_2099_frazil_follows_the_tz_rules():
    # Polars (chrono-tz) drops DST after 2099; the IANA rules (and zoneinfo) keep it.
    local = dt.datetime(2150, 7, 1, 12)
    df = fz.DataFrame(naive_frame("us", [local]))
    got = df.select(fz.col("t").dt.replace_time_zone("Europe/Amsterdam")).item()
    assert got == local.replace(tzinfo=ZoneInfo("Europe/Amsterdam"))
    assert got.utcoffset() == dt.timedelta(hours=2)


OFFSET_STRINGS = ["2020-01-01 00:00-08:00", "2024-03-10T05:30:00+05:30", None, "2024-06-01 12:00:00Z"]


@pytest.mark.parametrize("unit", ["ns", "us", "ms"])
def test_eager_string_parsing_infers_utc_from_offsets(unit):
    # Polars' Series (not Expr) to_datetime/strptime without format or zone reads the
    # offsets and gives UTC; the expression form raises (checked below).
    for mod in (pl, fz):
        s = mod.Series(OFFSET_STRINGS)
        a = s.str.to_datetime(time_unit=unit)
        b = s.str.strptime(mod.Datetime(unit))
        assert a.dtype == mod.Datetime(unit, "UTC") and b.dtype == a.dtype
    expected = pl.Series(OFFSET_STRINGS).str.to_datetime(time_unit=unit).to_list()
    assert fz.Series(OFFSET_STRINGS).str.to_datetime(time_unit=unit).to_list() == expected
    assert fz.Series(OFFSET_STRINGS).str.strptime(fz.Datetime(unit)).to_list() == expected
    # Naive strings stay naive; a given zone is used as given.
    assert fz.Series(["2020-01-01 00:00"]).str.to_datetime().dtype == fz.Datetime("us")
    zoned = fz.Series(["2020-01-01 00:00-08:00"]).str.strptime(fz.Datetime("us", "America/Los_Angeles"))
    assert zoned.to_list() == pl.Series(["2020-01-01 00:00-08:00"]).str.strptime(
        pl.Datetime("us", "America/Los_Angeles")).to_list()


def test_expression_string_parsing_of_offsets_without_zone_raises():
    assert_same_error(lambda m, lf: lf.select(m.col("s").str.to_datetime()), {"s": OFFSET_STRINGS},
                      kind="ComputeError")


@pytest.mark.parametrize("dtype_zone", [None, "UTC"])
def test_series_of_aware_datetimes_with_zone_less_dtype_is_utc(dtype_zone):
    values = [dt.datetime(2020, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=-8))), None,
              dt.datetime(2020, 1, 1, tzinfo=ZoneInfo("Asia/Tokyo"))]
    for unit in ("us", "ms"):
        a = pl.Series(values, dtype=pl.Datetime(unit, dtype_zone))
        b = fz.Series(values, dtype=fz.Datetime(unit, dtype_zone))
        assert str(b.dtype) == str(a.dtype) and b.to_list() == a.to_list()
