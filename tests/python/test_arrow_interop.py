"""Interop without surprises: requested_schema, compat levels, pyarrow compute on exported
tables, to_pandas of every dtype (against Polars' to_pandas), DuckDB scans of frames and
lazy frames, and trusted UTF-8 from Polars."""
import datetime as dt
import decimal

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from pandas.testing import assert_frame_equal as assert_pandas_equal

import frazil as fz

LONG = "a string longer than twelve bytes"


def strings_frame():
    return fz.DataFrame({
        "s": ["b", None, LONG, "a", ""],
        "b": [b"\x00", None, LONG.encode(), b"a", b""],
        "l": [["x", None], None, [LONG], [], ["y"]],
        "st": [{"k": "p", "v": 1}, None, {"k": LONG, "v": None}, {"k": None, "v": 3}, {"k": "", "v": 0}],
    })


def multi_chunk_frame():
    # Two chunks, the second sliced so that its validity starts at a bit offset.
    a = fz.DataFrame({"s": ["x", None, "y"], "i": [1, 2, 3]})
    b = fz.DataFrame({"s": [None, "q", None, LONG, "w", None, "z", "é", None, "last"], "i": list(range(10))})
    return fz.concat([a, b.slice(3, 7)], rechunk=False)


def test_requested_schema_large_and_regular_strings():
    df = strings_frame()
    for string_type, binary_type in [(pa.large_string(), pa.large_binary()), (pa.string(), pa.binary()),
                                     (pa.string_view(), pa.binary_view())]:
        want = pa.schema([
            ("s", string_type), ("b", binary_type), ("l", pa.large_list(string_type)),
            ("st", pa.struct([("k", string_type), ("v", pa.int64())])),
        ])
        t = pa.RecordBatchReader.from_stream(df, schema=want).read_all()
        assert t.schema == want
        assert t.to_pylist() == df.rows(named=True)


def test_requested_schema_on_series_array_and_stream():
    s = fz.Series("s", ["a", None, LONG])
    arr = pa.array(s, type=pa.large_string())
    assert arr.type == pa.large_string() and arr.to_pylist() == ["a", None, LONG]
    chunked = pa.chunked_array(s, type=pa.string())
    assert chunked.type == pa.string() and chunked.to_pylist() == ["a", None, LONG]


def test_requested_schema_keeps_multi_chunk_and_sliced_data():
    df = multi_chunk_frame()
    assert df["s"].n_chunks() == 2
    t = pa.RecordBatchReader.from_stream(df, schema=pa.schema([("s", pa.large_string()), ("i", pa.int64())])).read_all()
    assert t.column("s").type == pa.large_string()
    assert t.to_pylist() == df.rows(named=True)


def test_to_arrow_compat_levels():
    df = strings_frame()
    old = df.to_arrow()
    assert old.schema == df.to_arrow(compat_level=fz.CompatLevel.oldest()).schema
    assert old.schema.field("s").type == pa.large_string()
    assert old.schema.field("b").type == pa.large_binary()
    assert old.schema.field("l").type == pa.large_list(pa.large_string())
    new = df.to_arrow(compat_level=fz.CompatLevel.newest())
    assert new.schema.field("s").type == pa.string_view()
    assert new.schema.field("b").type == pa.binary_view()
    assert old.to_pylist() == new.to_pylist() == df.rows(named=True)
    # The same types as Polars gives at each level.
    p = pl.DataFrame(df)
    assert old.schema == p.to_arrow().schema
    assert new.schema == p.to_arrow(compat_level=pl.CompatLevel.newest()).schema
    with pytest.raises(TypeError):
        fz.CompatLevel()
    with pytest.raises(TypeError):
        df.to_arrow(compat_level="oldest")


def test_pyarrow_compute_on_exported_tables():
    df = fz.DataFrame({"s": ["b", None, LONG, "a"], "i": [1, 2, 3, 4]})
    t = df.to_arrow()
    assert pc.equal(t["s"], "a").to_pylist() == [False, None, False, True]
    assert pc.utf8_upper(t["s"]).to_pylist() == ["B", None, LONG.upper(), "A"]
    assert t.sort_by("s")["i"].to_pylist() == [4, 3, 1, 2]
    assert t.group_by("s").aggregate([("i", "sum")]).num_rows == 4
    assert pc.utf8_length(df["s"].to_arrow()).to_pylist() == [1, None, len(LONG), 1]


def test_empty_and_one_row_exports():
    empty = fz.DataFrame({"s": fz.Series("s", [], dtype=fz.String)})
    t = empty.to_arrow()
    assert t.num_rows == 0 and t.schema.field("s").type == pa.large_string()
    one = fz.DataFrame({"s": [None]}, schema={"s": fz.String})
    assert one.to_arrow().to_pylist() == [{"s": None}]


ALL_DTYPES = {
    "i8": pl.Series([1, None, -3], dtype=pl.Int8),
    "u64": pl.Series([2**64 - 1, None, 3], dtype=pl.UInt64),
    "f32": pl.Series([1.5, None, float("nan")], dtype=pl.Float32),
    "f64": pl.Series([-0.0, None, float("inf")]),
    "bool": pl.Series([True, None, False]),
    "str": pl.Series(["a", None, LONG]),
    "bin": pl.Series([b"\x00", None, b"z" * 40]),
    "date": pl.Series([dt.date(2020, 1, 1), None, dt.date(1970, 1, 1)]),
    "dt_ms": pl.Series([dt.datetime(2020, 1, 1, 1, 2, 3), None, dt.datetime(1960, 1, 1)], dtype=pl.Datetime("ms")),
    "dt_tz": pl.Series([dt.datetime(2020, 1, 1), None, dt.datetime(2021, 6, 1)]).dt.replace_time_zone("Europe/Berlin"),
    "dur": pl.Series([dt.timedelta(1), None, dt.timedelta(microseconds=-5)]),
    "time": pl.Series([dt.time(1, 2, 3, 4), None, dt.time(0)]),
    "dec": pl.Series([decimal.Decimal("1.25"), None, decimal.Decimal("-3.50")], dtype=pl.Decimal(10, 2)),
    "list_i": pl.Series([[1, 2], None, []]),
    "list_str": pl.Series([["a", None], None, [LONG]]),
    "list_list_str": pl.Series([[["a"], None], None, [[LONG, None]]]),
    "struct": pl.Series([{"x": 1, "y": "a"}, None, {"x": None, "y": LONG}]),
    "null": pl.Series([None, None, None]),
}


@pytest.mark.parametrize("name", list(ALL_DTYPES))
def test_to_pandas_of_every_dtype_matches_polars(name):
    p = pl.DataFrame({name: ALL_DTYPES[name]})
    df = fz.DataFrame(p)
    assert_pandas_equal(df.to_pandas(), p.to_pandas())
    # And the Series alone, sliced past the first row (offsets in the export).
    pd.testing.assert_series_equal(df[name].slice(1, 2).to_pandas(), p[name].slice(1, 2).to_pandas())


def test_duckdb_scans_a_dataframe_and_a_lazyframe():
    df = fz.DataFrame({"k": ["a", "b", "a", None], "v": [1, 2, 3, 4]})
    lf = df.lazy().filter(fz.col("v") > 1)
    got = duckdb.sql("select k, sum(v) as s from df group by k order by k nulls last").fetchall()
    assert got == [("a", 4), ("b", 2), (None, 4)]
    got = duckdb.sql("select count(*), max(k) from lf").fetchall()
    assert got == [(3, "b")]
    # A LazyFrame hands pyarrow its collected result too.
    assert pa.table(lf).to_pylist() == lf.collect().rows(named=True)


def test_polars_strings_are_trusted_and_equal():
    p = pl.DataFrame({"s": ["é", None, LONG * 3, "ascii"], "l": [["ü"], None, [], [LONG]]})
    df = fz.DataFrame(p)
    assert df.rows() == p.rows()
    assert fz.Series("s", p["s"]).to_list() == p["s"].to_list()


def test_invalid_utf8_from_pyarrow_is_still_caught():
    offsets = pa.py_buffer(pa.array([0, 1, 3], pa.int32()).buffers()[1])
    bad = pa.Array.from_buffers(pa.string(), 2, [None, offsets, pa.py_buffer(b"a\xc3\x28")])
    with pytest.raises(fz.ComputeError, match="'c'"):
        fz.from_arrow(pa.table({"c": bad}))
