"""Files frazil writes are read equal by pyarrow and polars (and duckdb when installed),
and files they write, with every codec, are read equal by frazil; through the Python API."""
import datetime as dt
import decimal

import polars
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

import frazil as fz


def sample() -> polars.DataFrame:
    n = 1000
    return polars.DataFrame(
        {
            "i8": polars.Series([i % 100 - 50 if i % 7 else None for i in range(n)], dtype=polars.Int8),
            "i64": [i * 1_000_003 if i % 11 else None for i in range(n)],
            "u32": polars.Series([i for i in range(n)], dtype=polars.UInt32),
            "f64": [float(i) / 3 if i % 5 else (float("nan") if i % 10 else None) for i in range(n)],
            "f32": polars.Series([i / 7 for i in range(n)], dtype=polars.Float32),
            "b": [bool(i % 3) if i % 4 else None for i in range(n)],
            "s": [f"value-{i % 37}" * (1 + i % 3) if i % 9 else None for i in range(n)],
            "d": [dt.date(2020, 1, 1) + dt.timedelta(days=i) for i in range(n)],
            "ts": [dt.datetime(2024, 1, 1) + dt.timedelta(seconds=37 * i) for i in range(n)],
            "dec": [decimal.Decimal(i) / 100 for i in range(n)],
        },
        schema_overrides={"dec": polars.Decimal(10, 2)},
    )


@pytest.mark.parametrize("compression", ["zstd", "snappy", "gzip", "lz4", "uncompressed"])
def test_frazil_parquet_read_by_others(tmp_path, compression):
    df = sample()
    path = tmp_path / "f.parquet"
    fz.DataFrame(df).write_parquet(path, compression=compression, row_group_size=300)
    assert_frame_equal(polars.read_parquet(path), df)
    assert_frame_equal(polars.from_arrow(pq.read_table(path)), df)
    duckdb = pytest.importorskip("duckdb")
    got = duckdb.connect().sql(f"SELECT * FROM read_parquet('{path}')").pl()
    assert_frame_equal(got, df, check_dtypes=False)


@pytest.mark.parametrize("compression", ["zstd", "snappy", "gzip", "lz4", "none"])
@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_pyarrow_parquet_read_by_frazil(tmp_path, compression, version):
    df = sample()
    path = tmp_path / "p.parquet"
    pq.write_table(df.to_arrow(), path, compression=compression, data_page_version=version, row_group_size=256)
    assert_frame_equal(fz.read_parquet(path).to_polars(), df)


@pytest.mark.parametrize("compression", ["zstd", "snappy", "lz4", "uncompressed"])
def test_polars_parquet_read_by_frazil(tmp_path, compression):
    df = sample()
    path = tmp_path / "p.parquet"
    df.write_parquet(path, compression=compression, row_group_size=200)
    assert_frame_equal(fz.read_parquet(path).to_polars(), df)
    # The lazy scan with projection, predicate and a limit agrees with polars too.
    q = lambda m: m.scan_parquet(path).filter(m.col("i64") > 10_000_000).select("s", "d").head(50)
    assert_frame_equal(q(fz).collect().to_polars(), q(polars).collect())


def test_csv_round_trips(tmp_path):
    df = sample().drop("dec")
    path = tmp_path / "f.csv"
    fz.DataFrame(df).write_csv(path)
    assert path.read_text() == df.write_csv()
    assert_frame_equal(fz.read_csv(path, try_parse_dates=True).to_polars(),
                       polars.read_csv(path, try_parse_dates=True))
    df.write_csv(path)
    q = lambda m: m.scan_csv(path, try_parse_dates=True).filter(m.col("b")).group_by("s").agg(m.col("f64").sum())
    assert_frame_equal(q(fz).collect().to_polars(), q(polars).collect(), check_row_order=False)


@pytest.mark.parametrize("unit", ["ms", "us", "ns"])
def test_zoned_column_keeps_its_zone_in_parquet(tmp_path, unit):
    # A zoned column written by frazil reads back zoned in pyarrow and Polars, and as
    # TIMESTAMP WITH TIME ZONE (DuckDB keeps instants, not zone names) with the same instants.
    df = fz.DataFrame({"t": [dt.datetime(2024, 3, 31, 1, 30), None, dt.datetime(2024, 10, 27, 2, 30),
                             dt.datetime(1969, 7, 20, 20, 17), dt.datetime(2101, 1, 1)]}).with_columns(
        fz.col("t").cast(fz.Datetime(unit)).dt.replace_time_zone("Europe/Amsterdam", ambiguous="earliest"))
    path = tmp_path / "zoned.parquet"
    df.write_parquet(path)
    assert str(pq.read_table(path).schema.field("t").type) == f"timestamp[{unit}, tz=Europe/Amsterdam]"
    back = polars.read_parquet(path)
    assert back.schema["t"] == polars.Datetime(unit, "Europe/Amsterdam")
    assert back["t"].to_list() == df["t"].to_list()
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.sql("SET TimeZone = 'UTC'")
    kind = con.sql(f"SELECT typeof(t) FROM read_parquet('{path}') LIMIT 1").fetchall()[0][0]
    assert kind == ("TIMESTAMPTZ_NS" if unit == "ns" else "TIMESTAMP WITH TIME ZONE")
    instants = [r[0] for r in con.sql(f"SELECT epoch_us(CAST(t AS TIMESTAMPTZ)) FROM read_parquet('{path}')").fetchall()]
    expected = back.select(polars.col("t").dt.epoch("us"))["t"].to_list()
    assert instants == expected
