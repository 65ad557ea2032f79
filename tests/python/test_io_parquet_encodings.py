"""Parquet files as other writers make them, read by frazil and compared with pyarrow: the
encodings, codecs, nested layouts, INT96, decimals, page indexes and empty pages that the
apache/parquet-testing corpus covers (`make parquet-corpus` runs the corpus itself when it
is at hand; these are generated here so that `make test` needs nothing fetched)."""
from __future__ import annotations

import datetime
import decimal
import math

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import frazil as pl

N = 2_000
rng = np.random.default_rng(7)


def _norm(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, list):
        if v and all(isinstance(x, tuple) and len(x) == 2 for x in v):  # a map from pyarrow
            return [{"key": _norm(k), "value": _norm(x)} for k, x in v]
        return [_norm(x) for x in v]
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    return v


def assert_reads_as_pyarrow(path, columns=None) -> None:
    want = pq.read_table(path, columns=columns)
    got = pl.read_parquet(path, columns=columns).to_arrow()
    assert got.column_names == want.column_names
    assert got.num_rows == want.num_rows
    for name in want.column_names:
        assert _norm(got.column(name).to_pylist()) == _norm(want.column(name).to_pylist()), name


def _with_nulls(arr: pa.Array, every: int = 7) -> pa.Array:
    mask = pa.array(np.arange(len(arr)) % every == 3)
    return pa.compute.if_else(mask, pa.scalar(None, arr.type), arr)


def _ints(dtype) -> pa.Array:
    info = np.iinfo(dtype)
    vals = rng.integers(max(info.min, -(1 << 40)), min(info.max, 1 << 40), N, dtype=dtype, endpoint=True)
    vals[:4] = [0, 1, info.max, info.min]  # extremes defeat narrow delta bit widths
    return _with_nulls(pa.array(vals))


def _floats(dtype) -> pa.Array:
    vals = rng.standard_normal(N).astype(dtype) * 1e3
    vals[:5] = [np.nan, np.inf, -np.inf, -0.0, 0.0]
    return _with_nulls(pa.array(vals))


def _strings() -> pa.Array:
    # Shared prefixes (what DELTA_BYTE_ARRAY exploits), empty strings, long ones.
    words = ["", "a", "apple", "applesauce", "banana", "x" * 40, "ünïcödé"]
    return _with_nulls(pa.array([words[i % len(words)] + str(i // 3) for i in range(N)]))


def _table(columns: dict) -> pa.Table:
    return pa.table(columns)


ENCODED = {
    "DELTA_BINARY_PACKED": {"i32": _ints(np.int32), "i64": _ints(np.int64), "u32": _ints(np.uint32)},
    "DELTA_LENGTH_BYTE_ARRAY": {"s": _strings()},
    "DELTA_BYTE_ARRAY": {"s": _strings(), "b": pa.compute.cast(_strings(), pa.binary())},
    "BYTE_STREAM_SPLIT": {"f32": _floats(np.float32), "f64": _floats(np.float64), "i32": _ints(np.int32),
                          "i64": _ints(np.int64)},
    "PLAIN": {"i32": _ints(np.int32), "f64": _floats(np.float64), "s": _strings(),
              "bool": _with_nulls(pa.array(rng.random(N) < 0.5))},
    "RLE": {"bool": _with_nulls(pa.array(rng.random(N) < 0.3))},
}


@pytest.mark.parametrize("encoding", sorted(ENCODED))
@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
def test_column_encodings(tmp_path, encoding: str, page_version: str) -> None:
    t = _table(ENCODED[encoding])
    path = tmp_path / "t.parquet"
    pq.write_table(t, path, use_dictionary=False, column_encoding=encoding, data_page_version=page_version,
                   data_page_size=1024, compression="snappy")
    assert encoding in pq.ParquetFile(path).metadata.row_group(0).column(0).encodings
    assert_reads_as_pyarrow(path)


@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
def test_rle_dictionary(tmp_path, page_version: str) -> None:
    t = _table({"s": _strings(), "i": pa.array(rng.integers(0, 5, N)), "f": pa.array(rng.integers(0, 3, N) / 4)})
    path = tmp_path / "t.parquet"
    # A small dictionary page limit makes later pages fall back to PLAIN in the same chunk.
    pq.write_table(t, path, use_dictionary=True, data_page_version=page_version, data_page_size=512,
                   dictionary_pagesize_limit=256)
    assert "RLE_DICTIONARY" in pq.ParquetFile(path).metadata.row_group(0).column(0).encodings
    assert_reads_as_pyarrow(path)


@pytest.mark.parametrize("compression", ["none", "snappy", "gzip", "zstd", "lz4", "brotli"])
@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
def test_codecs(tmp_path, compression: str, page_version: str) -> None:
    t = _table({"i": _ints(np.int64), "s": _strings(), "f": _floats(np.float64)})
    path = tmp_path / "t.parquet"
    pq.write_table(t, path, compression=compression, data_page_version=page_version, data_page_size=2048)
    assert_reads_as_pyarrow(path)


def test_nested(tmp_path) -> None:
    t = pa.table({
        "l": pa.array([[1, 2], None, [], [None, 4]] * 50, pa.list_(pa.int32())),
        "ll": pa.array([[["a"], [], None], None, [[None, "bc"]], []] * 50, pa.list_(pa.list_(pa.string()))),
        "st": pa.array([{"a": 1, "b": ["x"]}, None, {"a": None, "b": None}, {"a": 3, "b": []}] * 50,
                       pa.struct([("a", pa.int64()), ("b", pa.list_(pa.string()))])),
        "m": pa.array([[("k", 1), ("j", None)], None, [], [("z", 3)]] * 50, pa.map_(pa.string(), pa.int64())),
        "ls": pa.array([[{"x": 1.5}], [None], None, [{"x": None}]] * 50, pa.list_(pa.struct([("x", pa.float64())]))),
    })
    for page_version in ("1.0", "2.0"):
        path = tmp_path / f"n{page_version}.parquet"
        pq.write_table(t, path, data_page_version=page_version, data_page_size=256, row_group_size=150)
        assert_reads_as_pyarrow(path)
        assert_reads_as_pyarrow(path, columns=["ll", "m"])


def test_int96_timestamps(tmp_path) -> None:
    ts = pa.array([datetime.datetime(2020, 1, 2, 3, 4, 5, 678901), None, datetime.datetime(1900, 12, 31),
                   datetime.datetime(2262, 4, 11)], pa.timestamp("us"))
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"ts": ts}), path, use_deprecated_int96_timestamps=True)
    assert pq.ParquetFile(path).schema.column(0).physical_type == "INT96"
    got = pl.read_parquet(path)["ts"].to_list()
    assert got == ts.to_pylist()


@pytest.mark.parametrize(("precision", "scale"), [(5, 2), (9, 0), (18, 3), (38, 10)])
@pytest.mark.parametrize("as_integer", [True, False])
def test_decimals(tmp_path, precision: int, scale: int, as_integer: bool) -> None:
    decimal.getcontext().prec = 50
    q = decimal.Decimal(1).scaleb(-scale)
    vals = [decimal.Decimal(int(x)).scaleb(-scale).quantize(q) for x in rng.integers(-(10 ** min(precision, 17)) + 1,
                                                                                      10 ** min(precision, 17), 100)]
    vals[:3] = [decimal.Decimal(0).quantize(q), None, decimal.Decimal("9" * (precision - scale) or "0").quantize(q)]
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"d": pa.array(vals, pa.decimal128(precision, scale))}), path,
                   store_decimal_as_integer=as_integer)
    assert pl.read_parquet(path)["d"].to_list() == vals


def test_page_index_and_tiny_pages(tmp_path) -> None:
    t = _table({"i": pa.array(np.arange(N)), "s": _strings()})
    path = tmp_path / "t.parquet"
    pq.write_table(t, path, write_page_index=True, data_page_size=64, row_group_size=700)
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).has_offset_index
    assert_reads_as_pyarrow(path)
    got = pl.scan_parquet(path).filter(pl.col("i").is_between(650, 720)).collect()["i"].to_list()
    assert got == list(range(650, 721))


def test_zero_row_files(tmp_path) -> None:
    # pyarrow 26 and pandas write 0-row column chunks with data_page_offset = 0.
    t = pa.table({"a": pa.array([], pa.int64()), "s": pa.array([], pa.string()),
                  "l": pa.array([], pa.list_(pa.int32()))})
    for v in ("1.0", "2.0"):
        path = tmp_path / f"e{v}.parquet"
        pq.write_table(t, path, data_page_version=v, compression="snappy")
        if pq.ParquetFile(path).metadata.num_row_groups:
            assert pq.ParquetFile(path).metadata.row_group(0).column(0).data_page_offset == 0
        df = pl.read_parquet(path)
        assert df.shape == (0, 3)
        assert df.columns == ["a", "s", "l"]
    import pandas as pd

    path = tmp_path / "pandas.parquet"
    pd.DataFrame({"a": pd.Series([], dtype="int64")}).to_parquet(path)
    assert pl.read_parquet(path).shape == (0, 1)


def test_all_null_pages(tmp_path) -> None:
    # All-null pages carry no value bytes (a v2 page's compressed section is then empty).
    t = pa.table({"a": pa.array([None] * 5, pa.int64()), "s": pa.array([None] * 5, pa.string()),
                  "l": pa.array([None, [], [None], None, None], pa.list_(pa.int32()))})
    for compression in ("snappy", "zstd", "gzip", "lz4", "brotli"):
        for v in ("1.0", "2.0"):
            path = tmp_path / f"n_{compression}_{v}.parquet"
            pq.write_table(t, path, compression=compression, data_page_version=v, use_dictionary=False)
            assert_reads_as_pyarrow(path)


def test_brotli_written_by_frazil(tmp_path) -> None:
    df = pl.DataFrame({"a": list(range(1000)), "s": [str(i % 17) for i in range(1000)]})
    path = tmp_path / "b.parquet"
    df.write_parquet(path, compression="brotli", compression_level=5)
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression == "BROTLI"
    assert pq.read_table(path).to_pylist() == df.to_arrow().to_pylist()


@pytest.mark.parametrize(("compression", "level"), [("zstd", 0), ("zstd", 23), ("gzip", 10), ("brotli", 12),
                                                    ("gzip", -1)])
def test_compression_level_out_of_range(tmp_path, compression: str, level: int) -> None:
    with pytest.raises(pl.InvalidOperationError, match="valid compression range"):
        pl.DataFrame({"a": [1]}).write_parquet(tmp_path / "x.parquet", compression=compression,
                                               compression_level=level)
    assert not (tmp_path / "x.parquet").exists()
