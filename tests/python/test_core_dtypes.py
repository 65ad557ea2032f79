"""frazil.datatypes and the construction of frames from Python objects."""
import datetime as dt
import decimal
import zoneinfo

import polars as pl
import pytest

import frazil as fz


def test_dtype_classes_and_instances_compare_like_polars():
    assert fz.Int64 == fz.Int64()
    assert fz.Int64() == fz.Int64
    assert fz.Int64 != fz.Int32
    assert fz.Datetime("us") == fz.Datetime
    assert fz.Datetime == fz.Datetime("ns", "UTC")
    assert fz.Datetime("us") != fz.Datetime("ns")
    assert fz.Datetime("us", "UTC") != fz.Datetime("us")
    assert fz.List(fz.Int64) == fz.List(fz.Int64())
    assert fz.List(fz.Int64) != fz.List(fz.String)
    assert fz.Decimal(10, 2) == fz.Decimal(10, 2)
    assert fz.Decimal(10, 2) != fz.Decimal(10, 3)
    assert fz.Utf8 is fz.String
    assert hash(fz.Int64) == hash(fz.Int64())
    assert fz.Int64 in {fz.Int64: 1}
    assert fz.Int64.is_integer() and fz.Int8().is_signed_integer() and fz.UInt16.is_unsigned_integer()
    assert fz.Float32.is_float() and fz.Date.is_temporal() and fz.List(fz.Int8).is_nested()
    assert not fz.String.is_numeric()


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (fz.Int8, pl.Int8), (fz.Int16, pl.Int16), (fz.Int32, pl.Int32), (fz.Int64, pl.Int64),
        (fz.UInt8, pl.UInt8), (fz.UInt16, pl.UInt16), (fz.UInt32, pl.UInt32), (fz.UInt64, pl.UInt64),
        (fz.Float32, pl.Float32), (fz.Float64, pl.Float64), (fz.Boolean, pl.Boolean),
        (fz.String, pl.String), (fz.Binary, pl.Binary), (fz.Date, pl.Date), (fz.Time, pl.Time),
        (fz.Null, pl.Null),
        (fz.Datetime("ms", "Europe/Paris"), pl.Datetime("ms", "Europe/Paris")),
        (fz.Datetime(), pl.Datetime()),
        (fz.Duration("ns"), pl.Duration("ns")),
        (fz.Decimal(12, 4), pl.Decimal(12, 4)),
        (fz.Decimal(), pl.Decimal()),
        (fz.List(fz.List(fz.String)), pl.List(pl.List(pl.String))),
        (fz.Struct({"a": fz.Int64, "b": fz.List(fz.Float32)}), pl.Struct({"a": pl.Int64, "b": pl.List(pl.Float32)})),
    ],
)
def test_dtype_repr_matches_polars_and_compares_equal(ours, theirs):
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert ours == theirs
    assert fz.datatypes.parse_into_dtype(theirs) == ours


def test_struct_fields_and_field_repr():
    s = fz.Struct([fz.Field("a", fz.Int64), fz.Field("b", fz.String)])
    assert [f.name for f in s.fields] == ["a", "b"]
    assert repr(s.fields[0]) == "Field('a', Int64)"
    assert s == fz.Struct({"a": fz.Int64, "b": fz.String})
    assert s != fz.Struct({"b": fz.String, "a": fz.Int64})


NAIVE = dt.datetime(2024, 2, 29, 13, 45, 10, 123456)
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")

# Each case: column values, the dtype Polars (and frazil) infer.
INFERENCE_CASES = [
    ([1, 2, None], fz.Int64),
    ([1.5, None, -2.0], fz.Float64),
    ([None, 2.5, 1], fz.Float64),  # first non-null float: Polars agrees
    (["a", None, "a long string over twelve bytes"], fz.String),
    ([True, None, False], fz.Boolean),
    ([None, None], fz.Null),
    ([], fz.Null),
    ([dt.date(2020, 1, 1), None], fz.Date),
    ([NAIVE, None], fz.Datetime("us")),
    ([dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)], fz.Datetime("us", "UTC")),
    ([dt.datetime(2020, 6, 1, 12, tzinfo=BERLIN), None], fz.Datetime("us", "Europe/Berlin")),
    ([dt.timedelta(days=1, microseconds=3), None], fz.Duration("us")),
    ([dt.time(23, 59, 59, 999999), None], fz.Time),
    ([decimal.Decimal("1.25"), decimal.Decimal("-100.5"), None], fz.Decimal(38, 2)),
    ([b"\x00\xff", None, b"x" * 20], fz.Binary),
    ([[1, 2], None, []], fz.List(fz.Int64)),
    ([["a"], [None, "b"]], fz.List(fz.String)),
    ([[[1]], [[2, 3], []]], fz.List(fz.List(fz.Int64))),
    ([{"a": 1, "b": "x"}, None, {"a": None, "b": "y"}], fz.Struct({"a": fz.Int64, "b": fz.String})),
    ([2**63], fz.UInt64),
]


@pytest.mark.parametrize("values, expected", INFERENCE_CASES)
def test_inference_matches_polars(values, expected):
    df = fz.DataFrame({"c": values})
    assert df.schema["c"] == expected
    p = pl.DataFrame({"c": values})
    assert df.schema == p.schema
    assert df.dtypes == p.dtypes
    got = df.to_dict(as_series=False)["c"]
    assert got == p.to_dict(as_series=False)["c"]
    assert got == values  # aware datetimes compare as instants, Decimals by value


def test_mixed_int_and_float_is_float64():
    # Polars 2.x rejects [1, 2.5]; the frazil contract (Polars 1.x) is Float64.
    df = fz.DataFrame({"a": [1, 2.5, None], "b": [True, 2, None]})
    assert df.schema == fz.Schema({"a": fz.Float64, "b": fz.Int64})
    assert df.rows() == [(1.0, 1), (2.5, 2), (None, None)]


def test_incompatible_values_raise_type_error_naming_column():
    with pytest.raises(TypeError, match="'mixed'"):
        fz.DataFrame({"mixed": [1, "a"]})
    with pytest.raises(TypeError, match="'obj'"):
        fz.DataFrame({"obj": [object()]})
    with pytest.raises(TypeError, match="'big'"):
        fz.DataFrame({"big": [-(2**127) - 1]})  # past Int128 (2**64 is an Int128 column, as in Polars)


def test_explicit_schema_overrides_inference():
    df = fz.DataFrame(
        {"a": [1, 2, None], "b": [1, 2, 3], "c": [dt.datetime(2020, 1, 1, 0, 0, 0, 1500)]* 3},
        schema={"a": fz.Int8, "b": fz.Float32, "c": fz.Datetime("ms")},
    )
    assert df.schema == fz.Schema({"a": fz.Int8, "b": fz.Float32, "c": fz.Datetime("ms")})
    assert df["b"].to_list() == [1.0, 2.0, 3.0]
    assert df["c"].to_list()[0] == dt.datetime(2020, 1, 1, 0, 0, 0, 1000)
    with pytest.raises(TypeError, match="out of range"):
        fz.DataFrame({"a": [300]}, schema={"a": fz.UInt8})
    empty = fz.DataFrame(schema={"x": fz.Int64, "y": fz.String})
    assert empty.shape == (0, 2)
    assert empty.schema == pl.DataFrame(schema={"x": pl.Int64, "y": pl.String}).schema


def test_schema_accepts_python_types_and_polars_dtypes():
    df = fz.DataFrame({"a": [1], "b": ["x"]}, schema={"a": float, "b": pl.String})
    assert df.schema == fz.Schema([("a", fz.Float64), ("b", fz.String)])


def test_python_values_round_trip_exactly():
    values = {
        "i": [-(2**63), 2**63 - 1, None],
        "f": [0.1, -0.0, None],
        "s": ["", "ünïcödé and a long tail", None],
        "b": [True, False, None],
        "d": [dt.date(1, 1, 1), dt.date(9999, 12, 31), None],
        "ts": [dt.datetime(1969, 12, 31, 23, 59, 59, 999999), NAIVE, None],
        "tz": [dt.datetime(2020, 3, 29, 1, 30, tzinfo=BERLIN), dt.datetime(2020, 10, 25, 2, 30, tzinfo=BERLIN), None],
        "td": [dt.timedelta(days=-3, microseconds=7), dt.timedelta(0), None],
        "t": [dt.time(0), dt.time(12, 0, 0, 1), None],
        "dec": [decimal.Decimal("12345678901234567890.123"), decimal.Decimal("-0.001"), None],
        "bin": [b"", bytes(range(256)), None],
        "l": [[1, None], [], None],
        "st": [{"x": 1.5, "y": [1]}, {"x": None, "y": None}, None],
    }
    df = fz.DataFrame(values)
    out = df.to_dict(as_series=False)
    for name, col in values.items():
        assert out[name] == col, name
    p = pl.DataFrame(values)
    assert df.schema == p.schema
    assert out == p.to_dict(as_series=False)


def test_series_basics():
    s = fz.Series("a", [1, None, 3])
    assert s.name == "a" and s.dtype == fz.Int64 and len(s) == 3
    assert s.to_list() == [1, None, 3]
    assert s.null_count() == 1
    assert s[2] == 3 and s[-1] == 3 and s[1] is None
    assert fz.Series([1.5]).name == ""
    assert s.head(2).to_list() == [1, None]
    assert repr(s) == repr(pl.Series("a", [1, None, 3]))
    long = fz.Series("x", [f"v{i}" for i in range(15)])
    assert repr(long) == repr(pl.Series("x", [f"v{i}" for i in range(15)]))
    assert repr(fz.Series("e", [], dtype=fz.Float64)) == repr(pl.Series("e", [], dtype=pl.Float64))
    for values in ([1.5, None], [True, False], [dt.date(2020, 1, 1)], [None], [{"a": 1}],
                   ["x" * 30, "y" * 31, "ü" * 40, None]):
        assert repr(fz.Series("s", values)) == repr(pl.Series("s", values)), values


@pytest.mark.parametrize("name", ["List", "Struct", "Array"])
def test_bare_nested_class_is_its_emptiest_dtype(name):
    # Polars: pl.Series([], dtype=pl.List) is List(Null); Struct({}) and Array(Null, 0) alike.
    for values in ([], [None]):
        want = pl.Series("x", values, dtype=getattr(pl, name))
        got = fz.Series("x", values, dtype=getattr(fz, name))
        assert repr(got.dtype) == repr(want.dtype) and got.to_list() == want.to_list()


def test_is_is_stricter_than_equality():
    for m in (pl, fz):
        assert m.List(m.Int64).is_(m.List(m.Int64)) and not m.List(m.Int64).is_(m.List)
        assert m.List(m.Int64) == m.List and not m.Datetime("ms").is_(m.Datetime("us"))
        assert m.Int8().is_(m.Int8) and not m.Int8().is_(m.Int16())
