"""Arrow IPC (file = Feather v2, and stream): every dtype written by frazil reads equal in
pyarrow, Polars and DuckDB, theirs read equal in frazil; compression, projection, row
limits, memory maps, dictionaries, and malformed files."""
from __future__ import annotations

import io
import os
import random

import numpy as np
import polars
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.ipc as paipc
import pytest
from io_frames import every_dtype, rows_equal

import frazil as pl

COMPRESSIONS = ["uncompressed", "lz4", "zstd"]


def _rows(table_or_df) -> list:
    t = table_or_df if isinstance(table_or_df, pa.Table) else table_or_df.to_arrow()
    return t.to_pylist()


@pytest.mark.parametrize("compression", COMPRESSIONS)
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("compat_oldest", [False, True])
def test_frazil_written_reads_equal_elsewhere(tmp_path, compression, stream, compat_oldest) -> None:
    df = every_dtype()
    path = tmp_path / "x.arrow"
    level = pl.CompatLevel.oldest() if compat_oldest else None
    if stream:
        df.write_ipc_stream(path, compression=compression, compat_level=level)
        theirs = paipc.open_stream(pa.OSFile(str(path))).read_all()
        pol = polars.read_ipc_stream(path)
    else:
        df.write_ipc(path, compression=compression, compat_level=level)
        theirs = feather.read_table(path)
        pol = polars.read_ipc(path)
    want = _rows(df)
    assert rows_equal(theirs.to_pylist(), want)
    assert rows_equal(pol.to_arrow().to_pylist(), want)
    # Types survive: zones, units, decimals, nested.
    got_types = {f.name: f.type for f in theirs.schema}
    assert got_types["dt_zone"] == pa.timestamp("us", "Europe/Amsterdam")
    assert got_types["dt_ns"] == pa.timestamp("ns")
    assert got_types["dur"] == pa.duration("us")
    assert got_types["dec"] == pa.decimal128(18, 3)
    assert got_types["str"] == (pa.large_string() if compat_oldest else pa.string_view())
    assert polars.from_arrow(df.to_arrow()).schema == pol.schema
    # And frazil reads its own file back equal, with the same schema.
    back = pl.read_ipc_stream(path) if stream else pl.read_ipc(path)
    assert back.schema == df.schema
    assert rows_equal(_rows(back), want)


def test_duckdb_reads_frazil_ipc(tmp_path) -> None:
    duckdb = pytest.importorskip("duckdb")
    df = every_dtype().drop("time")  # DuckDB reads time64[ns] as microseconds
    buf = df.write_ipc(None)
    reader = paipc.open_file(buf)  # DuckDB has no IPC reader of its own: it scans Arrow batches
    ipc_table = reader.read_all()  # noqa: F841 - DuckDB finds it by name
    got = duckdb.sql("select * from ipc_table").arrow()
    got = got.read_all() if hasattr(got, "read_all") else got
    assert got.num_rows == df.height
    assert rows_equal(got.select(["i64", "str", "dec", "list", "struct"]).to_pylist(),
                      df.select(["i64", "str", "dec", "list", "struct"]).to_arrow().to_pylist())


@pytest.mark.parametrize("compression", COMPRESSIONS)
def test_theirs_read_in_frazil(compression) -> None:
    df = polars.DataFrame({
        "i": [1, None, 3],
        "s": ["a", None, "a long string over twelve bytes"],
        "cat": polars.Series(["x", "y", "x"], dtype=polars.Categorical),
        "l": [[1, 2], None, []],
        "st": [{"a": 1}, None, {"a": None}],
    })
    for write in (polars.DataFrame.write_ipc, polars.DataFrame.write_ipc_stream):
        f = io.BytesIO()
        write(df, f, compression=compression)
        f.seek(0)
        got = pl.read_ipc(f)
        assert got.schema["cat"] == pl.Categorical  # string dictionaries read as Categorical, as Polars
        assert rows_equal(_rows(got), df.with_columns(polars.col("cat").cast(polars.String)).to_dicts())
    table = pa.table({
        "dict": pa.array(["p", "q", None, "p"]).dictionary_encode(),
        "small": pa.array(["a", "b", None, "d"], pa.string()),
        "large": pa.array([b"a", None, b"c", b"d"], pa.large_binary()),
        "t32": pa.array([1, 2, None, 4], pa.time32("s")),
        "d64": pa.array([0, 86_400_000, None, -86_400_000], pa.date64()),
        "fsb": pa.array([b"ab", b"cd", None, b"ef"], pa.binary(2)),
        "fsl": pa.array([[1, 2], None, [3, 4], [5, 6]], pa.list_(pa.int32(), 2)),
        "ll": pa.array([[1], [2, 3], None, []], pa.list_(pa.int16())),
    })
    sink = io.BytesIO()
    feather.write_feather(table, sink, compression="zstd" if compression == "zstd" else "uncompressed")
    got = pl.read_ipc(sink.getvalue())
    assert got.to_arrow().to_pylist() == polars.from_arrow(table).to_arrow().to_pylist()


def test_projection_row_limit_and_row_index(tmp_path) -> None:
    df = pl.DataFrame({"a": list(range(100)), "b": [str(i) for i in range(100)], "c": [i / 2 for i in range(100)]})
    path = tmp_path / "x.ipc"
    df.write_ipc(path, record_batch_size=7)
    assert feather.read_table(path).to_batches()[0].num_rows == 7
    got = pl.read_ipc(path, columns=["c", "a"], n_rows=10, row_index_name="ri", row_index_offset=5)
    assert got.columns == ["ri", "c", "a"]
    assert got["ri"].to_list() == list(range(5, 15))
    assert got["a"].to_list() == list(range(10))
    assert pl.read_ipc(path, columns=[2, 0]).columns == ["c", "a"]
    lazy = pl.scan_ipc(path).filter(pl.col("a") % 10 == 3).select("b").collect()
    assert lazy["b"].to_list() == [str(i) for i in range(3, 100, 10)]
    assert pl.read_ipc_schema(path) == {"a": pl.Int64, "b": pl.String, "c": pl.Float64}


def test_multiple_files_and_globs(tmp_path) -> None:
    for i in range(3):
        pl.DataFrame({"a": [i, i]}).write_ipc(tmp_path / f"p{i}.ipc")
    got = pl.scan_ipc(tmp_path / "p*.ipc", include_file_paths="f").collect()
    assert got["a"].to_list() == [0, 0, 1, 1, 2, 2]
    assert got["f"].to_list()[0].endswith("p0.ipc")
    assert pl.read_ipc([tmp_path / "p2.ipc", tmp_path / "p0.ipc"])["a"].to_list() == [2, 2, 0, 0]


def _mapped_ranges(path: str) -> list:
    out = []
    with open("/proc/self/maps") as f:
        for line in f:
            if line.rstrip().endswith(path):
                lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                out.append((lo, hi))
    return out


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs /proc/self/maps")
def test_memory_map_is_zero_copy(tmp_path) -> None:
    path = str(tmp_path / "big.ipc")
    pl.from_arrow(pa.table({"x": np.arange(1_000_000, dtype=np.int64)})).write_ipc(path)
    df = pl.read_ipc(path, memory_map=True)
    ranges = _mapped_ranges(path)
    assert ranges, "the file is not mapped"
    addr = df["x"]._col.buffer_address(0, 0)
    assert any(lo <= addr < hi for lo, hi in ranges)
    copied = pl.read_ipc(path, memory_map=False)
    assert not any(lo <= copied["x"]._col.buffer_address(0, 0) < hi for lo, hi in ranges)
    assert copied["x"].to_list()[-3:] == [999_997, 999_998, 999_999]


def test_malformed_files_raise_clear_errors() -> None:
    good = pl.DataFrame({"a": list(range(50)), "s": ["x" * (i % 20) for i in range(50)],
                         "l": [[i] * (i % 3) for i in range(50)]}).write_ipc(None, compression="lz4").getvalue()
    rng = random.Random(3)
    outcomes = set()
    for _ in range(300):
        bad = bytearray(good)
        how = rng.randrange(3)
        if how == 0:
            bad = bad[: rng.randrange(len(bad))]
        else:
            for _ in range(rng.randrange(1, 8)):
                bad[rng.randrange(len(bad))] = rng.randrange(256)
        try:
            pl.read_ipc(bytes(bad))
            outcomes.add("read")
        except (pl.ComputeError, pl.InvalidOperationError, pl.SchemaError, pl.ColumnNotFoundError,
                pl.exceptions.DuplicateError, OSError) as e:
            assert "internal error" not in str(e)
            outcomes.add(type(e).__name__)
    assert "ComputeError" in outcomes
    with pytest.raises(pl.ComputeError, match="not an Arrow IPC file|schema message|malformed message"):
        pl.read_ipc(b"definitely not arrow")


def test_sink_ipc_streams_and_matches(tmp_path) -> None:
    df = every_dtype(500)
    path = tmp_path / "s.ipc"
    df.lazy().filter(pl.col("i64").is_not_null()).sink_ipc(path, compression="zstd", record_batch_size=64)
    want = df.filter(pl.col("i64").is_not_null())
    assert rows_equal(feather.read_table(path).to_pylist(), _rows(want))


@pytest.mark.parametrize("view", [False, True])
def test_string_columns_of_many_batches_read_as_polars_reads_them(tmp_path, view):
    # Long and short, ASCII and multi-byte values over several 64K-row check blocks.
    words = ["", "a", "été", "plain ascii value", "ünïcödé that is longer than twelve", None, "日本語"]
    values = [words[(i * 7919) % len(words)] for i in range(200_000)]
    arr = pa.array(values, pa.string_view() if view else pa.string())
    path = tmp_path / "s.arrow"
    feather.write_feather(pa.table({"s": arr}), path, compression="uncompressed", chunksize=150_000)
    for memory_map in (False, True):
        ours = pl.read_ipc(path, memory_map=memory_map)
        assert ours["s"].to_list() == polars.read_ipc(path)["s"].to_list()


@pytest.mark.parametrize("view", [False, True])
def test_invalid_utf8_in_an_ipc_string_column_names_column_and_row(tmp_path, view):
    good = b"a long enough first value"
    data = good + b"x\xc3(y long enough second value"
    offsets = np.array([0, len(good), len(data)], dtype=np.int32)
    binary = pa.Array.from_buffers(pa.binary(), 2, [None, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data)])
    if view:
        binary = binary.cast(pa.binary_view())
    bad = binary.view(pa.string_view() if view else pa.string())
    path = tmp_path / "bad.arrow"
    feather.write_feather(pa.table({"txt": bad}), path, compression="uncompressed")
    with pytest.raises(pl.exceptions.ComputeError, match=r"'txt'.*row 1|row 1.*'txt'"):
        pl.read_ipc(path)


@pytest.mark.parametrize("compression", ["lz4", "zstd"])
def test_compressed_batches_read_whole_and_projected_as_pyarrow(tmp_path, compression):
    # A whole read decompresses every buffer of a batch on the pool; a projection one by one.
    n = 70_000
    t = pa.table({
        "i": pa.array([None if i % 11 == 0 else i for i in range(n)], pa.int64()),
        "s": pa.array([f"row {i} " * (i % 4) for i in range(n)], pa.string()),
        "f": pa.array([i / 3 for i in range(n)], pa.float64()),
        "l": pa.array([[i, None] if i % 5 else None for i in range(n)], pa.list_(pa.int32())),
    })
    path = tmp_path / "c.arrow"
    feather.write_feather(t, path, compression=compression, chunksize=30_000)
    assert rows_equal(pl.read_ipc(path).to_arrow().to_pylist(), t.to_pylist())
    assert pl.read_ipc(path, columns=["l", "s"]).to_arrow().to_pylist() == t.select(["l", "s"]).to_pylist()


@pytest.mark.parametrize("slice_", [None, (2, 1), (1, 4)])
def test_parquet_read_strings_round_trip_through_ipc_and_arrow(tmp_path, slice_) -> None:
    # Plain-encoded Parquet strings are read as views into the page, where each value is
    # followed by the next one's 4-byte length: a value of 32 or 160 bytes followed by a
    # length of 194 (0xC2, not UTF-8 on its own) was refused as "invalid UTF-8".
    values = ["a" * 32, "b" * 194, "c" * 160, "d" * 200, None, "é" * 16, "x" * 130, ""]
    path = tmp_path / "s.parquet"
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"s": pa.array(values, pa.string())}), path, use_dictionary=False,
                   compression="none")
    df = pl.read_parquet(path)
    want = polars.read_parquet(path)
    if slice_ is not None:
        df, want = df.slice(*slice_), want.slice(*slice_)
    buf = io.BytesIO()
    df.write_ipc(buf)
    buf.seek(0)
    assert pl.read_ipc(buf)["s"].to_list() == want["s"].to_list()
    assert pl.from_arrow(df.to_arrow())["s"].to_list() == want["s"].to_list()
    assert pl.from_arrow(polars.from_arrow(df.to_arrow()).to_arrow())["s"].to_list() == want["s"].to_list()
