"""Sources and datasets, against Polars: lists, globs, directories and in-memory sources;
hive partitions (typed, pruned by predicates), file path columns, row indices across
files, files whose columns differ (missing / extra columns, cast options), compressed
CSV; and Parquet files that keep every dtype with pyarrow, Polars and DuckDB."""
from __future__ import annotations

import gzip
import io

import polars
import pyarrow.parquet as pq
import pytest
from io_frames import every_dtype, rows_equal

import frazil as pl


def test_parquet_keeps_every_dtype_elsewhere(tmp_path) -> None:
    df = every_dtype()
    path = tmp_path / "x.parquet"
    df.write_parquet(path)
    want = df.to_arrow().to_pylist()
    t = pq.read_table(path)
    assert rows_equal(t.to_pylist(), want)
    types = {f.name: str(f.type) for f in t.schema}
    assert types["dur"] == "duration[us]" and types["dt_zone"] == "timestamp[us, tz=Europe/Amsterdam]"
    theirs = polars.read_parquet(path)
    assert theirs.schema == polars.from_arrow(df.to_arrow()).schema
    assert rows_equal(theirs.to_arrow().to_pylist(), want)
    back = pl.read_parquet(path)
    assert back.schema == df.schema
    assert rows_equal(back.to_arrow().to_pylist(), want)
    duckdb = pytest.importorskip("duckdb")
    got = duckdb.sql(f"select i64, str, dec, list, struct from read_parquet('{path}')").fetchall()
    assert [list(r) for r in got] == [list(r) for r in df.select("i64", "str", "dec", "list", "struct").rows()]
    # Theirs, with zones and durations, read back in frazil.
    out = tmp_path / "polars.parquet"
    polars.from_arrow(df.to_arrow()).write_parquet(out)
    assert pl.read_parquet(out).schema == df.schema


def _three_files(tmp_path, fmt: str) -> list:
    paths = []
    for i in range(3):
        p = tmp_path / f"part{i}.{fmt}"
        df = pl.DataFrame({"a": [i * 10 + j for j in range(4)], "s": [f"{i}-{j}" for j in range(4)]})
        getattr(df, f"write_{fmt}")(p)
        paths.append(p)
    return paths


@pytest.mark.parametrize("fmt", ["parquet", "csv", "ipc", "ndjson"])
def test_lists_globs_memory_and_row_index(tmp_path, fmt: str) -> None:
    paths = _three_files(tmp_path, fmt)
    scan = getattr(pl, f"scan_{fmt}")
    pscan = getattr(polars, f"scan_{fmt}")
    for source, psource in ((paths, paths), (str(tmp_path / f"part*.{fmt}"), str(tmp_path / f"part*.{fmt}")),
                            ([io.BytesIO(p.read_bytes()) for p in paths], [io.BytesIO(p.read_bytes()) for p in paths])):
        ours = scan(source, row_index_name="ri", row_index_offset=2).filter(pl.col("a") % 3 == 0).collect()
        theirs = pscan(psource, row_index_name="ri", row_index_offset=2).filter(polars.col("a") % 3 == 0).collect()
        assert ours.to_arrow().to_pylist() == theirs.to_arrow().to_pylist()
        assert scan(source, n_rows=6).collect()["a"].to_list() == [0, 1, 2, 3, 10, 11]


def test_directory_with_hive_partitions(tmp_path) -> None:
    for year in (2023, 2024):
        for month in (1, 2):
            d = tmp_path / f"year={year}" / f"month={month}"
            d.mkdir(parents=True)
            pl.DataFrame({"v": [year * 100 + month, month]}).write_parquet(d / "data.parquet")
    d = tmp_path / "year=__HIVE_DEFAULT_PARTITION__" / "month=3"
    d.mkdir(parents=True)
    pl.DataFrame({"v": [0]}).write_parquet(d / "data.parquet")
    ours = pl.scan_parquet(tmp_path).collect().sort("v")
    theirs = polars.scan_parquet(tmp_path).collect().sort("v")
    assert ours.schema == {"v": pl.Int64, "year": pl.Int64, "month": pl.Int64}
    assert ours.to_arrow().to_pylist() == theirs.to_arrow().to_pylist()
    # Pruning on partition values reads only the matching files (and gives the same rows).
    lf = pl.scan_parquet(tmp_path).filter((pl.col("year") == 2024) & (pl.col("month") > 1))
    assert lf.collect()["v"].to_list() == [202402, 2]
    assert pl.scan_parquet(tmp_path).filter(pl.col("year").is_null()).collect()["v"].to_list() == [0]
    typed = pl.scan_parquet(tmp_path, hive_schema={"year": pl.String, "month": pl.Int8}).collect()
    assert typed.schema["year"] == pl.String and typed.schema["month"] == pl.Int8
    files = pl.scan_parquet(tmp_path, include_file_paths="path").collect()
    assert all(p.endswith("data.parquet") for p in files["path"].to_list())
    # Writing a hive layout reads back the same.
    out = tmp_path.parent / (tmp_path.name + "_out")
    ours.write_parquet(out, partition_by=["year", "month"])
    again = pl.scan_parquet(out).collect().sort("v")
    assert again.select("v", "year", "month").to_arrow().to_pylist() == ours.to_arrow().to_pylist()


def test_files_with_different_columns() -> None:
    a, b = io.BytesIO(), io.BytesIO()
    pl.DataFrame({"x": [1], "y": ["a"]}).write_parquet(a)
    pl.DataFrame({"x": [2], "z": [True]}).write_parquet(b)
    a.seek(0)
    b.seek(0)
    with pytest.raises(pl.SchemaError, match="extra column in file outside of expected schema: z"):
        pl.scan_parquet([a, b]).collect()
    with pytest.raises(pl.ColumnNotFoundError, match="did not find column y"):
        pl.scan_parquet([a, b], extra_columns="ignore").collect()
    got = pl.scan_parquet([a, b], missing_columns="insert", extra_columns="ignore").collect()
    assert got.to_dict(as_series=False) == {"x": [1, 2], "y": ["a", None]}
    c = io.BytesIO()
    pl.DataFrame({"x": [3]}, schema={"x": pl.Int32}).write_parquet(c)
    c.seek(0)
    with pytest.raises(pl.SchemaError, match="hint: pass cast_options"):
        pl.scan_parquet([a, c], missing_columns="insert").collect()
    got = pl.scan_parquet([a, c], missing_columns="insert",
                          cast_options=pl.ScanCastOptions(integer_cast="upcast")).collect()
    assert got["x"].to_list() == [1, 3] and got.schema["x"] == pl.Int64


def test_compressed_csv_is_detected(tmp_path) -> None:
    text = b"a,b\n1,x\n2,y\n"
    path = tmp_path / "x.csv.gz"
    path.write_bytes(gzip.compress(text))
    assert pl.read_csv(path).to_dict(as_series=False) == {"a": [1, 2], "b": ["x", "y"]}
    assert pl.read_csv(gzip.compress(text))["a"].to_list() == [1, 2]
    df = pl.DataFrame({"a": [1, 2]})
    df.write_csv(tmp_path / "y.csv.zst", compression="zstd")
    assert pl.read_csv(tmp_path / "y.csv.zst")["a"].to_list() == [1, 2]
    with pytest.raises(pl.InvalidOperationError):
        df.write_csv(tmp_path / "z.csv", compression="gzip")


@pytest.mark.parametrize("fmt", ["parquet", "csv", "ipc", "ndjson"])
def test_write_to_file_objects(fmt: str) -> None:
    df = pl.DataFrame({"a": [1, None, 3], "s": ["x", "y", None]})
    f = io.BytesIO()
    getattr(df, f"write_{fmt}")(f)
    f.seek(0)
    back = getattr(polars, f"read_{fmt}")(f)
    assert back.to_arrow().to_pylist() == df.to_arrow().to_pylist()


def _hive_tree(root, m) -> None:
    for a, b, x in ((1, 1, 1), (1, 2, 2), (22, 1, 3), (22, 2, 4)):
        path = root / f"a={a}" / f"b={b}" / "data.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        m.DataFrame({"x": [x] * 3}).write_parquet(path)


HIVE_SCANS = [
    ("root", lambda m, r: m.scan_parquet(r, hive_partitioning=True)),
    ("below a directory", lambda m, r: m.scan_parquet(r / "a=1", hive_partitioning=True)),
    ("two directories of one level", lambda m, r: m.scan_parquet([r / "a=1", r / "a=22"], hive_partitioning=True)),
    ("a file: the whole path", lambda m, r: m.scan_parquet(r / "a=1/b=2/data.parquet", hive_partitioning=True)),
    ("a glob: the whole path", lambda m, r: m.scan_parquet(r / "a=1/**/*.parquet", hive_partitioning=True)),
    ("a file without hive", lambda m, r: m.scan_parquet(r / "a=1/b=2/data.parquet")),
    ("a glob without hive", lambda m, r: m.scan_parquet(r / "a=1/**/*.parquet")),
    ("two directories without hive", lambda m, r: m.scan_parquet([r / "a=1", r / "a=22"])),
    ("a hive schema turns it on", lambda m, r: m.scan_parquet(r / "a=1/b=2/data.parquet",
                                                             hive_schema={"a": m.UInt8, "b": m.Int32})),
    ("a hive schema on a glob", lambda m, r: m.scan_parquet(r / "**/*.parquet", hive_schema={"a": m.Int16, "b": m.Int8})),
]


@pytest.mark.parametrize(("name", "scan"), HIVE_SCANS, ids=[s[0] for s in HIVE_SCANS])
def test_hive_partition_columns_as_polars_finds_them(tmp_path, name, scan) -> None:
    _hive_tree(tmp_path, pl)
    got = scan(pl, tmp_path).collect()
    want = scan(polars, tmp_path).collect()
    assert got.columns == want.columns
    assert [str(t) for t in got.dtypes] == [str(t) for t in want.dtypes]
    assert sorted(got.rows()) == sorted(want.rows())


def test_hive_errors_as_polars_raises(tmp_path) -> None:
    _hive_tree(tmp_path, pl)
    with pytest.raises(pl.exceptions.InvalidOperationError, match="different directory levels"):
        pl.scan_parquet([tmp_path / "a=1", tmp_path / "a=22/b=1"], hive_partitioning=True).collect()
    with pytest.raises(polars.exceptions.InvalidOperationError, match="different directory levels"):
        polars.scan_parquet([tmp_path / "a=1", tmp_path / "a=22/b=1"], hive_partitioning=True).collect()
    for m in (pl, polars):
        with pytest.raises(m.exceptions.ComputeError, match="a hive schema was given but hive_partitioning was disabled"):
            m.scan_parquet(tmp_path, hive_schema={"a": m.Int64}, hive_partitioning=False).collect()


def test_write_parquet_with_pyarrow_writes_what_polars_does(tmp_path) -> None:
    df = pl.DataFrame({"d": list(range(5)), "a": [i % 3 for i in range(5)]})
    df.write_parquet(tmp_path / "ds", use_pyarrow=True, pyarrow_options={"partition_cols": ["a"]})
    polars.from_arrow(df.to_arrow()).write_parquet(tmp_path / "pds", use_pyarrow=True,
                                                   pyarrow_options={"partition_cols": ["a"]})
    assert sorted(p.name for p in (tmp_path / "ds").iterdir()) == sorted(p.name for p in (tmp_path / "pds").iterdir())
    got = pl.scan_parquet(tmp_path / "ds" / "**/*.parquet", hive_partitioning=True).collect().sort("d")
    assert got.to_dict(as_series=False) == df.to_dict(as_series=False)
    df.write_parquet(tmp_path / "one.parquet", use_pyarrow=True, compression="uncompressed", row_group_size=2)
    assert pq.ParquetFile(tmp_path / "one.parquet").metadata.num_row_groups == 3
    assert pl.read_parquet(tmp_path / "one.parquet").to_dict(as_series=False) == df.to_dict(as_series=False)
    with pytest.raises(TypeError, match="cannot use `hive_partitions` with `use_pyarrow=True`"):
        pl.read_parquet(tmp_path / "one.parquet", hive_schema={"c": pl.Int32}, use_pyarrow=True)
