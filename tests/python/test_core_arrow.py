"""Arrow interchange: pyarrow and Polars into frazil and back, zero-copy where possible."""
import datetime as dt
import decimal

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

# The zero-copy level: strings and binary leave as views (the default, CompatLevel.oldest(),
# gives large_string/large_binary, as Polars' to_arrow() does).
NEWEST = fz.CompatLevel.newest()

BERLIN_TS = [dt.datetime(2020, 1, 1, 1, 2, 3, 4), None, dt.datetime(1960, 1, 1)]

# Arrow types that frazil holds in the same layout: they must come back identical.
SAME_LAYOUT = {
    "i8": pa.array([1, None, -3], pa.int8()),
    "i16": pa.array([1, None, -300], pa.int16()),
    "i32": pa.array([1, None, -(2**31)], pa.int32()),
    "i64": pa.array([2**63 - 1, None, -(2**63)], pa.int64()),
    "u8": pa.array([255, None, 0], pa.uint8()),
    "u16": pa.array([65535, None, 0], pa.uint16()),
    "u32": pa.array([2**32 - 1, None, 0], pa.uint32()),
    "u64": pa.array([2**64 - 1, None, 0], pa.uint64()),
    "f32": pa.array([1.5, None, float("inf")], pa.float32()),
    "f64": pa.array([0.1, None, -0.0], pa.float64()),
    "bool": pa.array([True, None, False]),
    "sv": pa.array(["a", None, "a long string beyond twelve bytes"], pa.string_view()),
    "bv": pa.array([b"\x00\xff", None, b"x" * 20], pa.binary_view()),
    "date": pa.array([dt.date(2020, 1, 1), None, dt.date(1960, 5, 6)], pa.date32()),
    "ts_ms": pa.array(BERLIN_TS, pa.timestamp("ms")),
    "ts_us_tz": pa.array(BERLIN_TS, pa.timestamp("us", "Europe/Berlin")),
    "ts_ns_utc": pa.array(BERLIN_TS, pa.timestamp("ns", "UTC")),
    "dur_ms": pa.array([dt.timedelta(1), None, dt.timedelta(milliseconds=-5)], pa.duration("ms")),
    "dur_us": pa.array([dt.timedelta(1), None, dt.timedelta(microseconds=-5)], pa.duration("us")),
    "dur_ns": pa.array([1000, None, -5000], pa.duration("ns")),
    "time_ns": pa.array([3_723_000_000_000, None, 0], pa.time64("ns")),
    "dec": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-100.50")], pa.decimal128(10, 2)),
    "dec38": pa.array([decimal.Decimal("9" * 38), None, decimal.Decimal(0)], pa.decimal128(38, 0)),
    "large_list": pa.array([[1, None], None, []], pa.large_list(pa.int64())),
    "struct": pa.array(
        [{"x": 1, "y": "a"}, None, {"x": None, "y": "bbbbbbbbbbbbbbbbbbbb"}],
        pa.struct([("x", pa.int64()), ("y", pa.string_view())]),
    ),
    "null": pa.array([None, None, None], pa.null()),
}

# Arrow types that frazil converts on import: (array, the type it comes back as).
CONVERTED = {
    "utf8": (pa.array(["a", None, "a long string beyond twelve bytes"], pa.string()), pa.string_view()),
    "large_utf8": (pa.array(["é", None, "a long string beyond twelve bytes"], pa.large_string()), pa.string_view()),
    "binary": (pa.array([b"\x00", None, b"y" * 30], pa.binary()), pa.binary_view()),
    "large_binary": (pa.array([b"", None, b"y" * 30], pa.large_binary()), pa.binary_view()),
    "fixed_binary": (pa.array([b"abcd", None, b"\x00\x01\x02\x03"], pa.binary(4)), pa.binary_view()),
    "list": (pa.array([[1, 2], None, []], pa.list_(pa.int32())), pa.large_list(pa.int32())),
    "list_of_str": (pa.array([["a", None], None, ["a long string beyond twelve bytes"]]), pa.large_list(pa.string_view())),
    "fixed_list": (pa.array([[1, 2], None, [3, 4]], pa.list_(pa.int64(), 2)), pa.list_(pa.int64(), 2)),  # an Array: kept fixed-size
    "time_us": (pa.array([dt.time(1, 2, 3, 4), None, dt.time(23, 59)], pa.time64("us")), pa.time64("ns")),
    "time_s": (pa.array([3600, None, 59], pa.time32("s")), pa.time64("ns")),
    "time_ms": (pa.array([3600_001, None, 59], pa.time32("ms")), pa.time64("ns")),
    "ts_s": (pa.array(BERLIN_TS, pa.timestamp("s", "UTC")), pa.timestamp("ms", "UTC")),
    "dur_s": (pa.array([1, None, -5], pa.duration("s")), pa.duration("ms")),
    # A string dictionary is a Categorical: exported as Polars does (uint32 codes, large_string values).
    "dict": (pa.array(["x", None, "a long string beyond twelve bytes", "x"][:3]).dictionary_encode(),
             pa.dictionary(pa.uint32(), pa.large_string())),
}


def same_rows(a, b):
    """Row lists equal, with NaN equal to NaN."""
    def norm(v):
        return "NaN" if isinstance(v, float) and v != v else v

    return [tuple(map(norm, r)) for r in a] == [tuple(map(norm, r)) for r in b]


def same_layout_table():
    return pa.table(SAME_LAYOUT)


@pytest.mark.parametrize("name", list(SAME_LAYOUT))
def test_pyarrow_round_trip_is_unchanged(name):
    t = pa.table({name: SAME_LAYOUT[name]})
    back = fz.from_arrow(t).to_arrow(compat_level=NEWEST)
    assert back.schema == t.schema
    assert back.equals(t)
    assert back.column(0).to_pylist() == t.column(0).to_pylist()


@pytest.mark.parametrize("name", list(CONVERTED))
def test_pyarrow_converted_types_keep_their_values(name):
    arr, expected_type = CONVERTED[name]
    t = pa.table({name: arr})
    back = fz.from_arrow(t).to_arrow(compat_level=NEWEST)
    assert back.schema.field(0).type == expected_type
    assert back.column(0).to_pylist() == arr.to_pylist()


def test_whole_table_round_trips_sliced_and_empty():
    t = same_layout_table()
    df = fz.from_arrow(t)
    assert df.shape == (3, len(SAME_LAYOUT))
    assert df.to_arrow(compat_level=NEWEST).equals(t)
    # Sliced input: the arrays carry offset 1.
    sliced = t.slice(1, 2)
    assert fz.from_arrow(sliced).to_arrow(compat_level=NEWEST).equals(sliced)
    assert fz.from_arrow(sliced).rows() == [tuple(r.values()) for r in sliced.to_pylist()]
    # Empty input keeps its schema.
    empty = t.slice(0, 0)
    back = fz.from_arrow(empty)
    assert back.shape == (0, len(SAME_LAYOUT))
    assert back.to_arrow(compat_level=NEWEST).schema == t.schema
    assert back.to_arrow(compat_level=NEWEST).num_rows == 0


def test_date64_reads_as_millisecond_datetimes_as_in_polars():
    import polars

    arr = pa.array([dt.date(2020, 1, 1), None, dt.date(1960, 5, 6)], pa.date64())
    t = pa.table({"d": arr})
    back = fz.from_arrow(t)
    assert back.to_arrow().schema.field(0).type == pa.timestamp("ms")
    assert back["d"].to_list() == polars.from_arrow(t)["d"].to_list()
    assert fz.from_arrow(t.slice(1, 2))["d"].to_list() == polars.from_arrow(t.slice(1, 2))["d"].to_list()


def test_converted_types_sliced():
    for name, (arr, _) in CONVERTED.items():
        sliced = pa.table({name: arr}).slice(1, 2)
        assert fz.from_arrow(sliced)[name].to_list() == arr.to_pylist()[1:3], name


def test_chunked_table_keeps_chunks():
    schema = pa.schema([("a", pa.int64()), ("s", pa.string())])
    t = pa.concat_tables([pa.table({"a": [1, 2], "s": ["x", "y"]}, schema=schema),
                          pa.table({"a": [3], "s": [None]}, schema=schema)])
    df = fz.from_arrow(t)
    assert df.n_chunks("all") == [2, 2]
    assert df.rows() == [(1, "x"), (2, "y"), (3, None)]
    assert df.to_arrow(compat_level=NEWEST).column("a").num_chunks == 2


def test_frame_from_pyarrow_record_batch_and_reader():
    batch = pa.record_batch({"a": [1, 2]})
    assert fz.DataFrame(batch).rows() == [(1,), (2,)]
    reader = pa.RecordBatchReader.from_batches(batch.schema, [batch, batch])
    assert fz.from_arrow(reader).height == 4


def test_series_from_and_to_arrow():
    s = fz.from_arrow(pa.array([1, None, 3]))
    assert isinstance(s, fz.Series)
    assert s.to_list() == [1, None, 3]
    chunked = fz.from_arrow(pa.chunked_array([[1, 2], [3]]))
    assert chunked.to_list() == [1, 2, 3] and chunked.n_chunks() == 2
    arr = fz.Series("x", ["a", None]).to_arrow(compat_level=NEWEST)
    assert arr.type == pa.string_view() and arr.to_pylist() == ["a", None]
    arr = fz.Series("x", ["a", None]).to_arrow()
    assert arr.type == pa.large_string() and arr.to_pylist() == ["a", None]
    assert pa.chunked_array(chunked).num_chunks == 2


POLARS_FRAME = {
    "i8": pl.Series([1, None, -3], dtype=pl.Int8),
    "i16": pl.Series([1, None, -3], dtype=pl.Int16),
    "i32": pl.Series([1, None, -3], dtype=pl.Int32),
    "i64": pl.Series([1, None, -3], dtype=pl.Int64),
    "u8": pl.Series([1, None, 3], dtype=pl.UInt8),
    "u16": pl.Series([1, None, 3], dtype=pl.UInt16),
    "u32": pl.Series([1, None, 3], dtype=pl.UInt32),
    "u64": pl.Series([2**64 - 1, None, 3], dtype=pl.UInt64),
    "f32": pl.Series([1.5, None, float("nan")], dtype=pl.Float32),
    "f64": pl.Series([0.1, None, float("-inf")], dtype=pl.Float64),
    "bool": pl.Series([True, None, False]),
    "str": pl.Series(["a", None, "a long string beyond twelve bytes"]),
    "bin": pl.Series([b"\x00", None, b"z" * 40]),
    "date": pl.Series([dt.date(2020, 1, 1), None, dt.date(1, 1, 1)]),
    "dt_ms": pl.Series(BERLIN_TS, dtype=pl.Datetime("ms")),
    "dt_us_tz": pl.Series(BERLIN_TS, dtype=pl.Datetime("us")).dt.replace_time_zone("Asia/Tokyo"),
    "dt_ns": pl.Series(BERLIN_TS, dtype=pl.Datetime("ns")),
    "dur": pl.Series([dt.timedelta(1), None, dt.timedelta(microseconds=-5)]),
    "dur_ns": pl.Series([dt.timedelta(1), None, dt.timedelta(microseconds=-5)], dtype=pl.Duration("ns")),
    "time": pl.Series([dt.time(1, 2, 3, 4), None, dt.time(0)]),
    "dec": pl.Series([decimal.Decimal("1.25"), None, decimal.Decimal("-3.50")], dtype=pl.Decimal(10, 2)),
    "list": pl.Series([[1, 2], None, []]),
    "list_str": pl.Series([["a", None], None, ["a long string beyond twelve bytes"]]),
    "struct": pl.Series([{"x": 1, "y": "a"}, None, {"x": None, "y": "b"}]),
    "null": pl.Series([None, None, None]),
}


def test_polars_round_trip_is_unchanged():
    p = pl.DataFrame(POLARS_FRAME)
    df = fz.DataFrame(p)
    assert df.schema == p.schema
    back = df.to_polars()
    assert_frame_equal(back, p)
    ours, theirs = df.to_dict(as_series=False), p.to_dict(as_series=False)
    for name in p.columns:
        if name in ("f32",):  # NaN != NaN as Python floats
            assert ours[name][:2] == theirs[name][:2] and np.isnan(ours[name][2])
        else:
            assert ours[name] == theirs[name], name
    # sliced and empty
    assert_frame_equal(fz.DataFrame(p.slice(1, 2)).to_polars(), p.slice(1, 2))
    assert_frame_equal(fz.DataFrame(p.clear()).to_polars(), p.clear())
    assert same_rows(fz.DataFrame(p.slice(1, 2)).rows(), p.slice(1, 2).rows())


def test_polars_strings_cross_without_copying_the_views():
    p = pl.DataFrame({"s": ["a long string beyond twelve bytes"] * 1000})
    df = fz.DataFrame(p)
    back = df.to_polars()
    assert_frame_equal(back, p)


def test_pandas_in_and_out():
    pdf = pd.DataFrame({"a": [1, 2, 3], "s": ["x", None, "z"], "f": [1.5, np.nan, 2.0]})
    df = fz.DataFrame(pdf)
    assert df.schema == fz.Schema({"a": fz.Int64, "s": fz.String, "f": fz.Float64})
    assert df.rows() == [(1, "x", 1.5), (2, None, None), (3, "z", 2.0)]
    out = df.to_pandas()
    assert list(out.columns) == ["a", "s", "f"]
    assert out["a"].tolist() == [1, 2, 3]
    assert out["s"].tolist()[0] == "x" and out["s"].tolist()[2] == "z"
    assert np.isnan(out["f"].tolist()[1])


def test_capsule_protocol():
    df = fz.DataFrame({"a": [1, 2], "s": ["x", None]})
    schema = pa.schema(df)  # uses __arrow_c_schema__
    assert schema == pa.schema([("a", pa.int64()), ("s", pa.string_view())])
    cap = df.__arrow_c_stream__()
    assert type(cap).__name__ == "PyCapsule"
    t = pa.RecordBatchReader.from_stream(df).read_all()
    assert t.to_pylist() == [{"a": 1, "s": "x"}, {"a": 2, "s": None}]
    # A capsule that is never consumed is freed without leaking or crashing.
    del cap
    # Any object with __arrow_c_stream__ is accepted.
    class Wrapper:
        def __init__(self, inner):
            self.inner = inner

        def __arrow_c_stream__(self, requested_schema=None):
            return self.inner.__arrow_c_stream__(requested_schema)

    assert fz.DataFrame(Wrapper(pa.table({"z": [1.0]}))).rows() == [(1.0,)]
    assert pl.DataFrame(fz.DataFrame(Wrapper(df))).rows() == [(1, "x"), (2, None)]


def test_hundred_million_int64_rows_cross_without_a_copy():
    n = 100_000_000
    values = np.arange(n, dtype=np.int64)
    arr = pa.array(values)  # pyarrow wraps numpy's buffer
    address = arr.buffers()[1].address
    t = pa.table({"x": arr})
    df = fz.from_arrow(t)
    assert df.height == n
    assert df.get_column("x")._col.buffer_address(0, 0) == address
    back = df.to_arrow(compat_level=NEWEST)
    assert back.column("x").num_chunks == 1
    assert back.column("x").chunk(0).buffers()[1].address == address
    assert back.column("x").chunk(0)[n - 1].as_py() == n - 1
    # Sliced: the offset travels, the buffer does not move.
    sliced = fz.from_arrow(t.slice(10, 5))
    assert sliced.get_column("x")._col.buffer_address(0, 0) == address + 10 * 8
    assert sliced["x"].to_list() == [10, 11, 12, 13, 14]
    # Polars' side shares the buffer too.
    p = df.to_polars()
    assert p.height == n and p["x"][n - 1] == n - 1
    del back, df, p, t, arr, sliced
