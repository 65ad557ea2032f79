"""The round-trip matrix of issue #20: every dtype (nulls, NaN, -0.0, zones, nested,
Categorical/Enum) written by frazil in Parquet, Arrow IPC, NDJSON and CSV and read by
pyarrow, Polars and DuckDB, and the same frames written by them and read by frazil; equal
in value and in dtype. Where a format cannot carry a dtype (text formats have no Binary,
zone names or nested types in CSV), the columns are dropped by name below, with why."""
from __future__ import annotations

import io

import polars
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from io_frames import every_dtype, rows_equal
from polars.testing import assert_frame_equal

import frazil as pl

duckdb = pytest.importorskip("duckdb")

ENUM = ["", "a", "ünïcödé", "x", "a long string that does not fit a view inline"]

# NDJSON: Polars writes neither Binary nor zone names (an instant as local text), reads NaN
# back as null, and writes Duration as ISO 8601 text that it cannot read back.
NOT_NDJSON = ["bin", "dt_zone", "dt_utc", "f64", "dur"]
# CSV: no nested types, Duration or Binary (Polars refuses them), zoned values are written
# with an offset but read back without the zone.
NOT_CSV = ["bin", "dur", "list", "list_str", "struct", "dt_zone", "dt_utc"]


def frazil_frame(n: int = 50) -> pl.DataFrame:
    df = every_dtype(n)
    return df.with_columns(pl.col("str").cast(pl.Categorical).alias("cat"), pl.col("str").cast(pl.Enum(ENUM)).alias("enum"))


def as_polars(df: pl.DataFrame) -> polars.DataFrame:
    return df.to_polars()


def assert_same(got: polars.DataFrame, want: polars.DataFrame) -> None:
    # Categorical is compared as its strings (the two libraries number categories apart).
    assert got.schema == want.schema
    cats = [n for n, t in want.schema.items() if t == polars.Categorical]
    s = lambda d: d.with_columns(polars.col(cats).cast(polars.String))  # noqa: E731
    assert_frame_equal(s(got), s(want))


@pytest.mark.parametrize("n", [0, 1, 50])
@pytest.mark.parametrize("fmt", ["parquet", "ipc"])
def test_frazil_binary_formats_read_by_pyarrow_and_polars(tmp_path, fmt, n) -> None:
    df = frazil_frame().head(n)
    want = as_polars(df)
    path = tmp_path / f"x.{fmt}"
    if fmt == "parquet":
        df.write_parquet(path, row_group_size=20)
        assert_same(polars.read_parquet(path), want)
        assert_same(polars.from_arrow(pq.read_table(path)), want)
    else:
        df.write_ipc(path)
        assert_same(polars.read_ipc(path), want)
        assert_same(polars.from_arrow(feather.read_table(path)), want)


@pytest.mark.parametrize("fmt", ["parquet", "ipc"])
def test_theirs_binary_formats_read_by_frazil(tmp_path, fmt) -> None:
    want = as_polars(frazil_frame())
    path = tmp_path / f"x.{fmt}"
    writers = {
        "parquet": [lambda: want.write_parquet(path, row_group_size=20),
                    lambda: pq.write_table(want.to_arrow(), path, row_group_size=20)],
        "ipc": [lambda: want.write_ipc(path), lambda: want.write_ipc(path, compat_level=polars.CompatLevel.oldest()),
                lambda: feather.write_feather(want.to_arrow(), path, compression="uncompressed")],
    }[fmt]
    for write in writers:
        write()
        got = pl.read_parquet(path) if fmt == "parquet" else pl.read_ipc(path)
        assert_same(as_polars(got), want)


def test_duckdb_reads_frazil_parquet_and_frazil_reads_duckdb_parquet(tmp_path) -> None:
    df = frazil_frame()
    path = tmp_path / "f.parquet"
    df.write_parquet(path)
    con = duckdb.connect()
    con.sql("SET TimeZone = 'UTC'")
    got = con.sql(f"SELECT * FROM read_parquet('{path}')").pl()
    want = as_polars(df)
    # DuckDB's own type system: a zone is TIMESTAMPTZ shown in the session zone, time is
    # microseconds, a Categorical is VARCHAR (DuckDB has no Categorical), Enum its ENUM, a
    # Duration the INT64 of its Parquet column (as DuckDB reads Polars' and pyarrow's files).
    want_duck = want.with_columns(
        polars.col("dur").dt.total_microseconds(),
        polars.col("dt_zone").dt.convert_time_zone("UTC"),
        polars.col("time").cast(polars.Time),
        polars.col("cat").cast(polars.String),
        polars.col("dt_ns", "dt_ms").cast(polars.Datetime("ns")).cast(polars.Datetime("ns")),
    )
    assert got.columns == want.columns
    for name in want.columns:
        a, b = got.get_column(name), want_duck.get_column(name)
        if name in ("dt_ns", "dt_ms"):
            a, b = a.cast(polars.Datetime("ns")), b.cast(polars.Datetime("ns"))
        if name == "enum":
            a, b = a.cast(polars.String), b.cast(polars.String)
        assert rows_equal(a.to_list(), b.to_list()), name
    # DuckDB's file (its types written as it writes them) reads in frazil as in Polars; a
    # Duration becomes DuckDB's INTERVAL, which Polars cannot read.
    out = tmp_path / "duck.parquet"
    con.register("t", want.drop("cat", "enum", "dur").to_arrow())
    con.sql(f"COPY t TO '{out}' (FORMAT parquet)")
    assert_same(as_polars(pl.read_parquet(out)), polars.read_parquet(out))


def test_duckdb_reads_frazil_ipc_stream_every_dtype() -> None:
    # DuckDB has no IPC reader: it scans the Arrow stream pyarrow reads from frazil's bytes.
    df = frazil_frame().drop("time", "cat", "enum")  # time64[ns]: DuckDB keeps microseconds
    ipc_table = pa.ipc.open_stream(df.write_ipc_stream(None)).read_all()  # noqa: F841 - by name below
    got = duckdb.sql("SELECT * FROM ipc_table").arrow()
    got = got.read_all() if hasattr(got, "read_all") else got
    # A Duration is DuckDB's INTERVAL: compared as its length.
    dur = [None if v is None else v.days * 86_400_000_000 + v.nanoseconds // 1000 for v in got.column("dur").to_pylist()]
    assert dur == df["dur"].dt.total_microseconds().to_list()
    assert rows_equal(got.drop_columns(["dur"]).to_pylist(), df.drop("dur").to_arrow().to_pylist())


def test_ndjson_both_ways_with_polars_and_duckdb(tmp_path) -> None:
    df = frazil_frame().drop(NOT_NDJSON)
    want = as_polars(df)
    path = tmp_path / "f.jsonl"
    df.write_ndjson(path)
    # Polars 2.1 panics reading Int8/16, UInt8/16, Time and Duration from NDJSON with a
    # schema and refuses Decimal: it reads those as Int64/String, cast after.
    unreadable = [n for n, t in want.schema.items() if t in (polars.Int8, polars.Int16, polars.UInt8, polars.UInt16)
                  or isinstance(t, (polars.Time, polars.Duration, polars.Decimal))]
    as_read = {n: (polars.String if isinstance(t, (polars.Time, polars.Decimal)) else polars.Int64)
               if n in unreadable else t for n, t in want.schema.items()}
    theirs = polars.read_ndjson(path, schema=as_read).with_columns(
        polars.col(n).cast(polars.Time if isinstance(want.schema[n], polars.Time) else want.schema[n]) for n in unreadable
        if not isinstance(want.schema[n], polars.Time)).with_columns(
        polars.col(n).str.to_time() for n in unreadable if isinstance(want.schema[n], polars.Time))
    assert_same(theirs, want)
    want.write_ndjson(path)
    assert_same(as_polars(pl.read_ndjson(path, schema=df.schema)), want)
    # Inferred types agree with Polars' inference of the same text.
    assert_same(as_polars(pl.read_ndjson(path)), polars.read_ndjson(path))
    out = tmp_path / "duck.jsonl"
    con = duckdb.connect()
    con.register("t", want.select("i64", "u8", "str", "date", "list", "list_str", "struct").to_arrow())
    con.sql(f"COPY t TO '{out}' (FORMAT json)")
    assert_same(as_polars(pl.read_ndjson(out)), polars.read_ndjson(out))


def test_csv_both_ways_with_polars_and_duckdb(tmp_path) -> None:
    df = frazil_frame().drop(NOT_CSV)
    want = as_polars(df)
    path = tmp_path / "f.csv"
    df.write_csv(path)
    assert_same(polars.read_csv(path, schema=want.schema), want)
    want.write_csv(path)
    assert_same(as_polars(pl.read_csv(path, schema=df.schema)), want)
    assert_same(as_polars(pl.read_csv(path, try_parse_dates=True)), polars.read_csv(path, try_parse_dates=True))
    out = tmp_path / "duck.csv"
    con = duckdb.connect()
    con.register("t", want.select("i64", "f32", "str", "date", "dt_us").to_arrow())
    con.sql(f"COPY t TO '{out}' (FORMAT csv)")
    assert_same(as_polars(pl.read_csv(out, try_parse_dates=True)), polars.read_csv(out, try_parse_dates=True))
    # And file objects: the same bytes.
    buf = io.BytesIO()
    df.write_csv(buf)
    assert buf.getvalue().decode() == want.write_csv()
